/**
 * Signing in against a user pool, one step per screen: the password, then whatever the pool
 * asks next (a new password on first sign-in, setting up an authenticator app, the code from
 * it) until it hands out tokens. The review console and the portal page both sign in here.
 */
import {
  type AuthenticationResult,
  type AuthResponse,
  answerChallenge,
  associateSoftwareToken,
  CognitoError,
  type IdentityConfig,
  signInWithPassword,
  verifySoftwareToken,
} from "./cognito.ts";
import { type Announcer, type Child, h } from "./dom.ts";

/** Where the sign-in draws, what it says, and what it hands the tokens to. */
export interface SignInStep {
  view: HTMLElement;
  identity: IdentityConfig;
  say: Announcer;
  /** The first screen's one sentence: whose account, for what. */
  purpose: string;
  /** The label beside the account in authenticator apps, and the device's name. */
  totpIssuer: string;
  done: (result: AuthenticationResult) => void;
}

/** A labelled input. */
function field(label: string, attributes: Record<string, string | boolean>): HTMLElement {
  const id = `field-${String(attributes.name)}`;
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h("input", { id, required: true, ...attributes }),
  );
}

const CODE_FIELD = {
  name: "code",
  inputmode: "numeric",
  autocomplete: "one-time-code",
  pattern: "[0-9]{6}",
  maxlength: "6",
  title: "The 6 digits your authenticator app shows",
};

/**
 * Shows one step's form; on submit runs `act` with the form's values, the button disabled
 * meanwhile, and shows a refusal as a readable message.
 */
function showForm(
  step: SignInStep,
  title: string,
  intro: Child[],
  fields: HTMLElement[],
  submit: string,
  act: (values: Record<string, string>) => Promise<void>,
): void {
  const button = h("button", { type: "submit", class: "primary" }, submit);
  const form = h("form", { class: "sign-in" }, ...fields, h("div", { class: "actions" }, button));
  const heading = h("h1", { id: "sign-in-title", tabindex: "-1" }, title);
  step.view.replaceChildren(
    h("section", { class: "panel narrow", "aria-labelledby": "sign-in-title" }, heading, ...intro, form),
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const values = Object.fromEntries([...new FormData(form)].map(([name, value]) => [name, String(value)]));
    button.disabled = true;
    form.setAttribute("aria-busy", "true");
    // The last step's refusal no longer applies.
    step.say.clear();
    act(values)
      .catch((error: unknown) => {
        step.say.error(error instanceof CognitoError ? error.message : "Sign-in failed. Try again.");
        form.querySelector("input")?.focus();
      })
      .finally(() => {
        button.disabled = false;
        form.removeAttribute("aria-busy");
      });
  });
  (form.querySelector("input") ?? heading).focus();
}

/** The first screen: username and password. */
export function showSignIn(step: SignInStep): void {
  showForm(
    step,
    "Sign in",
    [h("p", {}, step.purpose)],
    [
      field("Username", { name: "username", autocomplete: "username", autocapitalize: "none", spellcheck: "false" }),
      field("Password", { name: "password", type: "password", autocomplete: "current-password" }),
    ],
    "Sign in",
    async ({ username = "", password = "" }) => {
      const answer = await signInWithPassword(step.identity, username.trim(), password);
      await next(step, username.trim(), answer);
    },
  );
}

/** Tokens end the sign-in; a challenge shows its own step. */
async function next(step: SignInStep, username: string, answer: AuthResponse): Promise<void> {
  if (answer.AuthenticationResult) {
    step.done(answer.AuthenticationResult);
    return;
  }
  const session = answer.Session ?? "";
  // The pool names the user by its own id in challenges; that is the USERNAME it expects back.
  const user = answer.ChallengeParameters?.USER_ID_FOR_SRP ?? username;
  const answering = (challenge: string, responses: Record<string, string>) =>
    expired(step, answerChallenge(step.identity, challenge, session, { USERNAME: user, ...responses }));
  switch (answer.ChallengeName) {
    case "NEW_PASSWORD_REQUIRED":
      showForm(
        step,
        "Choose a new password",
        [
          h(
            "p",
            {},
            "This is your first sign-in: replace the temporary password. At least 12 characters, with upper and lower case letters, a digit and a symbol.",
          ),
        ],
        [
          field("New password", { name: "password", type: "password", autocomplete: "new-password", minlength: "12" }),
          field("Repeat the new password", { name: "repeat", type: "password", autocomplete: "new-password" }),
        ],
        "Set password",
        async ({ password = "", repeat = "" }) => {
          if (password !== repeat)
            throw new CognitoError("Mismatch", "The two passwords differ. Type the same one twice.");
          await next(step, username, await answering("NEW_PASSWORD_REQUIRED", { NEW_PASSWORD: password }));
        },
      );
      return;
    case "MFA_SETUP":
      await setUpAuthenticator(step, username, session, user);
      return;
    case "SOFTWARE_TOKEN_MFA":
      showForm(
        step,
        "Enter your code",
        [h("p", {}, "Enter the 6-digit code your authenticator app shows for this account.")],
        [field("Code", CODE_FIELD)],
        "Continue",
        async ({ code = "" }) => {
          await next(step, username, await answering("SOFTWARE_TOKEN_MFA", { SOFTWARE_TOKEN_MFA_CODE: code.trim() }));
        },
      );
      return;
    default:
      throw new CognitoError(
        "UnsupportedChallenge",
        `The pool asks for a step this page cannot take (${answer.ChallengeName ?? "none"}). Ask an administrator.`,
      );
  }
}

/** TOTP on first sign-in: the secret to add to an app, then a code from it proves it was added. */
async function setUpAuthenticator(step: SignInStep, username: string, session: string, user: string): Promise<void> {
  const associated = await expired(step, associateSoftwareToken(step.identity, session));
  const label = encodeURIComponent(`${step.totpIssuer}:${username}`);
  const uri = `otpauth://totp/${label}?secret=${associated.SecretCode}&issuer=${encodeURIComponent(step.totpIssuer)}`;
  showForm(
    step,
    "Set up your authenticator app",
    [
      h("p", {}, "This account needs a second factor. Add it to an authenticator app by its secret key:"),
      h("p", { class: "secret" }, h("code", { id: "totp-secret" }, associated.SecretCode)),
      h("p", {}, "or, in an app that takes a setup link, this one:"),
      h("p", { class: "secret" }, h("code", { id: "totp-uri" }, uri)),
      h("p", {}, "Then enter the 6-digit code the app shows."),
    ],
    [field("Code", CODE_FIELD)],
    "Verify and continue",
    async ({ code = "" }) => {
      const verified = await expired(
        step,
        verifySoftwareToken(step.identity, associated.Session, code.trim(), step.totpIssuer),
      );
      if (verified.Status !== "SUCCESS") {
        throw new CognitoError("EnableSoftwareTokenMFAException", "That code is not right. Enter the current code.");
      }
      const answer = await expired(
        step,
        answerChallenge(step.identity, "MFA_SETUP", verified.Session, { USERNAME: user }),
      );
      await next(step, username, answer);
    },
  );
}

/**
 * A sign-in session lasts minutes: when the pool no longer knows it, start over at the
 * password, saying why, instead of leaving the user at a step that cannot succeed.
 */
async function expired<T>(step: SignInStep, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof CognitoError && error.type === "NotAuthorizedException" && /session/i.test(error.message)) {
      showSignIn(step);
      throw new CognitoError(error.type, "The sign-in took too long and has expired. Sign in again.");
    }
    throw error;
  }
}
