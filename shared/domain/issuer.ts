/**
 * Asking the issuer (verification-engine.md, "The authority"): which issuer an environment
 * asks, why an answer may be unavailable, what a verification records of its lookups, and the
 * rules around them. An issuer that is busy, slow, failing or unreachable is asked again with
 * backoff (about 2 s, doubling, at most 5 min apart) until the retry window has passed since the
 * first attempt; only then does the verification go to review. An answer never seen before
 * (`unrecognised`) is asked again once, after a pause, and then goes to review at once: a changed
 * page is when the issuer is understood least, and asking it again and again then is the worst
 * manners. An answer, once recorded, is never asked for again.
 */
import { isoSeconds } from "./time.ts";

/** `edevlet`: e-Devlet's barcode verification; `lookup`: the issuer-lookup contract; `none`: every verification that needs the issuer goes to review. */
export const ISSUERS = ["edevlet", "lookup", "none"] as const;
export type Issuer = (typeof ISSUERS)[number];

/** How e-Devlet is asked: `form`, its web form of five steps (the default); `mobile`, the mobile app's one GET (`edevlet.ts`). */
export const EDEVLET_PROTOCOLS = ["form", "mobile"] as const;
export type EdevletProtocol = (typeof EDEVLET_PROTOCOLS)[number];

/** Why an issuer's answer was no answer: a timeout, a 5xx or 429, a busy queue, a page never seen, no connection. */
export const UNAVAILABLE_CAUSES = ["timeout", "http_error", "busy", "unrecognised", "unreachable"] as const;
export type UnavailableCause = (typeof UNAVAILABLE_CAUSES)[number];

/** One lookup's outcome, as counted: the answer, and for an unavailable one its cause. */
export type LookupOutcome = "found" | "not_found" | `unavailable_${UnavailableCause}`;

export const DEFAULT_RETRY_WINDOW_SECONDS = 900;
const FIRST_RETRY_SECONDS = 2;
const MAX_RETRY_GAP_SECONDS = 300;
/** How long one asker holds a lookup: the whole flow's budget (15 s) and storing the copy, with room. */
export const LOOKUP_LEASE_SECONDS = 45;
/** How often an unrecognised answer is asked about again: once, so a changed page costs two lookups. */
export const UNRECOGNISED_RETRIES = 1;
/** The pause before asking again after an unrecognised answer: a page that changed in the middle of a release may be whole again. */
export const UNRECOGNISED_PAUSE_SECONDS = 30;
/** How long after a reviewer asked the issuer again they (or another) may ask once more. */
export const RECHECK_GAP_SECONDS = 600;
/**
 * How long a reviewer's asking again retries an unavailable answer: the attempt made at once and,
 * should that one be unavailable too, one more at the end of this window (the backoff's gap is
 * long by then). Two lookups at most: a reviewer's click is never a retry storm.
 */
export const RECHECK_WINDOW_SECONDS = 60;
/** A retry message that arrives at most this early is taken as due (a delay queue's timers are not exact). */
const EARLY_SLACK_MS = 1_000;

/**
 * What a verification records of its lookups, on its item while it is processing. It never holds
 * the identity number, which is read from the document again at each attempt. Times are the
 * house's UTC strings in whole seconds, so they compare as text.
 */
export interface IssuerState {
  /** Grows by one at every change: a change is written only over the state its writer read. */
  rev: number;
  /** Lookups begun. */
  attempts: number;
  /** When the first began, and when retrying stops (the retry window after it). */
  first_at: string;
  retry_until: string;
  /** While a lookup runs: until when its asker holds it. */
  asking_until?: string;
  /** After an unavailable answer, while retrying: when the next attempt is due, and why the last failed. */
  next_at?: string;
  last_cause?: UnavailableCause;
  /** How many answers were unrecognised: past `UNRECOGNISED_RETRIES`, the lookup gives up. */
  unrecognised?: number;
  /** The answer a decision rests on; `unavailable` once the window passed without one. */
  answer?: "found" | "not_found" | "unavailable";
  /** The write that stored this state, set by the store: a write sent again knows itself by it. */
  write?: string;
  /** When a reviewer last asked the issuer again for a verification in review, and who (a staff username). */
  recheck?: { at: string; by: string };
}

/**
 * What the issuer queue carries: which verification, which attempt the message is for, and how
 * often running its checks has failed. Never the identity number.
 */
