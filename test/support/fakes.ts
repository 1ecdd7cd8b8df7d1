import { createHmac, generateKeyPairSync, sign, verify } from "node:crypto";
import { type AppItem, type AppStatus, isLiveKey, type KeyItem } from "#shared/domain/apps";
import { auditMonth, auditPlace, auditPrint, auditTime, type RecordPrint } from "#shared/domain/audit";
import type { SignedDigest } from "#shared/domain/audit-digests";
/**
 * In-memory stand-ins for the ports in shared/ports, for unit tests of the use cases: no
 * engine, no network. Each keeps the contract its port's doc comment states, and says where
 * it keeps less. Every read returns a copy, as a table would, so a test cannot change what is
 * stored by changing what it was given.
 */
import type { UnreadableReason } from "#shared/domain/check-details";
import { displayPrefix, generateApiKey, hashApiKey } from "#shared/domain/credentials";
import type { FileType } from "#shared/domain/document-types";
import type { Environment } from "#shared/domain/environments";
import {
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  IdempotencyRecordError,
  InvalidInputError,
  StaleAppError,
} from "#shared/domain/errors";
import { guardHolds } from "#shared/domain/guards";
import type { IssuerMessage, IssuerState, LookupOutcome } from "#shared/domain/issuer";
import type { RequestRecord } from "#shared/domain/requests";
import type { AuditRecord } from "#shared/domain/responses/audit";
import type { UploadInstructions } from "#shared/domain/responses/verification";
import type { ReviewFilter } from "#shared/domain/review";
import type { VerificationPosition } from "#shared/domain/searches";
import { canTransition, visibleStatus } from "#shared/domain/state";
import { addSeconds, isoSeconds } from "#shared/domain/time";
import type { UsageOutcome } from "#shared/domain/usage";
import { documentKey, ERASED_ATTRIBUTES, type VerificationItem } from "#shared/domain/verification";
import {
  type AttemptItem,
  type DeliveryMessage,
  type EventItem,
  nextAttemptNumber,
} from "#shared/domain/webhook-events";
import type { AppLimits } from "#shared/ports/app-limits";
import type { AppStore } from "#shared/ports/app-store";
import type {
  AuditDigests,
  AuditFilter,
  AuditNarrowing,
  AuditPrints,
  AuditTrail,
  DigestSigner,
  DigestVerifier,
} from "#shared/ports/audit-trail";
import type { Authority, IssuerAnswer, IssuerLookup } from "#shared/ports/authority";
import type { DeliveryQueue } from "#shared/ports/delivery-queue";
import type { DocumentContent, DocumentReader, ReadResult } from "#shared/ports/document-reader";
import type { DocumentStore } from "#shared/ports/document-store";
import type { AfterAttempt, AttemptRecord, EventStore } from "#shared/ports/event-store";
import type { Idempotency, IdempotentInput, Invocation } from "#shared/ports/idempotency";
import type { IssuerQueue } from "#shared/ports/issuer-queue";
import type { Log, ServiceMetric } from "#shared/ports/log";
import type { SealContext, Sealer } from "#shared/ports/sealer";
import type { SubjectDigest } from "#shared/ports/subject-digest";
import type { UsageCounts, UsageStore } from "#shared/ports/usage-store";
import type {
  AskingAgain,
  ReviewPosition,
  Revision,
  TransitionOutcome,
  TransitionRequest,
  VerificationQuery,
  VerificationStore,
} from "#shared/ports/verification-store";
import type { WebhookResponse, WebhookSender } from "#shared/ports/webhook-sender";
import { FixedClock, T0 } from "./fixed-clock.ts";

const copy = <T>(value: T): T => structuredClone(value);

// ---------------------------------------------------------------------------------------------
// The audit trail

/**
 * The trail in memory, each record kept as the table keeps it (with its month), its print taken
 * over everything kept. The stores below keep a change's record here only when the change is
 * written, as the table's transaction does.
 */
export class InMemoryAuditTrail implements AuditTrail, AuditPrints {
  readonly kept: AuditRecord[] = [];

  /** The records kept, oldest first. */
  get records(): AuditRecord[] {
    return this.kept.map(copy);
  }

  async append(record: AuditRecord): Promise<void> {
    if (this.kept.some((kept) => kept.audit_id === record.audit_id)) {
      throw new Error(`Record ${record.audit_id} exists`);
    }
    this.kept.push(copy(record));
  }

  async appendAll(records: readonly AuditRecord[]): Promise<void> {
    for (const record of records) await this.append(record);
  }

  async page(
    filter: AuditFilter,
    limit: number,
    before?: string,
    narrowing: AuditNarrowing = {},
  ): Promise<{ records: AuditRecord[]; more: boolean }> {
    const { action, since, until } = narrowing;
    const matching = this.records
      .filter(
        (record) =>
          ("verificationId" in filter ? record.verification_id === filter.verificationId : true) &&
          ("actorSub" in filter ? record.actor.sub === filter.actorSub : true) &&
          (before === undefined || record.audit_id < before) &&
          (action === undefined || record.action === action) &&
          (since === undefined || auditTime(record.audit_id) >= since.getTime()) &&
          (until === undefined || auditTime(record.audit_id) < until.getTime()),
      )
      .sort((a, b) => b.audit_id.localeCompare(a.audit_id));
    return { records: matching.slice(0, limit), more: matching.length > limit };
  }

  async prints(month: string, after?: string): Promise<RecordPrint[]> {
    return this.kept
      .filter((record) => auditMonth(record.audit_id) === month && (after === undefined || record.audit_id > after))
      .sort((a, b) => a.audit_id.localeCompare(b.audit_id))
      .map((record) => ({ audit_id: record.audit_id, print: auditPrint({ ...record, month: auditPlace(record) }) }));
  }

  /** Keeps the record of a change the store wrote; a store given a record without a trail refuses, as the table's does. */
  keep(record: AuditRecord | undefined): Promise<void> {
    return record ? this.append(record) : Promise.resolve();
  }
}

/** Digests in memory, each place taken once, as the digests table's conditional put keeps them. */
export class InMemoryAuditDigests implements AuditDigests {
  readonly kept: SignedDigest[] = [];

  async digests(month: string): Promise<SignedDigest[]> {
    return this.kept.filter(({ digest }) => digest.month === month).sort((a, b) => a.digest.seq - b.digest.seq);
  }

