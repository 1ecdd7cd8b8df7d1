/**
 * Apps and their keys: create an app (its key shown once), rotate a key with a grace period,
 * name keys, see when each was last used and when one was revoked, revoke one.
 */
import { h, timeOf } from "../common/dom.ts";
import { action, canChange, field, onSubmit, type PortalContext, table } from "./context.ts";
import { problemText, type TextKey, t, text } from "./text.ts";
import type { App, Key, Me } from "./wire.ts";

const MAX_KEY_NAME_LENGTH = "60";

/** How long the old key keeps working after a rotation, offered in this order; a day by default. */
const GRACE_CHOICES = [
  { seconds: 3600, label: "rotate.grace.3600" },
  { seconds: 86_400, label: "rotate.grace.86400" },
  { seconds: 604_800, label: "rotate.grace.604800" },
] as const satisfies readonly { seconds: number; label: TextKey }[];

/** A key's name as text, or a muted "Unnamed". */
function nameText(key: Key): HTMLElement {
  return h("span", key.name ? { class: "key-name" } : { class: "key-name muted" }, key.name ?? t("keys.unnamed"));
}

/**
 * The key's name, and for those who may change things a Rename action: it opens a small form in
 * the cell (Save, or Cancel and Esc to leave it as it was), so the table is not a row of open boxes.
 */
function nameCell(context: PortalContext, app: App, key: Key, redraw: () => void): HTMLElement {
  if (!canChange(context.me)) return nameText(key);
  const cell = h("div", { class: "key-name-cell" });
  const edit = h(
    "button",
    { type: "button", class: "link", "aria-label": t("keys.rename_named", { prefix: key.prefix }) },
    t("keys.rename"),
  );
  const shown = () => cell.replaceChildren(nameText(key), " ", edit);
  edit.addEventListener("click", () => {
    const input = h("input", {
      name: "key_name",
      value: key.name ?? "",
      maxlength: MAX_KEY_NAME_LENGTH,
      required: true,
      autocomplete: "off",
      "aria-label": t("keys.name_of", { prefix: key.prefix }),
    });
    const cancel = h("button", { type: "button" }, t("keys.cancel"));
    const form = h(
      "form",
      { class: "inline-form rename-key" },
      input,
      h("button", { type: "submit", class: "primary" }, t("keys.save")),
      cancel,
    );
    const leave = () => {
      shown();
      edit.focus();
    };
    cancel.addEventListener("click", leave);
    form.addEventListener("keydown", (event) => {
      if (event.key === "Escape") leave();
    });
    onSubmit(context, form, "keys.rename_failed", async () => {
      await context.api.renameKey(app.app_id, key.key_id, input.value.trim());
      context.say.info(t("keys.renamed"));
      redraw();
    });
    cell.replaceChildren(form);
    input.focus();
    input.select();
  });
  shown();
  return cell;
}

function revokeButton(context: PortalContext, app: App, key: Key, redraw: () => void): HTMLButtonElement {
  return action(
    context,
    t("keys.revoke"),
    async () => {
      const sure = await context.confirm(t("keys.revoke_question", { prefix: key.prefix }), t("keys.revoke_confirm"));
      if (!sure) return;
      await context.api.revokeKey(app.app_id, key.key_id);
      context.say.info(t("keys.revoked", { prefix: key.prefix }));
      redraw();
    },
    { class: "danger", "aria-label": t("keys.revoke_named", { prefix: key.prefix }) },
  );
}

function keysTable(context: PortalContext, app: App, redraw: () => void): HTMLElement {
  const live = (key: Key) => key.status === "active" || key.status === "expiring";
  return table(
    t("keys.caption", { app: app.name }),
    [
      t("keys.name"),
      t("keys.key"),
      t("keys.prefix"),
      t("keys.status"),
      t("keys.created"),
      t("keys.expires"),
      t("keys.revoked_at"),
      t("keys.last_used"),
      ...(canChange(context.me) ? [""] : []),
    ],
    app.keys.map((key) => [
      nameCell(context, app, key, redraw),
      h("code", {}, key.key_id),
      h("code", {}, `${key.prefix}…`),
      h("span", { class: `badge ${key.status}` }, text.label("key_status", key.status)),
      timeOf(key.created_at),
      key.expires_at ? timeOf(key.expires_at) : "—",
      key.revoked_at ? timeOf(key.revoked_at) : "—",
      key.last_used_at ? timeOf(key.last_used_at) : t("keys.never"),
      ...(canChange(context.me) ? [live(key) ? revokeButton(context, app, key, redraw) : ""] : []),
    ]),
  );
}

