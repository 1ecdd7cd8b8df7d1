/**
 * The review console: sign in, the queue, one item at a time. The page carries no data of its
 * own: everything comes from the backoffice API with the session's token, which lives in
 * memory only. The address names the open item (`#/reviews/<id>`), so Back returns to the queue,
 * or, for admins, the audit trail and its filter (`#/audit?verification=<id>`, `#/audit?actor=<sub>`).
 */

import { announcer, byId, typingIn } from "../common/dom.ts";
import { LANGUAGES, type Language } from "../common/language.ts";
import { pageIdentity } from "../common/page.ts";
import { Session } from "../common/session.ts";
import { type SignIn, showSignIn } from "../common/sign-in.ts";
import { BackofficeApi } from "./api.ts";
import { showAudit } from "./audit.ts";
import { showItem } from "./item.ts";
import { newQueuePosition, showQueue } from "./queue.ts";
import { type ConsoleContext, heldByAnother, type Screen } from "./screen.ts";
import { t, text, writeFixedText } from "./text.ts";

const ITEM_ADDRESS = /^#\/reviews\/([^/]+)$/;
const AUDIT_ADDRESS = /^#\/audit(?:\?(.*))?$/;

const configured = pageIdentity();
const identity = configured ?? { endpoint: "", clientId: "" };
const view = byId<HTMLElement>("view");
const say = announcer(byId("status"), byId("alert"));
const account = byId<HTMLElement>("account");
const auditLink = byId<HTMLAnchorElement>("audit-link");
const shortcuts = byId<HTMLDialogElement>("shortcuts");
const languages = byId<HTMLSelectElement>("language");

let screen: Screen | undefined;
let showing: "queue" | "item" | "audit" | undefined;
let position = newQueuePosition();
/** True when the open item was opened from the queue, so Back is the browser's own Back. */
let fromQueue = false;

const session = new Session(identity, (message) => signedOut(message));
const api = new BackofficeApi(session, () => signedOut(t("account.session_ended")));

const context: ConsoleContext = {
  api,
  say,
  view,
  username: () => session.username,
  admin: () => session.groups.includes("admins"),
  open(verificationId) {
    location.hash = `#/reviews/${encodeURIComponent(verificationId)}`;
  },
  back(message) {
    say.clear();
    if (message) say.info(message);
    if (fromQueue) {
      history.back();
      return;
    }
    history.replaceState(null, "", location.pathname + location.search);
    route();
  },
  async next(message, decided) {
    const following = await api.reviews(position.filter, null).then(
      (page) =>
        page.data.find((entry) => entry.verification_id !== decided && !heldByAnother(entry.claim, session.username)),
      () => undefined,
    );
    // The reviewer went elsewhere meanwhile: the decision is said there.
    if (location.hash !== `#/reviews/${encodeURIComponent(decided)}`) {
      say.info(message);
      return;
    }
    if (!following) {
      context.back(message);
      return;
    }
    // In place of the decided item: Back still returns to the queue.
    history.replaceState(null, "", `#/reviews/${encodeURIComponent(following.verification_id)}`);
    route("next");
    say.info(message);
  },
};

/**
 * Draws the screen the address names (a row's link, `open`, Back and Forward all change it);
 * `again` redraws the same one, `next` opens the item after a decision and claims it.
 */
function route(how: "address" | "again" | "next" = "address"): void {
  if (!session.signedIn) return;
  screen?.leave();
  // Offered to admins only; the API refuses anyone else, and the screen says so.
  auditLink.hidden = !context.admin();
  const item = ITEM_ADDRESS.exec(location.hash);
  const audit = AUDIT_ADDRESS.exec(location.hash);
  if (item) {
    const id = decodeURIComponent(item[1] ?? "");
    if (how === "address") fromQueue = showing === "queue";
    position.selected = id;
    // The queue's messages are about the queue.
    say.clear();
    showing = "item";
    screen = showItem(context, id, how === "next");
  } else if (audit) {
    if (showing !== "audit") say.clear();
    showing = "audit";
    screen = showAudit(context, audit[1] ?? "");
  } else {
    showing = "queue";
    screen = showQueue(context, position);
  }
}

/** The sign-in on screen, while nobody is signed in: a language switch redraws its step. */
let signingIn: SignIn | undefined;

function signIn(): void {
  signingIn = showSignIn({
    view,
    identity,
    say,
    words: text,
    totpIssuer: "Verification backoffice",
    done(result) {
      signingIn = undefined;
      session.begin(result);
      byId("who").textContent = t("account.signed_in_as", { name: session.username });
      account.hidden = false;
      say.info(t("account.signed_in", { name: session.username }));
      route();
    },
  });
}

/** Back to the sign-in screen with nothing of the last session left on the page. */
function signedOut(message?: string): void {
  if (!session.signedIn && screen === undefined) return;
  session.end();
  screen?.leave();
  screen = undefined;
  showing = undefined;
  position = newQueuePosition();
  account.hidden = true;
  byId("who").textContent = "";
  signIn();
  if (message) say.error(message);
}

byId("sign-out").addEventListener("click", () => {
  signedOut();
  say.info(t("account.signed_out"));
});
byId("shortcuts-open").addEventListener("click", () => shortcuts.showModal());
byId("shortcuts-close").addEventListener("click", () => shortcuts.close());
window.addEventListener("hashchange", () => route());

document.addEventListener("keydown", (event) => {
  if (!session.signedIn || shortcuts.open || event.defaultPrevented) return;
  if (event.ctrlKey || event.metaKey || event.altKey || typingIn(event.target)) return;
  if (event.key === "?") {
    shortcuts.showModal();
    event.preventDefault();
    return;
  }
  if (screen?.key(event)) event.preventDefault();
});

/** Another language: the fixed words, then the screen drawn again in it (the sign-in keeps its step and what was typed). */
languages.addEventListener("change", () => {
  const chosen = LANGUAGES.find((language) => language === languages.value);
  if (chosen) text.use(chosen);
});
text.onChange((language: Language) => {
  languages.value = language;
  writeFixedText();
  say.clear();
  if (!configured) {
    view.textContent = t("page.not_configured");
    return;
  }
  if (session.signedIn) {
    byId("who").textContent = t("account.signed_in_as", { name: session.username });
    route("again");
  } else if (signingIn) {
    signingIn.redraw();
  } else {
    signIn();
  }
});

languages.value = text.language();
writeFixedText();
if (!configured) {
  view.textContent = t("page.not_configured");
} else {
  signIn();
}
