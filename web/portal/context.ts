/** What every screen of the signed-in portal gets: the API, the messages, the member, the apps. */
import { type Announcer, type Child, h } from "../common/dom.ts";
import type { PortalApi } from "./api.ts";
import { problemText, type TextKey, t } from "./text.ts";
import type { App, Me } from "./wire.ts";

export interface PortalContext {
  api: PortalApi;
  say: Announcer;
  /** Where the screen draws. */
  view: HTMLElement;
  me: Me;
  /** The organisation's apps as last read; `refresh` reads them again. */
  apps(refresh?: boolean): Promise<App[]>;
  /** The app the screens are about, kept across them. */
  selected: string | undefined;
  /** Shows secrets that are shown once, with a copy button each; resolves when the user closes it. */
  showSecrets(title: string, secrets: { label: string; value: string }[], note: string): Promise<void>;
  /** Asks before a change that cannot be undone. */
  confirm(question: string, action: string): Promise<boolean>;
}

/** True when the member may change things (developers and owners); viewers only read. */
export function canChange(me: Me): boolean {
  return me.role !== "viewer";
}

/** A labelled form field around `control`, which has its id. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  const id = control.id;
  const hintId = hint ? `${id}-hint` : undefined;
  if (hintId) control.setAttribute("aria-describedby", hintId);
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    control,
    hint ? h("p", { class: "hint", id: hintId }, hint) : null,
  );
}

/** A table with a caption (for screen readers) and a header row; each cell names its column for the phone layout's cards. */
export function table(caption: string, headers: Child[], rows: Child[][]): HTMLTableElement {
  const columns = headers.map((header) => h("th", { scope: "col" }, header));
  return h(
    "table",
    {},
    h("caption", { class: "visually-hidden" }, caption),
    h("thead", {}, h("tr", {}, ...columns)),
    h(
      "tbody",
      {},
      ...rows.map((cells) =>
        h("tr", {}, ...cells.map((cell, n) => h("td", { "data-label": columns[n]?.textContent ?? "" }, cell))),
      ),
    ),
  );
}

/** The app picker the webhook, verification and usage screens share; `onChange` hears the new app. */
export async function appPicker(context: PortalContext, onChange: (app: App) => void): Promise<HTMLElement | null> {
  const apps = await context.apps();
  if (apps.length === 0) {
    return h("p", { class: "empty" }, t("common.no_apps"));
  }
  const chosen = apps.find((app) => app.app_id === context.selected) ?? apps[0];
  if (!chosen) return null;
  context.selected = chosen.app_id;
  const select = h(
    "select",
    { id: "app-picker", name: "app" },
    ...apps.map((app) => h("option", { value: app.app_id, selected: app.app_id === chosen.app_id }, app.name)),
  );
  select.addEventListener("change", () => {
    const app = apps.find((candidate) => candidate.app_id === select.value);
    if (!app) return;
    context.selected = app.app_id;
    onChange(app);
  });
  queueMicrotask(() => onChange(chosen));
  return h("div", { class: "picker" }, field(t("common.app"), select));
}

/** A button that runs `act` once per click, disabled meanwhile, its failure shown as a message. */
export function action(
  context: PortalContext,
  label: string,
  act: () => Promise<void>,
  attributes: Record<string, string> = {},
): HTMLButtonElement {
  const button = h("button", { type: "button", ...attributes }, label);
  button.addEventListener("click", () => {
    button.disabled = true;
    context.say.clear();
    act()
      .catch((error: unknown) => context.say.error(problemText(error, "common.action_failed", { action: label })))
      .finally(() => {
        button.disabled = false;
      });
  });
  return button;
}

/**
 * Runs `act` when `form` is submitted, its submit button disabled meanwhile and the form reset
 * after; a refusal or failure is shown as `failure` says.
 */
export function onSubmit(
  context: PortalContext,
  form: HTMLFormElement,
  failure: TextKey,
  act: () => Promise<void>,
): void {
  const submit = form.querySelector<HTMLButtonElement>("button[type=submit]");
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (submit) submit.disabled = true;
    context.say.clear();
    act()
      .then(() => form.reset())
      .catch((error: unknown) => context.say.error(problemText(error, failure)))
      .finally(() => {
        if (submit) submit.disabled = false;
      });
  });
}
