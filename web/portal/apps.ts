/**
 * Apps and their keys: create an app (its key shown once), rotate a key with a grace period,
 * name keys, see when each was last used and when one was revoked, revoke one.
 */
import { h, timeOf } from "../common/dom.ts";
import { action, canChange, field, onSubmit, type PortalContext, reasonOf, table } from "./context.ts";
import { portalLanguage, say } from "./language.ts";
import type { App, Key, Me } from "./wire.ts";

const KEY_TEXTS = {
  name: { en: "Name", tr: "Ad" },
  lastUsed: { en: "Last used", tr: "Son kullanım" },
  revoked: { en: "Revoked", tr: "İptal" },
  never: { en: "Never", tr: "Hiç" },
  unnamed: { en: "Unnamed", tr: "Adsız" },
  rename: { en: "Rename", tr: "Yeniden adlandır" },
  renamed: { en: "The key is renamed.", tr: "Anahtarın adı değişti." },
  renameFailed: { en: "The key could not be renamed.", tr: "Anahtarın adı değiştirilemedi." },
  keyName: { en: "Key name", tr: "Anahtar adı" },
  newKeyName: { en: "New key's name (optional)", tr: "Yeni anahtarın adı (isteğe bağlı)" },
  firstKeyName: { en: "First key's name (optional)", tr: "İlk anahtarın adı (isteğe bağlı)" },
  keyNameHint: {
    en: 'Where the key is used, e.g. "production servers": so you can tell keys apart before revoking one.',
    tr: 'Anahtarın kullanıldığı yer, örneğin "canlı sunucular": iptal etmeden önce anahtarları ayırt etmek için.',
  },
} as const;

const MAX_KEY_NAME_LENGTH = "60";

/** A text of this screen, in an element that says its language. */
function text(texts: { en: string; tr: string }): HTMLElement {
  return h("span", { lang: portalLanguage() }, say(texts));
}

/** The key's name, changeable in place by those who may change things. */
function nameCell(context: PortalContext, app: App, key: Key, redraw: () => void): HTMLElement {
  const shown = key.name ?? say(KEY_TEXTS.unnamed);
  if (!canChange(context.me)) return h("span", key.name ? {} : { lang: portalLanguage(), class: "muted" }, shown);
  const input = h("input", {
    name: "key_name",
    value: key.name ?? "",
    maxlength: MAX_KEY_NAME_LENGTH,
    required: true,
    autocomplete: "off",
    "aria-label": `${say(KEY_TEXTS.keyName)} ${key.prefix}…`,
  });
  const form = h(
    "form",
    { class: "inline-form rename-key", lang: portalLanguage() },
    input,
    h("button", { type: "submit" }, say(KEY_TEXTS.rename)),
  );
  onSubmit(context, form, say(KEY_TEXTS.renameFailed), async () => {
    await context.api.renameKey(app.app_id, key.key_id, input.value.trim());
    context.say.info(say(KEY_TEXTS.renamed));
    redraw();
  });
  return form;
}

