/**
 * How processing comes by the issuer's answer for a verification's document. Only the issuer
 * queue's reader asks (`askedAnswer`), at most the stage's issuer concurrency at once, once per
 * verification (retries of an unavailable answer aside). The change stream's consumer only hands
 * a verification that starts processing to the queue (`queueChecks`); a sync confirm runs the
 * checks itself, decides on an answer once it is recorded, and otherwise only sends the lookup
 * to the queue (`scheduledAnswer`).
 */
import type { DocumentKeys } from "../../domain/certificates/keys.ts";
import {
  afterUnavailable,
  answered,
  askerStep,
  claimed,
  type IssuerState,
  type IssuerStep,
  type LookupOutcome,
  processorStep,
} from "../../domain/issuer.ts";
import { isoSeconds } from "../../domain/time.ts";
import { issuerCopyKey, type VerificationItem } from "../../domain/verification.ts";
import type { Authority, IssuerAnswer } from "../../ports/authority.ts";
import type { Clock } from "../../ports/clock.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import type { IssuerQueue } from "../../ports/issuer-queue.ts";
import type { Log } from "../../ports/log.ts";
import type { Sealer } from "../../ports/sealer.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";

/**
 * Not known yet (queued, or being asked): the verification as last seen, which another
 * processor may have moved on meanwhile.
 */
export interface Pending {
  kind: "pending";
  item: VerificationItem | undefined;
}

/**
 * The keys a lookup asks with: read from the document, or, for a verification by its keys, the
 * barcode sent, the identity number left sealed on the verification until the asker opens it.
 */
export type LookupKeys = Required<DocumentKeys> | { barcode: string; identityNumber?: undefined };

/** The issuer's answer for a verification's keys, or `Pending` while it is not known yet. */
export interface IssuerGate {
  answerFor(item: VerificationItem, keys: LookupKeys): Promise<IssuerAnswer | Pending>;
}

interface GateDeps {
  documents: Pick<DocumentStore, "read">;
  queue: IssuerQueue;
  clock: Clock;
}

/** The answer a decision rests on, as recorded: the copy kept beside the upload, or why there is none. */
async function recordedAnswer(deps: GateDeps, item: VerificationItem, state: IssuerState): Promise<IssuerAnswer> {
  if (state.answer === "not_found") return { kind: "not_found" };
  if (state.answer === "found") {
    const document = await deps.documents.read(issuerCopyKey(item.verification_id));
    // Kept before the answer was recorded; gone only if the verification was erased meanwhile.
    if (document) return { kind: "found", document };
  }
  return { kind: "unavailable", cause: state.last_cause ?? "unrecognised" };
}

/** Carries out a step that asks nothing; `ask` is the asker's own. */
async function follow(
  deps: GateDeps,
  item: VerificationItem,
  step: IssuerStep,
): Promise<IssuerAnswer | Pending | "ask"> {
  switch (step.do) {
    case "decide":
      return recordedAnswer(deps, item, item.issuer as IssuerState);
    case "later":
      await deps.queue.send({ verification_id: item.verification_id, attempt: step.attempt }, step.delaySeconds);
      return { kind: "pending", item };
    case "nothing":
      return { kind: "pending", item };
    case "ask":
      return "ask";
  }
}

/**
 * Hands a verification that starts processing to the issuer queue, whose reader runs its checks
 * and asks the issuer when they need it: once, unless a lookup is under way or answered.
 */
export async function queueChecks(deps: Pick<GateDeps, "queue">, item: VerificationItem): Promise<void> {
  if (!item.issuer) await deps.queue.send({ verification_id: item.verification_id, attempt: 1 }, 0);
}

/** For processors that may not ask: a recorded answer, or the first lookup sent to the issuer queue. */
export function scheduledAnswer(deps: GateDeps): IssuerGate {
  return {
    async answerFor(item) {
      const outcome = await follow(deps, item, processorStep(item.issuer));
      return outcome === "ask" ? { kind: "pending", item } : outcome;
    },
  };
}

export interface AskDeps extends GateDeps {
  verifications: Pick<VerificationStore, "recordIssuer">;
  documents: Pick<DocumentStore, "read" | "write">;
  authority: Authority;
  /** Opens the identity number a verification by its keys was created with. */
  sealer: Pick<Sealer, "open">;
  log: Log;
  /** Seconds after the first attempt during which an unavailable issuer is asked again. */
  retryWindowSeconds: number;
  /** Jitter for the backoff between retries. */
  random: () => number;
  /** Milliseconds from a fixed start, finer than the clock's seconds: how long a lookup took. */
  stopwatch: () => number;
}

const outcomeOf = (answer: IssuerAnswer): LookupOutcome =>
  answer.kind === "unavailable" ? `unavailable_${answer.cause}` : answer.kind;