  async last(month: string): Promise<SignedDigest | undefined> {
    return (await this.digests(month)).at(-1);
  }

  async keep(signed: SignedDigest): Promise<boolean> {
    const { month, seq } = signed.digest;
    if (this.kept.some(({ digest }) => digest.month === month && digest.seq === seq)) return false;
    this.kept.push(structuredClone(signed));
    return true;
  }
}

/** A P-256 key pair in process: signs and checks as the KMS sealing key does (ECDSA over the hash's text). */
export function inProcessSealingKey(): { signer: DigestSigner; verifier: DigestVerifier } {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  return {
    signer: { sign: async (hash) => sign("sha256", Buffer.from(hash), privateKey).toString("base64") },
    verifier: {
      verify: async (hash, signature) =>
        verify("sha256", Buffer.from(hash), publicKey, Buffer.from(signature, "base64")),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Verifications

/**
 * Verifications in a Map. `transition` keeps what the port promises: only a transition
 * `canTransition` draws (another throws, as the DynamoDB store does), only from the status the
 * caller saw and while its guard holds (`guardHolds`, the rule the DynamoDB store compiles),
 * `sequence` one up, `updated_at` set to the request's `now`. Every request is kept in
 * `transitions`. The indexes are read as the table's are: by the deadline's UTC day.
 */
export class InMemoryVerificationStore implements VerificationStore {
  readonly items = new Map<string, VerificationItem>();
  readonly transitions: TransitionRequest[] = [];
  readonly reads: string[] = [];

  /** `trail` keeps the record of each change made with one. */
  constructor(readonly trail = new InMemoryAuditTrail()) {}
  /** The retention each create asked for, by id. */
  readonly keepDays = new Map<string, number>();
  /** The API requests' records the changes that carried them kept, in order. */
  readonly logged: RequestRecord[] = [];

  /** Arranges a stored verification. */
  put(...items: VerificationItem[]): this {
    for (const item of items) this.items.set(item.verification_id, copy(item));
    return this;
  }

  /** The stored verification, for assertions; throws when there is none. */
  stored(id: string): VerificationItem {
    const item = this.items.get(id);
    if (!item) throw new Error(`No verification ${id} is stored`);
    return copy(item);
  }

  async create(item: VerificationItem, keepDays: number, logged?: RequestRecord): Promise<void> {
    if (this.items.has(item.verification_id)) throw new Error(`Verification ${item.verification_id} exists`);
    this.items.set(item.verification_id, copy(item));
    this.keepDays.set(item.verification_id, keepDays);
    if (logged) this.logged.push(copy(logged));
  }

  async discardNew(id: string): Promise<void> {
    const item = this.items.get(id);
    if (item?.status === "awaiting_upload" && item.sequence === 1) this.items.delete(id);
  }

  async get(id: string): Promise<VerificationItem | undefined> {
    this.reads.push(id);
    const item = this.items.get(id);
    return item && copy(item);
  }

  async transition(request: TransitionRequest): Promise<TransitionOutcome> {
    if (!canTransition(request.from, request.to)) {
      throw new Error(`Transition ${request.from} -> ${request.to} is not allowed`);
    }
    this.transitions.push(copy(request));
    const stored = this.items.get(request.id);
    // A change made from the item the caller saw holds only while that item is unchanged.
    const expect = request.seen ? { ...request.expect, sequence: request.seen.sequence } : (request.expect ?? {});
    const holds = stored !== undefined && stored.status === request.from && guardHolds(stored, expect, request.now);
    if (!holds) return { applied: false, item: stored && copy(stored) };
    const next: VerificationItem = {
      ...stored,
      ...copy(request.set),
      status: request.to,
      sequence: stored.sequence + 1,
      updated_at: request.now,
    };
    for (const name of request.remove ?? []) delete next[name];
    await this.trail.keep(request.audit);
    if (request.logged) this.logged.push(copy(request.logged));
    this.items.set(request.id, next);
    return { applied: true, item: copy(next) };
  }

  async recordIssuer(request: {
    id: string;
    sequence: number;
    seen: IssuerState | undefined;
    state: IssuerState;
    forgetSubmittedNumber?: boolean;
  }): Promise<TransitionOutcome> {
    const stored = this.items.get(request.id);
    const holds =
      (stored?.status === "processing" || stored?.status === "in_review") &&
      stored.sequence === request.sequence &&
      stored.issuer?.rev === request.seen?.rev &&
      (!request.forgetSubmittedNumber || stored.submitted_keys !== undefined);
    if (!stored || !holds) return { applied: false, item: stored && copy(stored) };
    const next: VerificationItem = { ...stored, issuer: copy(request.state) };
    if (request.forgetSubmittedNumber && next.submitted_keys) {
      next.submitted_keys = { barcode: next.submitted_keys.barcode };
    }
    this.items.set(request.id, next);
    return { applied: true, item: copy(next) };
  }

  async askIssuerAgain(request: AskingAgain): Promise<TransitionOutcome> {
    const stored = this.items.get(request.id);
    const holds =
      stored?.status === "in_review" &&
      stored.review_reason === "issuer_unavailable" &&
      stored.issuer?.rev === request.seen.rev &&
      guardHolds(stored, { sequence: request.sequence, claimHeldBy: request.holder }, request.now);
    if (!stored || !holds) return { applied: false, item: stored && copy(stored) };
    const next: VerificationItem = { ...stored, issuer: copy(request.state) };
    await this.trail.keep(request.audit);
    this.items.set(request.id, next);
    return { applied: true, item: copy(next) };
  }

  async revise(request: Revision): Promise<TransitionOutcome> {
    const stored = this.items.get(request.id);
    if (stored?.status !== "in_review" || stored.sequence !== request.sequence) {
      return { applied: false, item: stored && copy(stored) };
    }
    const next: VerificationItem = {
      ...stored,
      ...copy(request.set),
      sequence: stored.sequence + 1,
      updated_at: request.now,
    };
    for (const name of request.remove ?? []) delete next[name];
    this.items.set(request.id, next);
    return { applied: true, item: copy(next) };
  }

  async erase(request: {
    id: string;
    sequence: number;
    now: string;
    expire: boolean;
    audit?: AuditRecord;
  }): Promise<TransitionOutcome> {
    const stored = this.items.get(request.id);
    const holds =
      stored !== undefined &&
      stored.sequence === request.sequence &&
      stored.redacted_at === undefined &&
      (!request.expire || stored.status === "awaiting_upload");
    if (!holds) return { applied: false, item: stored && copy(stored) };
    const next: VerificationItem = {
      ...stored,
      checks: [],
      redacted_at: request.now,
      updated_at: request.now,
      sequence: stored.sequence + 1,
      ...(request.expire ? { status: "expired" as const, completed_at: request.now } : {}),
    };
    for (const name of ERASED_ATTRIBUTES) delete next[name];
    await this.trail.keep(request.audit);
    this.items.set(request.id, next);
    return { applied: true, item: copy(next) };
  }

  /** Visits one at a time: how many the table's store reads at once is its own test's concern. */
  async awaitingPastDeadline(
    since: string,
    now: string,
    visit: (item: VerificationItem) => Promise<void>,
  ): Promise<void> {
    // Read as a query reads a page: what matched when it ran.
    const matching = [...this.items.values()].filter(
      (item) =>
        item.status === "awaiting_upload" && item.upload_deadline.slice(0, 10) >= since && item.upload_deadline <= now,
    );
    for (const item of matching) await visit(copy(item));
  }

  async erasedSince(since: string, now: string, visit: (item: VerificationItem) => Promise<void>): Promise<void> {
    const matching = [...this.items.values()].filter(
      (item) => item.redacted_at !== undefined && item.redacted_at >= since && item.redacted_at <= now,
    );
    for (const item of matching) await visit(copy(item));
  }

  async *inReviewPastDeadline(day: string, now: string): AsyncIterable<VerificationItem> {
    const matching = this.inReviewClosingOn(day).filter((item) => (item.review_deadline ?? "") <= now);
    for (const item of matching) yield copy(item);
  }

  async inReviewOn(
    day: string,
    filter: ReviewFilter,
    limit: number,
    after?: ReviewPosition,
  ): Promise<{ items: VerificationItem[]; more: boolean }> {
    const position = (item: VerificationItem) => `${item.review_deadline ?? ""}|${item.verification_id}`;
    const matching = this.inReviewClosingOn(day, filter)
      .filter((item) => !after || position(item) > `${after.deadline}|${after.id}`)
      .sort((a, b) => position(a).localeCompare(position(b)));
    return { items: matching.slice(0, limit).map(copy), more: matching.length > limit };
  }

  async countInReviewOn(day: string, filter: ReviewFilter): Promise<number> {
    return this.inReviewClosingOn(day, filter).length;
  }

  /** In review, the window closing on UTC day `day` (the review-deadline index's partition), what `filter` keeps of it. */
  private inReviewClosingOn(day: string, filter: ReviewFilter = {}): VerificationItem[] {
    return [...this.items.values()].filter(
      (item) =>
        item.status === "in_review" &&
        item.review_deadline?.slice(0, 10) === day &&
        (filter.documentType === undefined || item.document_type === filter.documentType) &&
        (filter.reason === undefined || item.review_reason === filter.reason),
    );
  }

  async listForApp(
    query: VerificationQuery,
    limit: number,
    after?: VerificationPosition,
  ): Promise<{ items: VerificationItem[]; last: VerificationPosition | undefined }> {
    const order = (item: { created_at: string; id: string }) => `${item.created_at}|${item.id}`;
    const matching = [...this.items.values()]
      .filter(
        (item) =>
          item.app_id === query.appId &&
          (query.reference === undefined || item.external_reference_id === query.reference) &&
          (query.status === undefined ||
            visibleStatus(item.status, item.upload_deadline, query.now) === query.status) &&
          (query.createdAfter === undefined || item.created_at >= query.createdAfter) &&
          (query.createdBefore === undefined || item.created_at < query.createdBefore) &&
          (!after || order({ created_at: item.created_at, id: item.verification_id }) < order(after)),
      )
      .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.verification_id.localeCompare(a.verification_id));
    const items = matching.slice(0, limit).map(copy);
    const last = matching.length > limit ? items.at(-1) : undefined;
    return { items, last: last ? { created_at: last.created_at, id: last.verification_id } : undefined };
  }

  /** The lease condition the DynamoDB store writes: in review, and free, lapsed or the holder's own. */
  async claimReview(request: {
    id: string;
    holder: { sub: string; username: string };
    now: string;
    expiresAt: string;
    audit?: AuditRecord;
  }): Promise<TransitionOutcome> {
    const stored = this.items.get(request.id);
    const free =
      stored?.status === "in_review" &&
      (stored.claim_expires_at === undefined ||
        stored.claim_expires_at <= request.now ||
        stored.claimed_by_sub === request.holder.sub);
    if (!stored || !free) return { applied: false, item: stored && copy(stored) };
    const next: VerificationItem = {
      ...stored,
      claimed_by_sub: request.holder.sub,
      claimed_by: request.holder.username,
      claim_expires_at: request.expiresAt,
    };
    await this.trail.keep(request.audit);
    this.items.set(request.id, next);
    return { applied: true, item: copy(next) };
  }
}

// ---------------------------------------------------------------------------------------------
// Documents

export interface PresignRequest {
  key: string;
  contentType: string;
  size: number;
  now: string;
  lifetimeSeconds: number;
}

/** Uploaded objects in a Map; the presigned instructions record what they were asked for. */
export class InMemoryDocumentStore implements DocumentStore {
  readonly objects = new Map<string, Uint8Array>();
  readonly presigned: PresignRequest[] = [];
  readonly deleted: string[] = [];
  readonly written: { key: string; contentType: string }[] = [];
  readonly copies: { from: string; to: string }[] = [];

  /** Arranges an uploaded object. */
  upload(key: string, bytes: Uint8Array): this {
    this.objects.set(key, Uint8Array.from(bytes));
    return this;
  }

  async presignPut(
    key: string,
    contentType: string,
    size: number,
    now: Date,
    lifetimeSeconds: number,
  ): Promise<UploadInstructions> {
    this.presigned.push({ key, contentType, size, now: isoSeconds(now), lifetimeSeconds });
    return {
      method: "PUT",
      url: `https://uploads.example.test/${key}?lifetime=${lifetimeSeconds}`,
      headers: { "Content-Type": contentType, "Content-Length": String(size) },
      expires_at: isoSeconds(addSeconds(now, lifetimeSeconds)),
    };
  }

  async presignGet(key: string, now: Date, lifetimeSeconds: number): Promise<string> {
    return `https://uploads.example.test/${key}?get&signed=${isoSeconds(now)}&lifetime=${lifetimeSeconds}`;
  }

  async size(key: string): Promise<number | undefined> {
    return this.objects.get(key)?.length;
  }

  async firstBytes(key: string, count: number): Promise<Uint8Array> {
    const bytes = this.objects.get(key);
    if (!bytes) throw new Error(`No object ${key}`);
    return bytes.slice(0, count);
  }

  async read(key: string): Promise<Uint8Array | undefined> {
    const bytes = this.objects.get(key);
    return bytes && Uint8Array.from(bytes);
  }

  async copy(from: string, to: string): Promise<void> {
    const bytes = this.objects.get(from);
    if (!bytes) throw new Error(`No object ${from}`);
    this.copies.push({ from, to });
    this.objects.set(to, Uint8Array.from(bytes));
  }

  async write(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    this.written.push({ key, contentType });
    this.objects.set(key, Uint8Array.from(bytes));
  }

  async delete(key: string): Promise<void> {
    this.deleted.push(key);
    this.objects.delete(key);
  }
}

// ---------------------------------------------------------------------------------------------
// Apps and keys

/**
 * Apps and keys in Maps. The conditional writes keep their port's conditions: `addKey` and
 * `revokeKeys` only while the app has the `key_version` (and, for `addKey`, the status) it was
 * read with; `rotateWebhookSecret` only while its current secret is still the one read. A
 * failed condition throws StaleAppError, as the port says.
 *
 * A test makes a write lose a race in one of two ways: `beforeNextWrite(change)` applies
 * another caller's change just before the next conditional write checks its condition (so the
 * condition fails for a real reason), or `staleWrites(n)` has the next n conditional writes
 * throw StaleAppError outright. `setStatus` reads and writes in one step here, so only
 * `staleWrites` makes it stale.
 */
export class InMemoryAppStore implements AppStore {
  /** `trail` keeps the record of each change made with one. */
  constructor(readonly trail = new InMemoryAuditTrail()) {}

  readonly apps = new Map<string, AppItem>();
  readonly keys = new Map<string, KeyItem>();
  /** Names of the conditional writes attempted, in order, whether they held or not. */
  readonly writes: string[] = [];
  keyReads = 0;
  private stale = 0;
  private interleaved: (() => void) | undefined;

  /** Arranges a stored app. */
  put(app: AppItem): this {
    this.apps.set(app.app_id, copy(app));
    return this;
  }

  /**
   * Arranges a stored key. Unless revoked it joins its app's `key_hashes` (which the real store
   * prunes only when it next writes the key set, so a key that has since expired is still there).
   * Returns the key in plain text too.
   */
  issueKey(appId: string, fields: Partial<Pick<KeyItem, "expires_at" | "revoked_at" | "created_at" | "prefix">> = {}) {
    const app = this.apps.get(appId);
    if (!app) throw new Error(`No app ${appId} to issue a key to`);
    const apiKey = generateApiKey(app.environment);
    const key: KeyItem = {
      key_hash: hashApiKey(apiKey),
      kind: "key",
      key_app_id: appId,
      environment: app.environment,
      prefix: displayPrefix(apiKey),
      app_status: app.status,
      created_at: T0,
      ...fields,
    };
    this.keys.set(key.key_hash, copy(key));
    if (!key.revoked_at) app.key_hashes.push(key.key_hash);
    return { apiKey, key: copy(key) };
  }

  app(appId: string): AppItem {
    const app = this.apps.get(appId);
    if (!app) throw new Error(`No app ${appId} is stored`);
    return copy(app);
  }

  key(keyHash: string): KeyItem {
    const key = this.keys.get(keyHash);
    if (!key) throw new Error(`No key ${keyHash} is stored`);
    return copy(key);
  }

  beforeNextWrite(change: () => void): void {
    this.interleaved = change;
  }

  staleWrites(times: number): void {
    this.stale = times;
  }

  /** Runs the interleaved change, or throws StaleAppError when asked to. */
  private conditionalWrite(name: string): void {
    this.writes.push(name);
    const change = this.interleaved;
    this.interleaved = undefined;
    change?.();
    if (this.stale > 0) {
      this.stale -= 1;
      throw new StaleAppError();
    }
  }

  async createWithKey(
    app: AppItem,
    key: KeyItem,
    audit: AuditRecord | undefined,
    appsPerOrganization: number,
  ): Promise<boolean> {
    if (this.apps.has(app.app_id) || this.keys.has(key.key_hash)) throw new Error("The app or its key exists");
    const owner = app.organization_id;
    if (owner && [...this.apps.values()].filter((one) => one.organization_id === owner).length >= appsPerOrganization) {
      return false;
    }
    await this.trail.keep(audit);
    this.apps.set(app.app_id, copy(app));
    this.keys.set(key.key_hash, copy(key));
    return true;
  }

  async getApp(appId: string): Promise<AppItem | undefined> {
    const app = this.apps.get(appId);
    return app && copy(app);
  }

  async listApps(): Promise<AppItem[]> {
    return [...this.apps.values()]
      .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.app_id.localeCompare(b.app_id))
      .map(copy);
  }

  async getKey(keyHash: string): Promise<KeyItem | undefined> {
    this.keyReads += 1;
    const key = this.keys.get(keyHash);
    return key && copy(key);
  }

  /** Writes of `last_used_at` attempted, whether their condition held or not. */
  keyUseWrites = 0;

  async recordKeyUse(keyHash: string, at: string, staleBefore: string): Promise<boolean> {
    this.keyUseWrites += 1;
    const key = this.keys.get(keyHash);
    if (!key || (key.last_used_at !== undefined && key.last_used_at > staleBefore)) return false;
    key.last_used_at = at;
    return true;
  }

  async renameKey(appId: string, keyHash: string, name: string, audit?: AuditRecord): Promise<boolean> {
    const key = this.keys.get(keyHash);
    if (!key || key.key_app_id !== appId) return false;
    await this.trail.keep(audit);
    key.name = name;
    return true;
  }

  async setWebhookUrl(appId: string, url: string | undefined, now: string, audit?: AuditRecord): Promise<void> {
    const app = this.apps.get(appId);
    if (!app) throw new Error(`No app ${appId}`);
    await this.trail.keep(audit);
    if (url === undefined) delete app.webhook_url;
    else app.webhook_url = url;
    app.updated_at = now;
  }

  async listKeys(appId: string): Promise<KeyItem[]> {
    return [...this.keys.values()]
      .filter((key) => key.key_app_id === appId)
      .sort((a, b) => a.created_at.localeCompare(b.created_at))
      .map(copy);
  }

  async currentKeys(app: AppItem, now: string): Promise<KeyItem[]> {
    return app.key_hashes
      .map((keyHash) => this.keys.get(keyHash))
      .filter((key): key is KeyItem => key !== undefined && isLiveKey(key, now))
      .map(copy);
  }

  async setStatus(appId: string, status: AppStatus, now: string, audit?: AuditRecord): Promise<AppItem | undefined> {
    const app = this.apps.get(appId);
    if (!app) return undefined;
    this.conditionalWrite("setStatus");
    await this.trail.keep(audit);
    for (const key of await this.currentKeys(app, now)) {
      const stored = this.keys.get(key.key_hash);
      if (stored) stored.app_status = status;
    }
    app.status = status;
    app.updated_at = now;
    return copy(app);
  }

  async addKey(
    app: AppItem,
    key: KeyItem,
    expiring: { key_hash: string; expires_at: string }[],
    keyHashes: string[],
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    this.conditionalWrite("addKey");
    const stored = this.apps.get(app.app_id);
    if (!stored || stored.key_version !== app.key_version || stored.status !== app.status) throw new StaleAppError();
    if (this.keys.has(key.key_hash)) throw new Error(`Key ${key.key_hash} exists`);
    await this.trail.keep(audit);
    for (const old of expiring) {
      const oldKey = this.keys.get(old.key_hash);
      if (!oldKey) throw new Error(`No key ${old.key_hash}`);
      oldKey.expires_at = old.expires_at;
    }
    this.keys.set(key.key_hash, copy(key));
    stored.key_hashes = [...keyHashes];
    stored.key_version += 1;
    stored.updated_at = now;
  }

  async revokeKeys(
    app: AppItem,
    revoked: string[],
    keyHashes: string[],
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    this.conditionalWrite("revokeKeys");
    const stored = this.apps.get(app.app_id);
    if (!stored || stored.key_version !== app.key_version) throw new StaleAppError();
    await this.trail.keep(audit);
    for (const keyHash of revoked) {
      const key = this.keys.get(keyHash);
      if (!key) throw new Error(`No key ${keyHash}`);
      key.revoked_at ??= now;
    }
    stored.key_hashes = [...keyHashes];
    stored.key_version += 1;
    stored.updated_at = now;
  }

  async rotateWebhookSecret(
    app: AppItem,
    sealed: string,
    previousExpiresAt: string,
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    this.conditionalWrite("rotateWebhookSecret");
    const stored = this.apps.get(app.app_id);
    if (!stored || stored.webhook_secret_sealed !== app.webhook_secret_sealed) throw new StaleAppError();
    await this.trail.keep(audit);
    stored.previous_webhook_secret_sealed = stored.webhook_secret_sealed;
    stored.previous_webhook_secret_expires_at = previousExpiresAt;
    stored.webhook_secret_sealed = sealed;
    stored.updated_at = now;
  }

  async resealSecrets(
    app: AppItem,
    sealed: { current: string; previous?: string },
    now: string,
    audit?: AuditRecord,
  ): Promise<void> {
    this.conditionalWrite("resealSecrets");
    const stored = this.apps.get(app.app_id);
    const previousHolds = stored?.previous_webhook_secret_sealed === app.previous_webhook_secret_sealed;
    if (!stored || stored.webhook_secret_sealed !== app.webhook_secret_sealed || !previousHolds) {
      throw new StaleAppError();
    }
    await this.trail.keep(audit);
    stored.webhook_secret_sealed = sealed.current;
    if (sealed.previous !== undefined && stored.previous_webhook_secret_sealed !== undefined) {
      stored.previous_webhook_secret_sealed = sealed.previous;
    }
    stored.updated_at = now;
  }
}

// ---------------------------------------------------------------------------------------------
// Webhook events

/** The fake's cursor of an attempt: its event and number, which name it alone. */
const attemptCursor = (attempt: AttemptItem) => `${attempt.event_id}/${attempt.attempt}`;

/**
 * Events and attempts in memory, with the conditions the port states: `create` once per id,
 * `claim` only while the event is pending with the `next_attempt_at` and `attempts` the caller
 * saw, `recordAttempt` once per attempt number (a second record throws). `due` is ordered by
 * `next_attempt_at`, the order of the due index.
 */
export class InMemoryEventStore implements EventStore {
  /** `trail` keeps the record of each event made, or replayed, with one. */
  constructor(readonly trail = new InMemoryAuditTrail()) {}

  readonly events = new Map<string, EventItem>();
  readonly attempts: AttemptItem[] = [];
  /** Each attempt's app and the order it was recorded in (the later of two in one second is the newer). */
  private readonly attemptPlaces = new Map<AttemptItem, { appId: string; recorded: number }>();
  readonly dueLimits: number[] = [];

  put(...events: EventItem[]): this {
    for (const event of events) this.events.set(event.event_id, copy(event));
    return this;
  }

  stored(eventId: string): EventItem {
    const event = this.events.get(eventId);
    if (!event) throw new Error(`No event ${eventId} is stored`);
    return copy(event);
  }

  async create(event: EventItem, audit?: AuditRecord): Promise<boolean> {
    if (this.events.has(event.event_id)) return false;
    await this.trail.keep(audit);
    this.events.set(event.event_id, copy(event));
    return true;
  }

  async get(eventId: string): Promise<EventItem | undefined> {
    const event = this.events.get(eventId);
    return event && copy(event);
  }

  async due(now: string, limit: number): Promise<EventItem[]> {
    this.dueLimits.push(limit);
    return [...this.events.values()]
      .filter(
        (event) => event.status === "pending" && event.next_attempt_at !== undefined && event.next_attempt_at <= now,
      )
      .sort((a, b) => (a.next_attempt_at ?? "").localeCompare(b.next_attempt_at ?? ""))
      .slice(0, limit)
      .map(copy);
  }

  async claim(event: EventItem, leaseUntil: string): Promise<boolean> {
    const stored = this.events.get(event.event_id);
    if (
      stored?.status !== "pending" ||
      stored.next_attempt_at !== event.next_attempt_at ||
      stored.attempts !== event.attempts
    ) {
      return false;
    }
    stored.next_attempt_at = leaseUntil;
    return true;
  }

  async recordAttempt(event: EventItem, attempt: AttemptRecord, next: AfterAttempt): Promise<void> {
    const stored = this.events.get(event.event_id);
    if (!stored || stored.attempts !== event.attempts) {
      throw new Error(`Attempt ${event.attempts + 1} of ${event.event_id} was recorded already`);
    }
    const number = event.attempts + 1;
    const recorded: AttemptItem = { ...copy(attempt), event_id: event.event_id, attempt: nextAttemptNumber(event) };
    this.attempts.push(recorded);
    this.attemptPlaces.set(recorded, { appId: event.app_id, recorded: this.attemptPlaces.size });
    stored.status = next.status;
    stored.attempts = number;
    if (next.status === "pending") stored.next_attempt_at = next.nextAttemptAt;
    else delete stored.next_attempt_at;
  }

  async markNoDestination(event: EventItem): Promise<void> {
    const stored = this.events.get(event.event_id);
    if (!stored) throw new Error(`No event ${event.event_id}`);
    stored.status = "no_destination";
    delete stored.next_attempt_at;
  }

  async requeue(event: EventItem, dueAt: string, audit?: AuditRecord): Promise<EventItem> {
    const stored = this.events.get(event.event_id);
    if (!stored) throw new Error(`No event ${event.event_id}`);
    await this.trail.keep(audit);
    stored.status = "pending";
    stored.attempts_before = (stored.attempts_before ?? 0) + stored.attempts;
    stored.attempts = 0;
    stored.next_attempt_at = dueAt;
    return copy(stored);
  }

  async attemptsForApp(
    appId: string,
    filter: { outcome?: AttemptItem["outcome"] },
    limit: number,
    after?: string,
  ): Promise<{ items: AttemptItem[]; last: string | undefined }> {
    const places = [...this.attemptPlaces].filter(([, place]) => place.appId === appId);
    const newestFirst = (a: [AttemptItem, { recorded: number }], b: [AttemptItem, { recorded: number }]) =>
      b[0].attempted_at.localeCompare(a[0].attempted_at) || b[1].recorded - a[1].recorded;
    places.sort(newestFirst);
    // A cursor is the place of the page's last attempt in that order, as only this store hands out.
    const start = after === undefined ? 0 : places.findIndex(([attempt]) => attemptCursor(attempt) === after) + 1;
    if (start === 0 && after !== undefined) {
      throw new InvalidInputError("invalid_cursor", "cursor must be the next_cursor of a previous page of this list");
    }
    const matching = places
      .slice(start)
      .map(([attempt]) => attempt)
      .filter((attempt) => !filter.outcome || attempt.outcome === filter.outcome);
    const last = matching.length > limit ? matching[limit - 1] : undefined;
    return { items: matching.slice(0, limit).map(copy), last: last && attemptCursor(last) };
  }

  async recentEventsForApp(
    appId: string,
    filter: { since: string; type?: EventItem["type"] },
    limit: number,
    before?: string,
  ): Promise<{ items: EventItem[]; last: string | undefined }> {
    const matching = [...this.events.values()]
      .filter((event) => event.app_id === appId && event.event_id >= filter.since)
      .filter((event) => (!filter.type || event.type === filter.type) && (!before || event.event_id < before))
      .sort((a, b) => b.event_id.localeCompare(a.event_id));
    const items = matching.slice(0, limit).map(copy);
    return { items, last: matching.length > limit ? items.at(-1)?.event_id : undefined };
  }

  async attemptsOf(eventId: string): Promise<AttemptItem[]> {
    return this.attempts
      .filter((attempt) => attempt.event_id === eventId)
      .sort((a, b) => a.attempt - b.attempt)
      .map(copy);
  }

  async eventsForApp(appId: string, afterId: string, limit: number): Promise<EventItem[]> {
    return [...this.events.values()]
      .filter((event) => event.app_id === appId && event.event_id > afterId)
      .sort((a, b) => a.event_id.localeCompare(b.event_id))
      .slice(0, limit)
      .map(copy);
  }

  async eventsOf(verificationId: string): Promise<EventItem[]> {
    return [...this.events.values()]
      .filter((event) => event.verification_id === verificationId)
      .sort((a, b) => (a.sequence ?? 0) - (b.sequence ?? 0))
      .map(copy);
  }

  async replaceBody(eventId: string, body: string): Promise<void> {
    const event = this.events.get(eventId);
    if (!event) throw new Error(`No event ${eventId} is stored`);
    event.body = body;
  }
}

// ---------------------------------------------------------------------------------------------
// Usage

/** Counters per app and day, and the verifications already counted: counted once, as the table does. */
export class InMemoryUsageStore implements UsageStore {
  readonly rows = new Map<string, UsageCounts>();
  readonly counted = new Set<string>();

  async count(input: { appId: string; day: string; outcome: UsageOutcome; verificationId: string }): Promise<void> {
    if (this.counted.has(input.verificationId)) return;
    this.counted.add(input.verificationId);
    const key = `${input.appId}#${input.day}`;
    const row = this.rows.get(key) ?? { appId: input.appId, day: input.day, counts: {} };
    row.counts[input.outcome] = (row.counts[input.outcome] ?? 0) + 1;
    this.rows.set(key, row);
  }

  async read(appId: string, from: string, to: string): Promise<UsageCounts[]> {
    return [...this.rows.values()]
      .filter((row) => row.appId === appId && row.day >= from && row.day <= to)
      .sort((a, b) => a.day.localeCompare(b.day))
      .map(copy);
  }
}

// ---------------------------------------------------------------------------------------------
// Idempotency

interface IdempotencyRecord {
  request: string;
  status: "in_progress" | "completed";
  result?: object;
}

/**
 * One record per (app, Idempotency-Key), the request compared as JSON. The port's contract:
 * a completed record replays, another request under the key is refused, a record in progress
 * refuses, a `work` that throws frees the key. It does not model the in-progress record's
 * expiry (the invocation's remaining time) or the kept result's.
 *
 * Faults a test asks for, each for the next run only: `failToStart` (the in-progress record
 * cannot be written: IdempotencyRecordError before `work` runs) and `failToSave` (the result
 * cannot be saved: IdempotencyRecordError after `work` ran, the in-progress record left holding
 * the key). `failingReleases` makes that many `release` calls throw first.
 */
export class InMemoryIdempotency implements Idempotency {
  readonly records = new Map<string, IdempotencyRecord>();
  readonly released: string[] = [];
  failToStart = false;
  failToSave = false;
  failingReleases = 0;

  static key(input: Pick<IdempotentInput, "appId" | "idempotencyKey">): string {
    return `${input.appId}#${input.idempotencyKey}`;
  }

  async run<R extends object>(
    input: IdempotentInput,
    _invocation: Invocation,
    work: () => Promise<R>,
  ): Promise<R & { replayed: boolean }> {
    const key = InMemoryIdempotency.key(input);
    const request = JSON.stringify(input.request);
    const existing = this.records.get(key);
    if (existing) {
      if (existing.request !== request) throw new IdempotencyKeyReusedError();
      if (existing.status === "in_progress") throw new IdempotencyInProgressError();
      return { ...(copy(existing.result) as R), replayed: true };
    }
    if (this.failToStart) {
      this.failToStart = false;
      throw new IdempotencyRecordError(new Error("the in-progress record could not be written"));
    }
    this.records.set(key, { request, status: "in_progress" });
    let result: R;
    try {
      result = await work();
    } catch (error) {
      this.records.delete(key);
      throw error;
    }
    if (this.failToSave) {
      this.failToSave = false;
      throw new IdempotencyRecordError(new Error("the result could not be saved"));
    }
    this.records.set(key, { request, status: "completed", result: copy(result) });
    return { ...result, replayed: false };
  }

  async release(input: IdempotentInput): Promise<void> {
    if (this.failingReleases > 0) {
      this.failingReleases -= 1;
      throw new Error("the record could not be removed");
    }
    const key = InMemoryIdempotency.key(input);
    this.records.delete(key);
    this.released.push(key);
  }
}

// ---------------------------------------------------------------------------------------------
// Sealer, sender, log, authority, reader

const SEALED = "sealed:";

/** What TaggingSealer makes of `plain`, for arranging an app whose secret it can open. */
export function tagSealed(plain: string): string {
  return `${SEALED}${Buffer.from(plain, "utf8").toString("base64")}`;
}

const contextName = (context: SealContext) =>
  context.verificationId === undefined ? context.appId : `${context.appId}/${context.verificationId}`;

/**
 * Reversible tagging: `sealed:` + base64, so the sealed form never contains the secret. Opens
 * only what has that form: anything else (sealed elsewhere, with another key) throws.
 */
export class TaggingSealer implements Sealer {
  seals = 0;
  opens = 0;
  /** The app (and verification, for an identity number) of every seal and open, in order. */
  readonly contexts: string[] = [];

  async seal(plain: string, context: SealContext): Promise<string> {
    this.seals += 1;
    this.contexts.push(contextName(context));
    return tagSealed(plain);
  }

  async open(sealed: string, context: SealContext): Promise<string> {
    this.opens += 1;
    this.contexts.push(contextName(context));
    if (!sealed.startsWith(SEALED)) throw new Error("The sealed value does not open");
    return Buffer.from(sealed.slice(SEALED.length), "base64").toString("utf8");
  }
}

/** A keyed digest as the KMS HMAC key makes one, with a fixed test key; counts its uses. */
export class KeyedDigest implements SubjectDigest {
  digests = 0;

  async digest(identityNumber: string): Promise<string> {
    this.digests += 1;
    return `hmac:${createHmac("sha256", "test subject key").update(identityNumber).digest("base64url")}`;
  }
}

/** The delivery queue in memory: what was sent, in order, and a failure to answer the next send with. */
export class RecordingDeliveryQueue implements DeliveryQueue {
  readonly messages: DeliveryMessage[] = [];
  failNext: Error | undefined;
  /** Called with each message as it is sent, before it is kept. */
  onSend: ((message: DeliveryMessage) => void) | undefined;

  async send(message: DeliveryMessage): Promise<void> {
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
    this.onSend?.(message);
    this.messages.push({ ...message });
  }
}

/** Request buckets in memory: the apps registered, and a failure to answer the next registration with. */
export class InMemoryAppLimits implements AppLimits {
  readonly apps = new Set<string>();
  /** Every registration asked for, in order, repeats included. */
  readonly registrations: string[] = [];
  failNext: Error | undefined;

  async register(appId: string): Promise<void> {
    this.registrations.push(appId);
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
    this.apps.add(appId);
  }

  async registered(): Promise<Set<string>> {
    return new Set(this.apps);
  }
}

export interface Post {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** Records every POST; answers as the test says (`respond`). */
export class RecordingWebhookSender implements WebhookSender {
  readonly posts: Post[] = [];
  respond: (url: string) => WebhookResponse = () => ({ statusCode: 200, latencyMs: 12.4 });
  /** How long each POST takes before its answer: a slow endpoint. */
  answerAfterMs = 0;
  /** The most POSTs that were waiting for their answers at once. */
  mostAtOnce = 0;
  private waiting = 0;

  async post(url: string, headers: Record<string, string>, body: string): Promise<WebhookResponse> {
    this.posts.push({ url, headers: { ...headers }, body });
    this.waiting += 1;
    this.mostAtOnce = Math.max(this.mostAtOnce, this.waiting);
    if (this.answerAfterMs > 0) await new Promise((resolve) => setTimeout(resolve, this.answerAfterMs));
    this.waiting -= 1;
    return this.respond(url);
  }
}

export interface LogLine {
  level: "error" | "warn";
  message: string;
  attributes: Record<string, unknown>;
}

export interface CountedMetric {
  metric: ServiceMetric;
  environment: Environment;
  message: string;
  attributes: Record<string, unknown>;
}

/** Keeps what was logged; a `count` is kept in `counts`, a `lookup` in `lookups` (their lines are not repeated in `lines`). */
export class RecordingLog implements Log {
  readonly lines: LogLine[] = [];
  readonly counts: CountedMetric[] = [];
  readonly lookups: { environment: Environment; outcome: LookupOutcome; verificationId: string }[] = [];

  error(message: string, attributes: Record<string, unknown>): void {
    this.lines.push({ level: "error", message, attributes });
  }

  warn(message: string, attributes: Record<string, unknown>): void {
    this.lines.push({ level: "warn", message, attributes });
  }

  count(metric: ServiceMetric, environment: Environment, message: string, attributes: Record<string, unknown>): void {
    this.counts.push({ metric, environment, message, attributes });
  }

  lookup(environment: Environment, outcome: LookupOutcome, _milliseconds: number, verificationId: string): void {
    this.lookups.push({ environment, outcome, verificationId });
  }
}

/** The issuer queue in memory: what was sent, in order, with its delay, and a failure to answer the next send with. */
export class RecordingIssuerQueue implements IssuerQueue {
  readonly messages: (IssuerMessage & { delaySeconds: number })[] = [];
  failNext: Error | undefined;
  /** Called with each message once it is kept: a test's stand-in for the queue's reader. */
  onSend: ((message: IssuerMessage) => void) | undefined;

  async send(message: IssuerMessage, delaySeconds: number): Promise<void> {
    const failure = this.failNext;
    this.failNext = undefined;
    if (failure) throw failure;
    this.messages.push({ ...message, delaySeconds });
    this.onSend?.({ ...message });
  }
}

/** Answers what the test sets in `answer`, and keeps what it was asked. */
export class ScriptedAuthority implements Authority {
  readonly asked: IssuerLookup[] = [];

  constructor(public answer: IssuerAnswer = { kind: "not_found" }) {}

  async lookup(request: IssuerLookup): Promise<IssuerAnswer> {
    this.asked.push({ ...request });
    return this.answer;
  }
}

/** A one-page document's content: `lines` as its text layer, and the QR codes' payloads. */
export function pageContent(lines: readonly string[], qrCodes: readonly string[] = []): DocumentContent {
  return { lines: [...lines], linesPerPage: lines.length > 0 ? [lines.length] : [], qrCodes: [...qrCodes] };
}

/**
 * Refuses with `refusal` when one is set, else answers what `answer` holds for the bytes asked,
 * or `content`; keeps the file types it was asked to open.
 */
export class ScriptedReader implements DocumentReader {
  readonly opened: FileType[] = [];
  content: DocumentContent = pageContent([]);
  /** Content for particular bytes (an issuer's copy that reads differently from the upload). */
  private readonly byBytes = new Map<string, DocumentContent>();

  constructor(public refusal?: UnreadableReason) {}

  answer(bytes: Uint8Array, content: DocumentContent): this {
    this.byBytes.set(Buffer.from(bytes).toString("base64"), content);
    return this;
  }

  async read(fileType: FileType, bytes: Uint8Array): Promise<ReadResult> {
    this.opened.push(fileType);
    if (this.refusal) return { readable: false, reason: this.refusal };
    const content = this.byBytes.get(Buffer.from(bytes).toString("base64")) ?? this.content;
    return { readable: true, content: structuredClone(content) };
  }
}

// ---------------------------------------------------------------------------------------------
// Builders

/** A well-formed id with a number in place of a ULID: `ver_000…0007`. */
export const verificationId = (n: number) => `ver_${String(n).padStart(26, "0")}`;
export const appId = (n: number) => `app_${String(n).padStart(26, "0")}`;

/** A verification as stored. By default awaiting the upload of a 1024-byte PDF, due a day after T0 - 1 h. */
export function aVerification(fields: Partial<VerificationItem> = {}): VerificationItem {
  const id = fields.verification_id ?? verificationId(1);
  const status = fields.status ?? "awaiting_upload";
  const uploadDeadline = fields.upload_deadline ?? "2026-11-23T11:00:00Z";
  return {
    verification_id: id,
    app_id: appId(1),
    environment: "sandbox",
    status,
    document_type: "YOK_STUDENT",
    process_type: "async",
    original_filename: "belge.pdf",
    file_size_bytes: 1024,
    media_type: "application/pdf",
    object_key: documentKey(id),
    upload_deadline: uploadDeadline,
    checks: [],
    reasons: [],
    sequence: 1,
    created_at: "2026-11-22T11:00:00Z",
    updated_at: "2026-11-22T11:00:00Z",
    ...fields,
  };
}

/** The text layer of a YÖK student certificate as the scripted reader gives it: an active student, with the barcode line. */
export const CERTIFICATE_LINES = [
  "T.C. Kimlik No : 10000000146",
  "Adı Soyadı : AYŞE DENEME",
  "Doğum Tarihi : 17.03.2004",
  "Kayıt Tarihi : 12.09.2022",
  "Öğrencilik Durumu : Aktif",
  "Sınıfı : 3",
  "Birimi : ÖRNEK ÜNİVERSİTESİ / Mühendislik Fakültesi / Bilgisayar Mühendisliği / Bilgisayar Mühendisliği",
  "Barkod No : YOK-7Q4M-2K9D",
] as const;

/** An app as stored, its signing secret sealed by TaggingSealer; no keys. */
export function anApp(fields: Partial<AppItem> = {}): AppItem {
  const id = fields.app_id ?? appId(1);
  return {
    kind: "app",
    app_id: id,
    name: "Acme Admissions",
    environment: "sandbox",
    status: "active",
    webhook_url: "https://hooks.example.com/verifications",
    webhook_secret_sealed: tagSealed(WEBHOOK_SECRET),
    key_hashes: [],
    key_version: 1,
    created_at: "2026-11-01T09:00:00Z",
    updated_at: "2026-11-01T09:00:00Z",
    ...fields,
  };
}

/** Signing secrets in the `whsec_` form (32 bytes, base64). */
export const WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;
export const PREVIOUS_WEBHOOK_SECRET = `whsec_${Buffer.alloc(32, 2).toString("base64")}`;

/** Bytes that sniff as `type` (its magic bytes, then filler), `size` long. */
export function documentBytes(type: FileType | "gif", size: number): Uint8Array {
  const magic = {
    pdf: [0x25, 0x50, 0x44, 0x46, 0x2d],
    jpeg: [0xff, 0xd8, 0xff],
    png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    gif: [0x47, 0x49, 0x46, 0x38, 0x39, 0x61],
  }[type];
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(magic.slice(0, size));
  return bytes;
}

/** `items` stored, an empty document store and a clock at T0: what reading or erasing one verification needs. */
export function verificationDeps(...items: VerificationItem[]) {
  const verifications = new InMemoryVerificationStore().put(...items);
  const documents = new InMemoryDocumentStore();
  const clock = new FixedClock(T0);
  return { verifications, documents, clock, deps: { verifications, documents, clock } };
}