const GRACE_CHOICES = [
  { seconds: 3600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" },
  { seconds: 7 * 86_400, label: "7 days" },
] as const;

const KEY_STATUS: Record<Key["status"], string> = {
  active: "Active",
  expiring: "Expiring",
  expired: "Expired",
  revoked: "Revoked",
};

function keysTable(context: PortalContext, app: App, redraw: () => void): HTMLElement {
  const live = (key: Key) => key.status === "active" || key.status === "expiring";
  return table(
    `Keys of ${app.name}`,
    [
      text(KEY_TEXTS.name),
      "Key",
      "Prefix",
      "Status",
      "Created",
      "Expires",
      text(KEY_TEXTS.revoked),
      text(KEY_TEXTS.lastUsed),
      ...(canChange(context.me) ? [""] : []),
    ],
    app.keys.map((key) => [
      nameCell(context, app, key, redraw),
      h("code", {}, key.key_id),
      h("code", {}, `${key.prefix}…`),
      h("span", { class: `badge ${key.status}` }, KEY_STATUS[key.status]),
      timeOf(key.created_at),
      key.expires_at ? timeOf(key.expires_at) : "—",
      key.revoked_at ? timeOf(key.revoked_at) : "—",
      key.last_used_at ? timeOf(key.last_used_at) : text(KEY_TEXTS.never),
      ...(canChange(context.me)
        ? [
            live(key)
              ? action(
                  context,
                  "Revoke",
                  async () => {
                    const sure = await context.confirm(
                      `Revoke ${key.prefix}…? Calls with it stop working within 5 minutes.`,
                      "Revoke key",
                    );
                    if (!sure) return;
                    await context.api.revokeKey(app.app_id, key.key_id);
                    context.say.info(`Key ${key.prefix}… is revoked.`);
                    redraw();
                  },
                  { class: "danger", "aria-label": `Revoke key ${key.prefix}` },
                )
              : "",
          ]
        : []),
    ]),
  );
}

function rotateControls(context: PortalContext, app: App, redraw: () => void): HTMLElement {
  const grace = h(
    "select",
    { id: `grace-${app.app_id}`, name: "grace" },
    ...GRACE_CHOICES.map((choice) =>
      h("option", { value: String(choice.seconds), selected: choice.seconds === 86_400 }, choice.label),
    ),
  );
  const name = h("input", {
    id: `new-key-name-${app.app_id}`,
    name: "key_name",
    maxlength: MAX_KEY_NAME_LENGTH,
    autocomplete: "off",
  });
  const rotate = action(context, "Rotate key", async () => {
    const rotated = await context.api.rotateKey(app.app_id, Number(grace.value), name.value.trim() || undefined);
    await context.showSecrets(
      "Your new API key",
      [{ label: "API key", value: rotated.api_key }],
      "This is the only time the key is shown: copy it to your backend now. The previous key keeps working until it expires.",
    );
    redraw();
  });
  const nameField = field(say(KEY_TEXTS.newKeyName), name);
  nameField.lang = portalLanguage();
  return h("div", { class: "inline-form" }, nameField, field("Old key keeps working for", grace), rotate);
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
      h("dt", {}, "App id"),
      h("dd", {}, h("code", {}, app.app_id)),
      h("dt", {}, "Environment"),
      h("dd", {}, app.environment),
      h("dt", {}, "Status"),
      h("dd", {}, app.status),
      h("dt", {}, "Webhook"),
      h("dd", {}, app.webhook_url ? h("code", {}, app.webhook_url) : "not set"),
    ),
    h("h3", {}, "API keys"),
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
  const keyNameField = field(say(KEY_TEXTS.firstKeyName), keyName, say(KEY_TEXTS.keyNameHint));
  keyNameField.lang = portalLanguage();
  const submit = h("button", { type: "submit", class: "primary" }, "Create app");
  const form = h(
    "form",
    { class: "panel", "aria-labelledby": "create-app-title" },
    h("h2", { id: "create-app-title" }, "Create an app"),
    field("Name", name, "For people: shown in this portal only."),
    field("Webhook URL (optional)", webhook, "Where events go; you can set it later."),
    keyNameField,
    h("div", { class: "actions" }, submit),
  );
  onSubmit(context, form, "The app could not be created.", async () => {
    const created = await context.api.createApp(
      name.value.trim(),
      webhook.value.trim() || undefined,
      keyName.value.trim() || undefined,
    );
    context.selected = created.app_id;
    await context.showSecrets(
      `${created.name} is ready`,
      [
        { label: "API key", value: created.api_key },
        { label: "Webhook signing secret", value: created.webhook_secret },
      ],
      "This is the only time these are shown: copy them to your backend now. Only the key's hash is kept.",
    );
    redraw();
  });
  return form;
}

/** "Apps: 3 of 20" in the browser's language, Turkish or English, saying so when no more may be made. */
function appsUsage({ used, limit }: Me["limits"]["apps"]): { text: string; lang: string } {
  const turkish = navigator.languages.some((language) => language.toLowerCase().startsWith("tr"));
  const full = used >= limit;
  if (turkish) return { lang: "tr", text: `Uygulamalar: ${used} / ${limit}${full ? " (sınıra ulaşıldı)" : ""}` };
  return { lang: "en", text: `Apps: ${used} of ${limit}${full ? " (the most an organisation may have)" : ""}` };
}

export function showApps(context: PortalContext): void {
  const list = h("div", { class: "stack", "aria-live": "polite", "aria-busy": "true" });
  const usage = h("p", { id: "apps-usage", class: "intro" });
  const drawUsage = (apps: Me["limits"]["apps"]) => {
    const { text, lang } = appsUsage(apps);
    usage.textContent = text;
    usage.lang = lang;
  };
  drawUsage(context.me.limits.apps);
  const redraw = () => {
    list.setAttribute("aria-busy", "true");
    Promise.all([context.apps(true), context.api.me()])
      .then(([apps, me]) => {
        context.me = me;
        drawUsage(me.limits.apps);
        list.replaceChildren(
          ...(apps.length === 0
            ? [h("p", { class: "empty" }, "No apps yet.")]
            : apps.map((app) => appCard(context, app, redraw))),
        );
      })
      .catch((error: unknown) => context.say.error(reasonOf(error, "The apps could not be loaded.")))
      .finally(() => list.removeAttribute("aria-busy"));
  };
  context.view.replaceChildren(
    h(
      "section",
      { "aria-labelledby": "apps-title" },
      h("h1", { id: "apps-title", tabindex: "-1" }, "Apps"),
      h("p", { class: "intro" }, "Each app has its own API keys and webhook destination in this environment."),
      usage,
      canChange(context.me) ? createForm(context, redraw) : null,
      list,
    ),
  );
  redraw();
}
