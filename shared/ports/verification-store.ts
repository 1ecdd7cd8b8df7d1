import type { TransitionGuard } from "../domain/guards.ts";
import type { IssuerState } from "../domain/issuer.ts";
import type { RequestRecord } from "../domain/requests.ts";
import type { AuditRecord } from "../domain/responses/audit.ts";
import type { ReviewFilter } from "../domain/review.ts";
import type { VerificationPosition } from "../domain/searches.ts";
import type { Status } from "../domain/state.ts";
import type { VerificationItem } from "../domain/verification.ts";

export type TransitionOutcome =
  | { applied: true; item: VerificationItem }
  /** The condition failed; `item` is the stored item at that moment, if there is one. */
  | { applied: false; item: VerificationItem | undefined };

/** What a change of state writes beside the new status: fields of the verification. */
export type VerificationChange = Partial<
  Omit<VerificationItem, "verification_id" | "app_id" | "status" | "sequence" | "updated_at">
>;

export interface TransitionRequest {
  id: string;
  from: Status;
  to: Status;
  now: string;
  /** Further fields the change sets. */
  set?: VerificationChange;
  /** Fields the change removes, whole. */
  remove?: readonly (keyof VerificationChange)[];
  /** What must still hold of the stored verification at `now` (`guards.ts`). */
  expect?: TransitionGuard;
  /** The record of a person's change, written with it or not at all. */
  audit?: AuditRecord;
  /** The record of the API request that makes the change, kept in the request log with it or not at all. */
  logged?: RequestRecord;
  /**
   * The verification as the caller read it: the change is then held to that item's `sequence`,
   * and the item it makes is built from it rather than read back.
   */
  seen?: VerificationItem;
}

/** A reviewer's asking the issuer again: the lookup state they read, the one to write, and its record. */
export interface AskingAgain {
  id: string;
  sequence: number;
  /** The claim's holder (their sub). */
  holder: string;
  now: string;
  seen: IssuerState;
  state: IssuerState;
  audit: AuditRecord;
}

/** What a verification in review shows once the issuer, asked again, answered what the checks cannot decide. */
export interface Revision {
  id: string;
  sequence: number;
  now: string;
  set: VerificationChange;
  remove?: readonly (keyof VerificationChange)[];
}

/** Where a page of a listing ends: the last item's review deadline and id. */
export interface ReviewPosition {
  deadline: string;
  id: string;
}

/** Which of an app's verifications a list reads, newest first. */
export interface VerificationQuery {
  appId: string;
  reference?: string;
  status?: Status;
  createdAfter?: string;
  createdBefore?: string;
  /** `awaiting_upload` past its deadline reads as `expired`, as the resource shows it. */
  now: string;
}

/** Where verifications are kept. Every change of state goes through `transition`. */
export interface VerificationStore {
  /**
   * Stores a new verification, kept `keepDays` after its creation; refuses an id that exists.
   * With `logged`, the API request that creates it is kept in the request log with it.
   */
  create(item: VerificationItem, keepDays: number, logged?: RequestRecord): Promise<void>;
  /**
   * Removes a verification that no client has been given: only while it is still new
   * (awaiting its upload, at its first sequence). Nothing happens when it is gone or has moved on.
   */
  discardNew(id: string): Promise<void>;
  /** Read consistently. */
  get(id: string): Promise<VerificationItem | undefined>;
  /**
   * A conditional change of state: only a transition the state machine draws, only from the
   * state the caller saw, and `sequence` grows by one.
   */
  transition(request: TransitionRequest): Promise<TransitionOutcome>;
  /**
   * Visits each verification still awaiting an upload whose deadline is at or before `now`, on
   * UTC day `since` or later; a few are visited at once.
   */
  awaitingPastDeadline(since: string, now: string, visit: (item: VerificationItem) => Promise<void>): Promise<void>;
  /** Visits each verification erased at `since` or later, and at or before `now`; a few are visited at once. */
  erasedSince(since: string, now: string, visit: (item: VerificationItem) => Promise<void>): Promise<void>;
  /** Verifications in review whose review window, closing on UTC day `day`, closed at or before `now`. */
  inReviewPastDeadline(day: string, now: string): AsyncIterable<VerificationItem>;
  /**
   * Up to `limit` verifications in review whose window closes on UTC day `day` and that match
   * `filter`, earliest deadline first, after `after` when given; `more` when others of that day
   * that match follow.
   */
  inReviewOn(
    day: string,
    filter: ReviewFilter,
    limit: number,
    after?: ReviewPosition,
  ): Promise<{ items: VerificationItem[]; more: boolean }>;
  /** How many verifications in review whose window closes on UTC day `day` match `filter`. */
  countInReviewOn(day: string, filter: ReviewFilter): Promise<number>;
  /**
   * Gives the review's claim to `holder` until `expiresAt`, if the verification is in review
   * and nobody else holds an unexpired claim at `now`. Not a change of state: `sequence` stays.
   */
  claimReview(request: {
    id: string;
    holder: { sub: string; username: string };
    now: string;
    expiresAt: string;
    /** The claim's record, written with it. */
    audit?: AuditRecord;
  }): Promise<TransitionOutcome>;
  /**
   * Up to `limit` of the app's verifications that match, newest first, after `after`; `last`
   * is where to go on from when more may follow.
   */
  listForApp(
    query: VerificationQuery,
    limit: number,
    after?: VerificationPosition,
  ): Promise<{ items: VerificationItem[]; last: VerificationPosition | undefined }>;
  /**
   * Records what the issuer lookups of a verification still processing at `sequence` (or in
   * review, while a reviewer's asking again is under way) have come to: `state` is written only
   * over the state the caller read (`seen`: none, or the same `rev`), so of two processors only
   * one takes an attempt or records its answer. Not a change of state: `sequence` stays. With
   * `forgetSubmittedNumber`, the sealed identity number of a verification by its keys is removed
   * in the same write (the issuer answered).
   */
  recordIssuer(request: {
    id: string;
    sequence: number;
    seen: IssuerState | undefined;
    state: IssuerState;
    forgetSubmittedNumber?: boolean;
  }): Promise<TransitionOutcome>;
  /**
   * Records a reviewer's asking the issuer again (`state`, over the lookup state `seen` they read):
   * only for a verification in review because the issuer gave no answer, still at `sequence`,
   * whose claim `holder` (their sub) holds at `now`; with its audit record. Not a change of
   * state: `sequence` stays.
   */
  askIssuerAgain(request: AskingAgain): Promise<TransitionOutcome>;
  /**
   * Revises a verification in review at `sequence` once the issuer, asked again, answered what
   * the checks still cannot decide: its checks, review reason and what the answer gave. It stays
   * in review, its window unchanged, one step up the sequence (a reviewer's `If-Match` reads it again).
   */
  revise(request: Revision): Promise<TransitionOutcome>;
  /**
   * Erases the person from a verification still at `sequence` and not erased: removes
   * `ERASED_ATTRIBUTES`, empties its checks, sets `redacted_at` and `updated_at` to `now`, one
   * step up the sequence; with `expire`, an awaited upload also ends as `expired` now. From
   * then on `erasedSince` visits it.
   */
  erase(request: {
    id: string;
    sequence: number;
    now: string;
    expire: boolean;
    /** An operator's erasure is recorded, with it. */
    audit?: AuditRecord;
  }): Promise<TransitionOutcome>;
}
