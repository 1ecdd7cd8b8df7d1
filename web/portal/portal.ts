/**
 * The customer portal: sign in, then the organisation's apps and keys, webhooks and their
 * deliveries, verifications and usage. The page carries no data of its own: everything comes from
 * the portal API with the session's token, which lives in memory only. The address names the
 * screen (`#/apps`, `#/webhooks`, …), so Back and Forward move between them. It speaks the
 * browser's language, Turkish or English, and the header switches it.
 */
import { announcer, byId } from "../common/dom.ts";
import { LANGUAGES } from "../common/language.ts";
import { pageIdentity } from "../common/page.ts";
import { ApiError } from "../common/problem.ts";
import { Session } from "../common/session.ts";
import { type SignIn, showSignIn } from "../common/sign-in.ts";
import { PortalApi } from "./api.ts";
import { showApps } from "./apps.ts";
import { canChange, type PortalContext } from "./context.ts";
import { confirmChange, showSecrets, wireDialogs } from "./dialogs.ts";
import { showPeople } from "./people.ts";
import { showRequests } from "./requests.ts";
import { problemText, t, text, writeFixedText } from "./text.ts";
import { showUsage } from "./usage.ts";
import { showVerifications } from "./verifications.ts";
import { showWebhooks } from "./webhooks.ts";
import type { App, Me } from "./wire.ts";

const SCREENS = {
  apps: showApps,
  webhooks: showWebhooks,
  requests: showRequests,
  verifications: showVerifications,
  usage: showUsage,
  people: showPeople,
} as const;
type ScreenName = keyof typeof SCREENS;

const configured = pageIdentity();
const identity = configured ?? { endpoint: "", clientId: "" };
const view = byId<HTMLElement>("view");
const say = announcer(byId("status"), byId("alert"));
const account = byId<HTMLElement>("account");
const tabs = byId<HTMLElement>("tabs");
const languages = byId<HTMLSelectElement>("language");

const session = new Session(identity, () => signedOut(t("account.session_lost")));
const api = new PortalApi(session, () => signedOut(t("account.session_ended")));
let context: PortalContext | undefined;
let signingIn: SignIn | undefined;

function screenOf(hash: string, me: PortalContext["me"]): ScreenName {
  const name = hash.replace(/^#\//, "");
  if (name === "people") return me.role === "owner" ? "people" : "apps";
  return name in SCREENS ? (name as ScreenName) : "apps";
}

/** Draws the screen the address names, and marks its tab as the current one. */
function route(): void {
  if (!context) return;
  const name = screenOf(location.hash, context.me);
  for (const tab of tabs.querySelectorAll<HTMLAnchorElement>("a")) {
    if (tab.dataset.screen === name) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  Promise.resolve(SCREENS[name](context))
    .then(() => view.querySelector<HTMLElement>("h1")?.focus())
    .catch((error: unknown) => say.error(problemText(error, "page.screen_failed")));
}

/** Who is signed in, in the header: name, role, organisation and environment, each by its label. */
function writeWho(me: Me): void {
  byId("who").textContent = t("account.who", {
    username: me.username,
    role: text.label("role", me.role),
    organization: me.organization_name,
    environment: text.label("environment", me.environment),
  });
}

async function begin(): Promise<void> {
  const me = await api.me();
  let apps: App[] | undefined;
  context = {
    api,
    say,
    view,
    me,
    selected: undefined,
    async apps(refresh = false) {
      if (!apps || refresh) apps = (await api.apps()).data;
      return apps;
    },
    showSecrets,
    confirm: confirmChange,
  };
  writeWho(me);
  account.hidden = false;
  tabs.hidden = false;
  const people = tabs.querySelector<HTMLAnchorElement>('a[data-screen="people"]');
  if (people) people.hidden = me.role !== "owner";
  say.info(t(canChange(me) ? "account.signed_in" : "account.signed_in_viewer", { name: me.username }));
  route();
}

function signIn(): void {
  signingIn = showSignIn({
    view,
    identity,
    say,
    words: text,
    totpIssuer: "Verification portal",
    done(result) {
      signingIn = undefined;
      session.begin(result);
      begin().catch((error: unknown) => {
        // A member of no organisation may not read even themselves.
        const noOrganisation = error instanceof ApiError && error.code === "forbidden";
        signedOut(noOrganisation ? t("account.no_organisation") : problemText(error, "account.load_failed"));
      });
    },
  });
}

/** Back to the sign-in screen with nothing of the last session left on the page. */
function signedOut(message?: string): void {
  session.end();
  context = undefined;
  account.hidden = true;
  tabs.hidden = true;
  byId("who").textContent = "";
  signIn();
  if (message) say.error(message);
}

wireDialogs();
byId("sign-out").addEventListener("click", () => {
  signedOut();
  say.info(t("account.signed_out"));
});
window.addEventListener("hashchange", () => {
  // The last screen's messages are about the last screen.
  say.clear();
  route();
});

/** Another language: the fixed words, then the screen on view drawn again in it (the sign-in at the step it is at). */
languages.addEventListener("change", () => {
  const chosen = LANGUAGES.find((language) => language === languages.value);
  if (chosen) text.use(chosen);
});
text.onChange((language) => {
  languages.value = language;
  writeFixedText();
  say.clear();
  if (!configured) {
    view.textContent = t("page.not_configured");
  } else if (context) {
    writeWho(context.me);
    route();
  } else {
    signingIn?.redraw();
  }
});

languages.value = text.language();
writeFixedText();
if (!configured) {
  view.textContent = t("page.not_configured");
} else {
  signIn();
}
