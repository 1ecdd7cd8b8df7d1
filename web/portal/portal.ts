/**
 * The customer portal: sign in, then the organisation's apps and keys, webhooks and their
 * deliveries, verifications and usage. The page carries no data of its own: everything comes from
 * the portal API with the session's token, which lives in memory only. The address names the
 * screen (`#/apps`, `#/webhooks`, …), so Back and Forward move between them.
 */
import { announcer, byId } from "../common/dom.ts";
import { pageIdentity } from "../common/page.ts";
import { Session } from "../common/session.ts";
import { showSignIn } from "../common/sign-in.ts";
import { PortalApi } from "./api.ts";
import { showApps } from "./apps.ts";
import { canChange, type PortalContext, reasonOf } from "./context.ts";
import { confirmChange, showSecrets, wireDialogs } from "./dialogs.ts";
import { showPeople } from "./people.ts";
import { showUsage } from "./usage.ts";
import { showVerifications } from "./verifications.ts";
import { showWebhooks } from "./webhooks.ts";
import type { App } from "./wire.ts";

const SCREENS = {
  apps: showApps,
  webhooks: showWebhooks,
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

const session = new Session(identity, (message) => signedOut(message));
const api = new PortalApi(session, () => signedOut("Your session has ended. Sign in again."));
let context: PortalContext | undefined;

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
    .catch((error: unknown) => say.error(reasonOf(error, "This screen could not be loaded.")));
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
  byId("who").textContent = `${me.username} · ${me.role} · ${me.organization_name} (${me.environment})`;
  account.hidden = false;
  tabs.hidden = false;
  const people = tabs.querySelector<HTMLAnchorElement>('a[data-screen="people"]');
  if (people) people.hidden = me.role !== "owner";
  say.info(
    canChange(me)
      ? `Signed in as ${me.username}.`
      : `Signed in as ${me.username}, a viewer: you can read everything here and change nothing.`,
  );
  route();
}

function signIn(): void {
  showSignIn({
    view,
    identity,
    say,
    purpose: "Sign in with your portal account to manage your organisation's apps, keys and webhooks.",
    totpIssuer: "Verification portal",
    done(result) {
      session.begin(result);
      begin().catch((error: unknown) => {
        signedOut(
          reasonOf(error, "The portal could not load your organisation.").replace(
            /^Your role in the organisation does not allow this/,
            "Your account belongs to no organisation yet: ask its owner to invite you",
          ),
        );
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
  say.info("Signed out.");
});
window.addEventListener("hashchange", () => {
  // The last screen's messages are about the last screen.
  say.clear();
  route();
});

if (!configured) {
  view.textContent =
    "The portal is not configured: it has no identity endpoint or client. Open it through the portal API.";
} else {
  signIn();
}