function rotateControls(context: PortalContext, app: App, redraw: () => void): HTMLElement {
  const grace = h(
    "select",
    { id: `grace-${app.app_id}`, name: "grace" },
    ...GRACE_CHOICES.map((choice) =>
      h("option", { value: String(choice.seconds), selected: choice.seconds === 86_400 }, t(choice.label)),
    ),
  );
  const name = h("input", {
    id: `new-key-name-${app.app_id}`,
    name: "key_name",
    maxlength: MAX_KEY_NAME_LENGTH,
    autocomplete: "off",
  });
  const rotate = action(context, t("rotate.submit"), async () => {
    const rotated = await context.api.rotateKey(app.app_id, Number(grace.value), name.value.trim() || undefined);
    await context.showSecrets(
      t("rotate.title"),
      [{ label: t("secret.api_key"), value: rotated.api_key }],
      t("rotate.note"),
    );
    redraw();
  });
  return h("div", { class: "inline-form" }, field(t("rotate.name"), name), field(t("rotate.grace"), grace), rotate);
}

function appCard(context: PortalContext, app: App, redraw: () => void): HTMLElement {
  const headingId = `app-${app.app_id}`;
  return h(
    "article",
    { class: "panel", "aria-labelledby": headingId },
    h("h2", { id: headingId }, app.name),
    h(
      "dl",
      { class: "facts" },
      h("dt", {}, t("app.id")),
      h("dd", {}, h("code", {}, app.app_id)),
      h("dt", {}, t("app.environment")),
      h("dd", {}, text.label("environment", app.environment)),
      h("dt", {}, t("app.status")),
      h("dd", {}, text.label("app_status", app.status)),
      h("dt", {}, t("app.webhook")),
      h("dd", {}, app.webhook_url ? h("code", {}, app.webhook_url) : t("app.webhook_unset")),
    ),
    h("h3", {}, t("app.keys")),
    keysTable(context, app, redraw),
    canChange(context.me) ? rotateControls(context, app, redraw) : null,
  );
}

function createForm(context: PortalContext, redraw: () => void): HTMLElement {
  const name = h("input", { id: "new-app-name", name: "name", required: true, maxlength: "100", autocomplete: "off" });
  const webhook = h("input", {
    id: "new-app-webhook",
    name: "webhook_url",
    type: "url",
    inputmode: "url",
    placeholder: "https://…",
  });
  const keyName = h("input", {
    id: "new-app-key-name",
    name: "key_name",
    maxlength: MAX_KEY_NAME_LENGTH,
    autocomplete: "off",
  });
  const submit = h("button", { type: "submit", class: "primary" }, t("create.submit"));
  const form = h(
    "form",
    { class: "panel", "aria-labelledby": "create-app-title" },
    h("h2", { id: "create-app-title" }, t("create.title")),
    field(t("create.name"), name, t("create.name_hint")),
    field(t("create.webhook"), webhook, t("create.webhook_hint")),
    field(t("create.key_name"), keyName, t("create.key_name_hint")),
    h("div", { class: "actions" }, submit),
  );
  onSubmit(context, form, "create.failed", async () => {
    const created = await context.api.createApp(
      name.value.trim(),
      webhook.value.trim() || undefined,
      keyName.value.trim() || undefined,
    );
    context.selected = created.app_id;
    await context.showSecrets(
      t("create.ready", { name: created.name }),
      [
        { label: t("secret.api_key"), value: created.api_key },
        { label: t("secret.webhook"), value: created.webhook_secret },
      ],
      t("create.note"),
    );
    redraw();
  });
  return form;
}

/** "Apps: 3 of 20", saying so when no more may be made. */
function appsCount({ used, limit }: Me["limits"]["apps"]): string {
  return t(used >= limit ? "apps.count_full" : "apps.count", { used, limit });
}

export function showApps(context: PortalContext): void {
  const list = h("div", { class: "stack", "aria-live": "polite", "aria-busy": "true" });
  const usage = h("p", { id: "apps-usage", class: "intro" }, appsCount(context.me.limits.apps));
  const redraw = () => {
    list.setAttribute("aria-busy", "true");
    Promise.all([context.apps(true), context.api.me()])
      .then(([apps, me]) => {
        context.me = me;
        usage.textContent = appsCount(me.limits.apps);
        list.replaceChildren(
          ...(apps.length === 0
            ? [h("p", { class: "empty" }, t("apps.none"))]
            : apps.map((app) => appCard(context, app, redraw))),
        );
      })
      .catch((error: unknown) => context.say.error(problemText(error, "apps.load_failed")))
      .finally(() => list.removeAttribute("aria-busy"));
  };
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "apps-title" },
      h("h1", { id: "apps-title", tabindex: "-1" }, t("apps.title")),
      h("p", { class: "intro" }, t("apps.intro")),
      usage,
      canChange(context.me) ? createForm(context, redraw) : null,
      list,
    ),
  );
  redraw();
}
