/**
 * Signing in against a user pool, one step per screen: the password, then whatever the pool
 * asks next (a new password on first sign-in, setting up an authenticator app, the code from
 * it) until it hands out tokens. The review console and the portal page both sign in here, each
 * in its own words and language: the page hands in its translator, whose dictionaries hold the
 * keys below, and redraws the step on screen when its language changes.
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
import type { Values } from "./language.ts";
import type { SignInKey, SignInWords } from "./sign-in-words.ts";

/** Where the sign-in draws, in which words, and what it hands the tokens to. */
export interface SignInStep {
  view: HTMLElement;
  identity: IdentityConfig;
  say: Announcer;
  words: SignInWords;
  /** The label beside the account in authenticator apps, and the device's name. */
  totpIssuer: string;
  done: (result: AuthenticationResult) => void;
}

/** The sign-in on screen: `redraw` draws the step it is at again, in the page's language now. */
export interface SignIn {
  redraw(): void;
}

/** A refusal the sign-in itself makes, by its words. */
class Refusal extends Error {
  constructor(
    readonly key: SignInKey,
    readonly values: Values = {},
  ) {
    super(key);
    this.name = "Refusal";
  }
}

/** The pool's refusals by type, in the page's words; NotAuthorizedException says which by its message. */
const REFUSALS: Record<string, SignInKey> = {
  UserNotFoundException: "sign_in.refused.credentials",
  CodeMismatchException: "sign_in.refused.wrong_code",
  EnableSoftwareTokenMFAException: "sign_in.refused.wrong_code",
  ExpiredCodeException: "sign_in.refused.used_code",
  PasswordResetRequiredException: "sign_in.refused.reset_required",
  UserNotConfirmedException: "sign_in.refused.not_confirmed",
  TooManyRequestsException: "sign_in.refused.too_many",
  TooManyFailedAttemptsException: "sign_in.refused.too_many",
  LimitExceededException: "sign_in.refused.too_many",
  NetworkError: "sign_in.refused.unreachable",
};

const NOT_AUTHORIZED: [RegExp, SignInKey][] = [
  [/incorrect username or password/i, "sign_in.refused.credentials"],
  [/disabled/i, "sign_in.refused.disabled"],
  [/temporary password has expired/i, "sign_in.refused.temporary_expired"],
  [/attempts exceeded/i, "sign_in.refused.too_many"],
  [/session/i, "sign_in.refused.expired"],
];

/** A failed step as the sentence to show. */
function refusalText(words: SignInWords, error: unknown): string {
  if (error instanceof Refusal) return words.t(error.key, error.values);
  if (!(error instanceof CognitoError)) return words.t("sign_in.refused.failed");
  if (error.type === "InvalidPasswordException") {
    return words.t("sign_in.refused.password_policy", { detail: error.message.replace(/^.*:\s*/, "") });
  }
  const key =
    REFUSALS[error.type] ??
    (error.type === "NotAuthorizedException"
      ? NOT_AUTHORIZED.find(([pattern]) => pattern.test(error.message))?.[1]
      : undefined);
  return key ? words.t(key) : words.t("sign_in.refused.other", { detail: error.message });
}

/** One step's screen: its words are read each time it is drawn. */
interface Screen {
  title: SignInKey;
  intro: () => Child[];
  fields: () => HTMLElement[];
  submit: SignInKey;
  act: (values: Record<string, string>) => Promise<void>;
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

/** The sign-in of one page: the step on screen, drawn again when the language changes. */
class SignInFlow implements SignIn {
  #screen: Screen | undefined;

  constructor(private readonly step: SignInStep) {}

  get #words(): SignInWords {
    return this.step.words;
  }