export interface IssuerMessage {
  verification_id: string;
  attempt: number;
  failures?: number;
}

/**
 * When the checks fail (a dependency throttled or down), the reader sends its message again after
 * this backoff (2 s, doubling), so the checks are retried in seconds rather than after the queue's
 * visibility timeout; past the last, the failure is the queue's: the message is offered again
 * after its visibility timeout, and after the queue's receive count it waits in the failure queue.
 */
export const FAILURE_RETRIES = 5;
export function failureRetryDelaySeconds(failures: number): number {
  return 2 * 2 ** failures;
}

/** What a processor does about the issuer for a verification still processing. */
export type IssuerStep =
  /** An answer is recorded (or the window gave up): decide with it, asking nothing. */
  | { do: "decide" }
  /** Take attempt `attempt` and ask. */
  | { do: "ask"; attempt: number }
  /** Send the message for `attempt` again, to arrive in `delaySeconds`. */
  | { do: "later"; attempt: number; delaySeconds: number }
  /** Somebody else is asking, or the message is stale: nothing to do. */
  | { do: "nothing" };

const seconds = (from: Date, to: string) => Math.max(0, Math.ceil((Date.parse(to) - from.getTime()) / 1000));

/**
 * What a processor that may ask (the issuer queue's reader, holding the message for `attempt`)
 * does. A message for an attempt already begun takes it over only when its asker's hold lapsed
 * (it stopped half way); a message that finds the retry it should have sent missing sends it.
 */
export function askerStep(state: IssuerState | undefined, attempt: number, now: Date): IssuerStep {
  if (state?.answer) return { do: "decide" };
  const begun = state?.attempts ?? 0;
  if (state && attempt === begun) {
    if (state.asking_until !== undefined) {
      return Date.parse(state.asking_until) > now.getTime() ? { do: "nothing" } : { do: "ask", attempt };
    }
    // The answer was unavailable and the retry is due at next_at: make sure its message exists.
    return { do: "later", attempt: attempt + 1, delaySeconds: seconds(now, state.next_at ?? state.first_at) };
  }
  if (attempt !== begun + 1) return { do: "nothing" };
  if (state?.asking_until !== undefined && Date.parse(state.asking_until) > now.getTime()) return { do: "nothing" };
  if (state?.next_at !== undefined && Date.parse(state.next_at) - now.getTime() > EARLY_SLACK_MS) {
    return { do: "later", attempt, delaySeconds: seconds(now, state.next_at) };
  }
  return { do: "ask", attempt };
}

/**
 * What a processor that may not ask (the change stream's consumer, a sync confirm) does: decide
 * on a recorded answer, send the first attempt to the issuer queue, or leave a lookup under way
 * to its asker.
 */
export function processorStep(state: IssuerState | undefined): IssuerStep {
  if (state?.answer) return { do: "decide" };
  return state ? { do: "nothing" } : { do: "later", attempt: 1, delaySeconds: 0 };
}

/** `count` seconds after `instant`, in the house's whole seconds, rounded up: never a moment early. */
const plusSeconds = (instant: Date, count: number) =>
  isoSeconds(new Date(Math.ceil((instant.getTime() + count * 1000) / 1000) * 1000));

/** The state once `attempt` is taken at `now`: held for the lease, the window starting with the first attempt. */
export function claimed(
  state: IssuerState | undefined,
  attempt: number,
  now: Date,
  windowSeconds: number,
): IssuerState {
  const first = state?.first_at ?? plusSeconds(now, 0);
  return {
    rev: (state?.rev ?? 0) + 1,
    attempts: attempt,
    first_at: first,
    retry_until: state?.retry_until ?? plusSeconds(new Date(first), windowSeconds),
    asking_until: plusSeconds(now, LOOKUP_LEASE_SECONDS),
    // Why the last attempt failed, while the next one asks: the verification is still being retried.
    ...(state?.last_cause ? { last_cause: state.last_cause } : {}),
    ...(state?.unrecognised ? { unrecognised: state.unrecognised } : {}),
    // A reviewer's asking again, kept for its rate and for staff to see.
    ...(state?.recheck ? { recheck: state.recheck } : {}),
  };
}

/** The state once the issuer answered `answer`. */
export function answered(state: IssuerState, answer: "found" | "not_found"): IssuerState {
  const { asking_until: _held, next_at: _next, ...rest } = state;
  return { ...rest, rev: state.rev + 1, answer };
}