/** The asking reader's gate, which also says whether a failure left it holding the attempt it took. */
export interface AskingGate extends IssuerGate {
  /** Until when the attempt this reader took stays held, when it failed half way and could not let go of it. */
  heldUntil(): string | undefined;
}

/**
 * For the issuer queue's reader, holding the message for `attempt`: it takes the attempt on the
 * verification (so no other reader asks too), asks, and records the answer before deciding on
 * it; an unavailable answer within the retry window is recorded with the time of the next
 * attempt and sent back to the queue with that delay, and past the window it is the answer.
 * A failure after the attempt was taken lets go of it, so the message's retry may ask again.
 */
export function askedAnswer(deps: AskDeps, attempt: number): AskingGate {
  let stillHeld: string | undefined;

  /** The identity number to ask with: read from the document, or opened from the verification's submitted keys. */
  async function identityNumberOf(item: VerificationItem, keys: LookupKeys): Promise<string> {
    if (keys.identityNumber !== undefined) return keys.identityNumber;
    const sealed = item.submitted_keys?.identity_number_sealed;
    if (sealed === undefined) throw new Error("A verification by its keys holds no identity number to ask with");
    return deps.sealer.open(sealed, { appId: item.app_id, verificationId: item.verification_id });
  }

  /** Asks, within the attempt `held`, and records what came of it; the answer to decide on, if any. */
  async function ask(item: VerificationItem, keys: LookupKeys, held: IssuerState) {
    // The issuer's answer also removes the submitted identity number, in the same write: it is needed
    // no more. No answer keeps it sealed: the review that follows may ask the issuer again.
    const submitted = item.submitted_keys !== undefined;
    const record = (state: IssuerState, forget: boolean) =>
      deps.verifications.recordIssuer({
        id: item.verification_id,
        sequence: item.sequence,
        seen: held,
        state,
        ...(forget && submitted ? { forgetSubmittedNumber: true } : {}),
      });
    const identityNumber = await identityNumberOf(item, keys);
    const started = deps.stopwatch();
    const answer = await deps.authority.lookup({
      documentType: item.document_type,
      barcode: keys.barcode,
      identityNumber,
    });
    const now = deps.clock.now();
    deps.log.lookup(item.environment, outcomeOf(answer), deps.stopwatch() - started, item.verification_id);

    if (answer.kind !== "unavailable") {
      // The copy first: an answer recorded as found always has its copy beside the upload.
      if (answer.kind === "found") {
        await deps.documents.write(issuerCopyKey(item.verification_id), answer.document, "application/pdf");
      }
      const recorded = await record(answered(held, answer.kind), true);
      return recorded.applied ? answer : ({ kind: "pending", item: recorded.item } as const);
    }
    const next = afterUnavailable(held, answer.cause, now, deps.random);
    const recorded = await record(next, false);
    if (!recorded.applied) return { kind: "pending", item: recorded.item } as const;
    if (next.answer === "unavailable") return answer;
    const delaySeconds = Math.max(0, Math.ceil((Date.parse(next.next_at ?? "") - now.getTime()) / 1000));
    await deps.queue.send({ verification_id: item.verification_id, attempt: attempt + 1 }, delaySeconds);
    return { kind: "pending", item: recorded.item } as const;
  }

  return {
    heldUntil: () => stillHeld,
    async answerFor(item, keys) {
      const seen = item.issuer;
      const outcome = await follow(deps, item, askerStep(seen, attempt, deps.clock.now()));
      if (outcome !== "ask") return outcome;
      const held = claimed(seen, attempt, deps.clock.now(), deps.retryWindowSeconds);
      const taken = await deps.verifications
        .recordIssuer({ id: item.verification_id, sequence: item.sequence, seen, state: held })
        .catch((error: unknown) => {
          // Taking it may have applied with its answer lost: then the attempt is this reader's, and
          // the retry must wait for the hold to lapse, not find it held and leave it to nobody.
          stillHeld = held.asking_until;
          throw error;
        });
      // Another reader took it, or the verification moved on.
      if (!taken.applied) return { kind: "pending", item: taken.item };
      try {
        return await ask(item, keys, held);
      } catch (error) {
        stillHeld = held.asking_until;
        // Let go of the attempt, so the retry of this message asks at once; if that fails too, the hold lapses.
        const released = { ...held, rev: held.rev + 1, asking_until: isoSeconds(deps.clock.now()) };
        await deps.verifications
          .recordIssuer({ id: item.verification_id, sequence: item.sequence, seen: held, state: released })
          .then(() => {
            stillHeld = undefined;
          })
          .catch(() => undefined);
        throw error;
      }
    },
  };
}