  /** The first screen: username and password. */
  start(): void {
    this.#show({
      title: "sign_in.title",
      intro: () => [h("p", {}, this.#words.t("sign_in.purpose"))],
      fields: () => [
        field(this.#words.t("sign_in.username"), {
          name: "username",
          autocomplete: "username",
          autocapitalize: "none",
          spellcheck: "false",
        }),
        field(this.#words.t("sign_in.password"), {
          name: "password",
          type: "password",
          autocomplete: "current-password",
        }),
      ],
      submit: "sign_in.submit",
      act: async ({ username = "", password = "" }) => {
        const answer = await signInWithPassword(this.step.identity, username.trim(), password);
        await this.#next(username.trim(), answer);
      },
    });
  }

  /** The step on screen again, in the words of now, keeping what was typed into it. */
  redraw(): void {
    if (!this.#screen) return;
    const typed = [...this.step.view.querySelectorAll<HTMLInputElement>("form.sign-in input")].map(
      (input) => [input.name, input.value] as const,
    );
    this.#draw(this.#screen);
    for (const [name, value] of typed) {
      const input = this.step.view.querySelector<HTMLInputElement>(`form.sign-in input[name="${name}"]`);
      if (input) input.value = value;
    }
  }

  #show(screen: Screen): void {
    this.#screen = screen;
    this.#draw(screen);
  }

  /**
   * Draws one step's form; on submit runs its `act` with the form's values, the button disabled
   * meanwhile, and shows a refusal as a readable message.
   */
  #draw(screen: Screen): void {
    const { step } = this;
    const button = h("button", { type: "submit", class: "primary" }, this.#words.t(screen.submit));
    const form = h("form", { class: "sign-in" }, ...screen.fields(), h("div", { class: "actions" }, button));
    const heading = h("h1", { id: "sign-in-title", tabindex: "-1" }, this.#words.t(screen.title));
    step.view.replaceChildren(
      h("section", { class: "panel narrow", "aria-labelledby": "sign-in-title" }, heading, ...screen.intro(), form),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const values = Object.fromEntries([...new FormData(form)].map(([name, value]) => [name, String(value)]));
      button.disabled = true;
      form.setAttribute("aria-busy", "true");
      // The last step's refusal no longer applies.
      step.say.clear();
      screen
        .act(values)
        .catch((error: unknown) => {
          step.say.error(refusalText(this.#words, error));
          step.view.querySelector<HTMLInputElement>("form.sign-in input")?.focus();
        })
        .finally(() => {
          button.disabled = false;
          form.removeAttribute("aria-busy");
        });
    });
    (form.querySelector("input") ?? heading).focus();
  }

  #codeField(): HTMLElement {
    return field(this.#words.t("sign_in.code.field"), {
      name: "code",
      inputmode: "numeric",
      autocomplete: "one-time-code",
      pattern: "[0-9]{6}",
      maxlength: "6",
      title: this.#words.t("sign_in.code.hint"),
    });
  }

  /** Tokens end the sign-in; a challenge shows its own step. */
  async #next(username: string, answer: AuthResponse): Promise<void> {
    const { step } = this;
    if (answer.AuthenticationResult) {
      this.#screen = undefined;
      step.done(answer.AuthenticationResult);
      return;
    }
    const session = answer.Session ?? "";
    // The pool names the user by its own id in challenges; that is the USERNAME it expects back.
    const user = answer.ChallengeParameters?.USER_ID_FOR_SRP ?? username;
    const answering = (challenge: string, responses: Record<string, string>) =>
      this.#expired(answerChallenge(step.identity, challenge, session, { USERNAME: user, ...responses }));
    switch (answer.ChallengeName) {
      case "NEW_PASSWORD_REQUIRED":
        this.#show({
          title: "sign_in.new_password.title",
          intro: () => [h("p", {}, this.#words.t("sign_in.new_password.intro"))],
          fields: () => [
            field(this.#words.t("sign_in.new_password.field"), {
              name: "password",
              type: "password",
              autocomplete: "new-password",
              minlength: "12",
            }),
            field(this.#words.t("sign_in.new_password.repeat"), {
              name: "repeat",
              type: "password",
              autocomplete: "new-password",
            }),
          ],
          submit: "sign_in.new_password.submit",
          act: async ({ password = "", repeat = "" }) => {
            if (password !== repeat) throw new Refusal("sign_in.refused.passwords_differ");
            await this.#next(username, await answering("NEW_PASSWORD_REQUIRED", { NEW_PASSWORD: password }));
          },
        });
        return;
      case "MFA_SETUP":
        await this.#setUpAuthenticator(username, session, user);
        return;
      case "SOFTWARE_TOKEN_MFA":
        this.#show({
          title: "sign_in.code.title",
          intro: () => [h("p", {}, this.#words.t("sign_in.code.intro"))],
          fields: () => [this.#codeField()],
          submit: "sign_in.code.submit",
          act: async ({ code = "" }) => {
            await this.#next(username, await answering("SOFTWARE_TOKEN_MFA", { SOFTWARE_TOKEN_MFA_CODE: code.trim() }));
          },
        });
        return;
      default:
        throw new Refusal("sign_in.refused.unsupported", { challenge: answer.ChallengeName ?? "none" });
    }
  }

  /** TOTP on first sign-in: the secret to add to an app, then a code from it proves it was added. */
  async #setUpAuthenticator(username: string, session: string, user: string): Promise<void> {
    const { step } = this;
    const associated = await this.#expired(associateSoftwareToken(step.identity, session));
    const label = encodeURIComponent(`${step.totpIssuer}:${username}`);
    const uri = `otpauth://totp/${label}?secret=${associated.SecretCode}&issuer=${encodeURIComponent(step.totpIssuer)}`;
    this.#show({
      title: "sign_in.setup.title",
      intro: () => [
        h("p", {}, this.#words.t("sign_in.setup.intro")),
        h("p", { class: "secret" }, h("code", { id: "totp-secret" }, associated.SecretCode)),
        h("p", {}, this.#words.t("sign_in.setup.link")),
        h("p", { class: "secret" }, h("code", { id: "totp-uri" }, uri)),
        h("p", {}, this.#words.t("sign_in.setup.then")),
      ],
      fields: () => [this.#codeField()],
      submit: "sign_in.setup.submit",
      act: async ({ code = "" }) => {
        const verified = await this.#expired(
          verifySoftwareToken(step.identity, associated.Session, code.trim(), step.totpIssuer),
        );
        if (verified.Status !== "SUCCESS") throw new Refusal("sign_in.refused.wrong_code");
        const answer = await this.#expired(
          answerChallenge(step.identity, "MFA_SETUP", verified.Session, { USERNAME: user }),
        );
        await this.#next(username, answer);
      },
    });
  }

  /**
   * A sign-in session lasts minutes: when the pool no longer knows it, start over at the
   * password, saying why, instead of leaving the user at a step that cannot succeed.
   */
  async #expired<T>(pending: Promise<T>): Promise<T> {
    try {
      return await pending;
    } catch (error) {
      if (error instanceof CognitoError && error.type === "NotAuthorizedException" && /session/i.test(error.message)) {
        this.start();
        throw new Refusal("sign_in.refused.expired");
      }
      throw error;
    }
  }
}

/** Starts signing in at the first screen, in the page's words. */
export function showSignIn(step: SignInStep): SignIn {
  const flow = new SignInFlow(step);
  flow.start();
  return flow;
}