/**
 * The delay before the next attempt after `failed` unavailable answers: about 2 s, doubling,
 * never more than 5 min; ±10 % of jitter, so verifications that failed together spread out.
 */
export function retryDelaySeconds(failed: number, random: () => number): number {
  const base = Math.min(MAX_RETRY_GAP_SECONDS, FIRST_RETRY_SECONDS * 2 ** Math.max(0, failed - 1));
  return Math.min(MAX_RETRY_GAP_SECONDS, base * (0.9 + 0.2 * random()));
}

/**
 * The state once the issuer's answer was unavailable at `now`, by its cause: an unrecognised
 * answer is asked about again once, after `UNRECOGNISED_PAUSE_SECONDS`, and a second gives up at
 * once; any other cause waits the backoff (a reviewer's asking again: its window's end). The
 * next attempt is never later than the window's end; past the window's end, the lookup gives up.
 */
export function afterUnavailable(
  state: IssuerState,
  cause: UnavailableCause,
  now: Date,
  random: () => number,
): IssuerState {
  const { asking_until: _held, next_at: _next, unrecognised: _counted, ...rest } = state;
  const unrecognised = (state.unrecognised ?? 0) + (cause === "unrecognised" ? 1 : 0);
  const kept = { ...rest, rev: state.rev + 1, last_cause: cause, ...(unrecognised > 0 ? { unrecognised } : {}) };
  if (now.getTime() >= Date.parse(state.retry_until) || unrecognised > UNRECOGNISED_RETRIES) {
    return { ...kept, answer: "unavailable" };
  }
  // A reviewer's asking again tries once more, at its short window's end.
  const delay =
    cause === "unrecognised"
      ? UNRECOGNISED_PAUSE_SECONDS
      : state.recheck
        ? RECHECK_WINDOW_SECONDS
        : retryDelaySeconds(state.attempts, random);
  const next = plusSeconds(now, delay);
  return { ...kept, next_at: next < state.retry_until ? next : state.retry_until };
}

/**
 * The state once a reviewer (`by`) asks the issuer again at `now`, for a verification in review
 * whose lookup gave up (`unavailable`): the answer cleared and a short window from now, the
 * attempts counted on (the next message is for the next attempt); the cause of the last is kept
 * for the reviewer until this lookup answers.
 */
export function rechecked(state: IssuerState, now: Date, by: string): IssuerState {
  const {
    answer: _answer,
    asking_until: _held,
    next_at: _next,
    unrecognised: _counted,
    write: _write,
    ...rest
  } = state;
  const at = plusSeconds(now, 0);
  return {
    ...rest,
    rev: state.rev + 1,
    first_at: at,
    retry_until: plusSeconds(now, RECHECK_WINDOW_SECONDS),
    recheck: { at, by },
  };
}

/** Whether a reviewer's asking again is waiting for its answer. */
export function recheckUnderWay(state: IssuerState | undefined): boolean {
  return state?.recheck !== undefined && state.answer === undefined;
}

/** From when the issuer may be asked again: `RECHECK_GAP_SECONDS` after the last time a reviewer asked. */
export function recheckAllowedFrom(state: IssuerState): string | undefined {
  return state.recheck && plusSeconds(new Date(state.recheck.at), RECHECK_GAP_SECONDS);
}

/** Whether the issuer did not answer and is being asked again (waiting for the next attempt, or in it). */
export function isRetrying(state: IssuerState | undefined): state is IssuerState {
  return state?.last_cause !== undefined && state.answer === undefined;
}

/** A queue message's body as an `IssuerMessage`, or undefined when it is not one. */
export function issuerMessageOf(body: string): IssuerMessage | undefined {
  try {
    const parsed = JSON.parse(body) as Partial<IssuerMessage>;
    const counted = (value: unknown, least: number) => Number.isInteger(value) && Number(value) >= least;
    if (typeof parsed.verification_id !== "string" || !counted(parsed.attempt, 1)) return undefined;
    if (parsed.failures !== undefined && !counted(parsed.failures, 0)) return undefined;
    return {
      verification_id: parsed.verification_id,
      attempt: Number(parsed.attempt),
      ...(parsed.failures ? { failures: parsed.failures } : {}),
    };
  } catch {
    return undefined;
  }
}
