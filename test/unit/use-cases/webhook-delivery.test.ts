import { createHmac } from "node:crypto";
import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import type { AppItem } from "#shared/domain/apps";
import { isId } from "#shared/domain/ids";
import { webhookEventSchema } from "#shared/domain/responses/events";
import type { VerificationItem } from "#shared/domain/verification";
import type { EventItem } from "#shared/domain/webhook-events";
import {
  attemptDelivery,
  deliverDue,
  deliverQueued,
  eventFor,
  RETRY_CONCURRENCY,
  RETRY_DELAYS_SECONDS,
  recordEvent,
} from "#shared/use-cases/webhooks/delivery";
import {
  anApp,
  appId,
  aVerification,
  InMemoryAppStore,
  InMemoryEventStore,
  PREVIOUS_WEBHOOK_SECRET,
  RecordingLog,
  RecordingWebhookSender,
  TaggingSealer,
  tagSealed,
  verificationId,
  WEBHOOK_SECRET,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

const URL_A = "https://hooks.example.com/verifications";
const CHANGED_AT = "2026-11-22T11:59:30Z";

function processingItem(fields: Partial<VerificationItem> = {}): VerificationItem {
  return aVerification({ status: "processing", sequence: 2, updated_at: CHANGED_AT, ...fields });
}

/** A pending event for `item`, as recordEvent stores it, with `fields` on top. */
function anEvent(item: VerificationItem, fields: Partial<EventItem> = {}): EventItem {
  const draft = eventFor(item);
  if (!draft) throw new Error(`No event for a verification ${item.status}`);
  return { ...draft, status: "pending", attempts: 0, next_attempt_at: "2026-11-22T12:00:00Z", ...fields };
}

function setup(options: { apps?: AppItem[]; random?: number } = {}) {
  const apps = new InMemoryAppStore();
  for (const app of options.apps ?? [anApp()]) apps.put(app);
  const events = new InMemoryEventStore();
  const sender = new RecordingWebhookSender();
  const sealer = new TaggingSealer();
  const clock = new FixedClock(T0);
  const log = new RecordingLog();
  const random = options.random ?? 0.5;
  return {
    apps,
    events,
    sender,
    sealer,
    clock,
    log,
    deps: { apps, events, sender, sealer, clock, log, random: () => random },
  };
}

/** `v1,` + base64 HMAC-SHA256 over `id.timestamp.body`, keyed with the secret's base64 part. */
function expectedSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

describe("recordEvent", () => {
  it("records one pending event per change, owned by the recorder for 30 s", async () => {
    const { events, deps } = setup();
    const item = processingItem();

    const event = await recordEvent(deps, item);

    expect(event).toMatchObject({
      app_id: appId(1),
      environment: "sandbox",
      verification_id: verificationId(1),
      sequence: 2,
      type: "verification.processing",
      created_at: CHANGED_AT,
      status: "pending",
      attempts: 0,
      next_attempt_at: "2026-11-22T12:00:30Z",
    });
    expect([...events.events.values()]).toEqual([event]);
  });

  it("records a change seen twice only once", async () => {
    const { events, clock, deps } = setup();
    const item = processingItem();
    await recordEvent(deps, item);
    clock.advance(5);

    expect(await recordEvent(deps, item)).toBeUndefined();
    expect(events.events.size).toBe(1);
    expect([...events.events.values()][0]?.next_attempt_at).toBe("2026-11-22T12:00:30Z");
  });

  it("sends the verification as GET shows it at the change, in the public event shape", async () => {
    const { deps } = setup();

    const event = await recordEvent(deps, processingItem({ external_reference_id: "student-4711" }));

    const body = webhookEventSchema.parse(JSON.parse(event?.body ?? "null"));
    expect(body).toMatchObject({
      id: event?.event_id,
      type: "verification.processing",
      created_at: CHANGED_AT,
      environment: "sandbox",
      api_version: "v1",
      data: {
        verification: {
          verification_id: verificationId(1),
          status: "processing",
          sequence: 2,
          updated_at: CHANGED_AT,
          external_reference_id: "student-4711",
        },
      },
    });
    expect(body.data.verification).not.toHaveProperty("upload");
  });

  it.each([
    ["processing", "verification.processing"],
    ["completed", "verification.completed"],
    ["failed", "verification.failed"],
    ["expired", "verification.expired"],
  ] as const)("names a change to %s %s", async (status, type) => {
    const { deps } = setup();

    const event = await recordEvent(deps, processingItem({ status }));

    expect(event?.type).toBe(type);
    expect(JSON.parse(event?.body ?? "null").data.verification.status).toBe(status);
  });

  it("records nothing for a new verification awaiting its upload", async () => {
    const { events, deps } = setup();

    expect(await recordEvent(deps, aVerification())).toBeUndefined();
    expect(events.events.size).toBe(0);
  });
});

describe("eventFor: a deterministic event id", () => {
  it("is the same for the same change, whenever it is computed, and a ULID from the time of the change", () => {
    const item = processingItem();

    const first = eventFor(item)?.event_id ?? "";
    const again = eventFor(structuredClone(item))?.event_id;

    expect(again).toBe(first);
    expect(isId("event", first)).toBe(true);
    expect(decodeTime(first.slice("evt_".length))).toBe(Date.parse(CHANGED_AT));
  });

  it("differs for another change of the same verification, and for another verification", () => {
    const id = eventFor(processingItem())?.event_id;

    expect(eventFor(processingItem({ status: "completed", sequence: 3 }))?.event_id).not.toBe(id);
    expect(eventFor(processingItem({ verification_id: verificationId(2) }))?.event_id).not.toBe(id);
  });
});

describe("attemptDelivery", () => {
  it("marks an event whose app has no webhook destination, sending nothing", async () => {
    const { events, sender, deps } = setup({ apps: [anApp({ webhook_url: undefined })] });
    const event = anEvent(processingItem());
    events.put(event);

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.stored(event.event_id)).toMatchObject({ status: "no_destination", attempts: 0 });
    expect(events.stored(event.event_id)).not.toHaveProperty("next_attempt_at");
    expect(sender.posts).toEqual([]);
    expect(events.attempts).toEqual([]);
  });

  it("marks an event of an app that is gone the same way", async () => {
    const { events, sender, deps } = setup({ apps: [] });
    const event = anEvent(processingItem());
    events.put(event);

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.stored(event.event_id).status).toBe("no_destination");
    expect(sender.posts).toEqual([]);
  });

  it("posts the event's exact body, signed over id.timestamp.body, with the Standard Webhooks headers", async () => {
    const { events, sender, deps } = setup();
    const event = anEvent(processingItem());
    events.put(event);
    const timestamp = Date.parse(T0) / 1000;

    await attemptDelivery(deps, event, new Date(T0));

    expect(sender.posts).toEqual([
      {
        url: URL_A,
        body: event.body,
        headers: {
          "Content-Type": "application/json",
          "User-Agent": "verification-api-webhooks/1",
          "webhook-id": event.event_id,
          "webhook-timestamp": String(timestamp),
          "webhook-signature": expectedSignature(WEBHOOK_SECRET, event.event_id, timestamp, event.body),
        },
      },
    ]);
  });

  it("signs with the current and then the previous secret while the previous one is still valid", async () => {
    const app = anApp({
      previous_webhook_secret_sealed: tagSealed(PREVIOUS_WEBHOOK_SECRET),
      previous_webhook_secret_expires_at: "2026-11-22T12:00:01Z",
    });
    const { events, sender, deps } = setup({ apps: [app] });
    const event = anEvent(processingItem());
    events.put(event);
    const timestamp = Date.parse(T0) / 1000;

    await attemptDelivery(deps, event, new Date(T0));

    expect(sender.posts[0]?.headers["webhook-signature"]).toBe(
      `${expectedSignature(WEBHOOK_SECRET, event.event_id, timestamp, event.body)} ${expectedSignature(PREVIOUS_WEBHOOK_SECRET, event.event_id, timestamp, event.body)}`,
    );
  });

  it("signs with the current secret only once the previous one has expired", async () => {
    const app = anApp({
      previous_webhook_secret_sealed: tagSealed(PREVIOUS_WEBHOOK_SECRET),
      previous_webhook_secret_expires_at: T0,
    });
    const { events, sender, deps } = setup({ apps: [app] });
    const event = anEvent(processingItem());
    events.put(event);

    await attemptDelivery(deps, event, new Date(T0));

    expect(sender.posts[0]?.headers["webhook-signature"]).toBe(
      expectedSignature(WEBHOOK_SECRET, event.event_id, Date.parse(T0) / 1000, event.body),
    );
  });

  it("records a 2xx answer as delivered, and the event as done", async () => {
    const { events, sender, deps } = setup();
    const event = anEvent(processingItem());
    events.put(event);
    sender.respond = () => ({ statusCode: 204, latencyMs: 87.6 });

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.attempts).toEqual([
      expect.objectContaining({
        event_id: event.event_id,
        attempt: 1,
        attempted_at: T0,
        url: URL_A,
        outcome: "delivered",
        status_code: 204,
        latency_ms: 88,
        error: undefined,
      }),
    ]);
    expect(events.stored(event.event_id)).toMatchObject({ status: "delivered", attempts: 1 });
    expect(events.stored(event.event_id)).not.toHaveProperty("next_attempt_at");
  });

  it.each([
    [199, false],
    [200, true],
    [299, true],
    [300, false],
    [410, false],
    [500, false],
  ])("takes %i as delivered: %s", async (statusCode, delivered) => {
    const { events, sender, deps } = setup();
    const event = anEvent(processingItem());
    events.put(event);
    sender.respond = () => ({ statusCode, latencyMs: 5 });

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.stored(event.event_id).status).toBe(delivered ? "delivered" : "pending");
    expect(events.attempts[0]).toMatchObject({
      outcome: delivered ? "delivered" : "failed",
      status_code: statusCode,
      error: delivered ? undefined : `answered ${statusCode}`,
      error_code: delivered ? undefined : "http_status",
    });
  });

  it("keeps a non-2xx answer pending, due again after the schedule's first delay", async () => {
    const { events, sender, log, deps } = setup({ random: 0.5 });
    const event = anEvent(processingItem());
    events.put(event);
    sender.respond = () => ({ statusCode: 503, latencyMs: 20 });

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.stored(event.event_id)).toMatchObject({
      status: "pending",
      attempts: 1,
      next_attempt_at: "2026-11-22T12:01:00Z",
    });
    expect(log.counts).toEqual([]);
  });

  it("records a destination that did not answer with its error and no status code", async () => {
    const { events, sender, deps } = setup();
    const event = anEvent(processingItem());
    events.put(event);
    sender.respond = () => ({ error: "timed out after 10 s", errorCode: "timeout", latencyMs: 10_000.4 });

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.attempts[0]).toMatchObject({
      outcome: "failed",
      status_code: undefined,
      latency_ms: 10_000,
      error: "timed out after 10 s",
      error_code: "timeout",
    });
    expect(events.stored(event.event_id).status).toBe("pending");
  });

  it.each([
    [0, 54],
    [0.25, 57],
    [0.5, 60],
    [0.75, 63],
    [0.9999, 66],
  ])("spreads the delay by up to 10%% either way: random %f gives %i s", async (random, seconds) => {
    const { events, sender, deps } = setup({ random });
    const event = anEvent(processingItem());
    events.put(event);
    sender.respond = () => ({ statusCode: 500, latencyMs: 1 });

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.stored(event.event_id).next_attempt_at).toBe(
      new Date(Date.parse(T0) + seconds * 1000).toISOString().replace(".000Z", "Z"),
    );
  });

  it.each([
    ["sandbox", [60, 300]],
    ["production", [60, 300, 1800, 7200, 21600, 43200, 86400]],
  ] as const)("follows the %s schedule, attempt after attempt", async (environment, delays) => {
    expect(RETRY_DELAYS_SECONDS[environment]).toEqual(delays);
    const app = anApp({ environment, webhook_url: "https://203.0.113.10/hook" });
    for (const [attempts, delay] of delays.entries()) {
      const { events, sender, deps } = setup({ apps: [app] });
      const event = anEvent(processingItem({ environment }), { attempts });
      events.put(event);
      sender.respond = () => ({ statusCode: 500, latencyMs: 1 });

      await attemptDelivery(deps, event, new Date(T0));

      expect(events.stored(event.event_id)).toMatchObject({
        status: "pending",
        attempts: attempts + 1,
        next_attempt_at: new Date(Date.parse(T0) + delay * 1000).toISOString().replace(".000Z", "Z"),
      });
      expect(events.attempts[0]?.attempt).toBe(attempts + 1);
    }
  });

  it.each([
    ["sandbox", 2],
    ["production", 7],
  ] as const)("parks a %s event after its last attempt (%i before it) and counts it", async (environment, attempts) => {
    const app = anApp({ environment });
    const { events, sender, log, deps } = setup({ apps: [app] });
    const event = anEvent(processingItem({ environment }), { attempts });
    events.put(event);
    sender.respond = () => ({ statusCode: 500, latencyMs: 1 });

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.stored(event.event_id)).toMatchObject({ status: "parked", attempts: attempts + 1 });
    expect(events.stored(event.event_id)).not.toHaveProperty("next_attempt_at");
    expect(log.counts).toEqual([
      {
        metric: "ParkedEvents",
        environment,
        message: "webhook event parked",
        attributes: { event_id: event.event_id, app_id: appId(1) },
      },
    ]);
  });

  it("does not park or count a last attempt that is delivered", async () => {
    const { events, log, deps } = setup();
    const event = anEvent(processingItem(), { attempts: 2 });
    events.put(event);

    await attemptDelivery(deps, event, new Date(T0));

    expect(events.stored(event.event_id).status).toBe("delivered");
    expect(log.counts).toEqual([]);
  });

  it("records the sender's refusal of an inward address as a failed attempt, retried on schedule", async () => {
    const app = anApp({ environment: "production", webhook_url: "https://hooks.internal.example/v" });
    const { events, sender, deps } = setup({ apps: [app] });
    const event = anEvent(processingItem({ environment: "production" }));
    events.put(event);
    sender.respond = () => ({
      error: "The destination is not a public address",
      errorCode: "destination_refused",
      latencyMs: 0,
    });

    await attemptDelivery(deps, event, new Date(T0));

    expect(sender.posts.map((post) => post.url)).toEqual(["https://hooks.internal.example/v"]);
    expect(events.attempts[0]).toMatchObject({
      outcome: "failed",
      latency_ms: 0,
      status_code: undefined,
      error: "The destination is not a public address",
      error_code: "destination_refused",
    });
    expect(events.stored(event.event_id)).toMatchObject({ status: "pending", next_attempt_at: "2026-11-22T12:01:00Z" });
  });
});

describe("deliverDue", () => {
  function twoApps(first: Partial<AppItem> = {}) {
    return [anApp(first), anApp({ app_id: appId(2), webhook_url: "https://b.example.com/hook" })];
  }

  it("attempts every due event once, leaving those not yet due", async () => {
    const { events, sender, deps } = setup({ apps: twoApps() });
    const a = anEvent(processingItem(), { next_attempt_at: "2026-11-22T11:58:00Z" });
    const b = anEvent(processingItem({ verification_id: verificationId(2), app_id: appId(2) }), {
      next_attempt_at: T0,
    });
    const later = anEvent(processingItem({ verification_id: verificationId(3) }), {
      next_attempt_at: "2026-11-22T12:00:01Z",
    });
    events.put(a, b, later);

    const attempted = await deliverDue(deps);

    expect(attempted).toBe(2);
    expect(sender.posts.map((post) => post.headers["webhook-id"])).toEqual([a.event_id, b.event_id]);
    expect(events.stored(later.event_id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(events.dueLimits).toEqual([100]);
  });

  it("asks for at most `limit` due events", async () => {
    const { events, deps } = setup();
    events.put(anEvent(processingItem()));

    await deliverDue(deps, 7);

    expect(events.dueLimits).toEqual([7]);
  });

  it("holds each event under a lease of the delivery timeout plus 20 s while it attempts it", async () => {
    const { events, sender, deps } = setup();
    const event = anEvent(processingItem(), { next_attempt_at: "2026-11-22T11:59:00Z" });
    events.put(event);
    let storedDuringPost: string | undefined;
    sender.respond = () => {
      storedDuringPost = events.stored(event.event_id).next_attempt_at;
      return { statusCode: 200, latencyMs: 1 };
    };

    await deliverDue(deps);

    expect(storedDuringPost).toBe("2026-11-22T12:00:30Z");
    expect(events.stored(event.event_id).status).toBe("delivered");
  });

  it("makes its attempts side by side, at most RETRY_CONCURRENCY at once, so slow endpoints share the wait", async () => {
    const { events, sender, deps } = setup();
    const due = Array.from({ length: 25 }, (_, i) =>
      anEvent(processingItem({ verification_id: verificationId(i + 1) }), { next_attempt_at: "2026-11-22T11:59:00Z" }),
    );
    events.put(...due);
    sender.answerAfterMs = 5;

    expect(await deliverDue(deps)).toBe(25);
    expect(sender.mostAtOnce).toBe(RETRY_CONCURRENCY);
  });

  it("skips an event another caller claimed first", async () => {
    const { events, sender, deps } = setup({ apps: twoApps() });
    const mine = anEvent(processingItem());
    const theirs = anEvent(processingItem({ verification_id: verificationId(2), app_id: appId(2) }));
    events.put(mine, theirs);
    const racing = {
      ...deps,
      events: {
        get: events.get.bind(events),
        claim: events.claim.bind(events),
        recordAttempt: events.recordAttempt.bind(events),
        markNoDestination: events.markNoDestination.bind(events),
        // Between this caller's read and its claim, another caller claims `theirs`.
        async due(now: string, limit: number) {
          const due = await events.due(now, limit);
          const seen = due.find((event) => event.event_id === theirs.event_id);
          if (seen) await events.claim(seen, "2026-11-22T12:00:29Z");
          return due;
        },
      },
    };

    const attempted = await deliverDue(racing);

    expect(attempted).toBe(1);
    expect(sender.posts.map((post) => post.headers["webhook-id"])).toEqual([mine.event_id]);
    expect(events.stored(theirs.event_id)).toMatchObject({
      status: "pending",
      attempts: 0,
      next_attempt_at: "2026-11-22T12:00:29Z",
    });
  });

  it("goes on to the other events when one fails, and logs it; the failed one is due again after its lease", async () => {
    // App 1's signing secret was not sealed by this sealer: it will not open.
    const { events, sender, log, deps } = setup({
      apps: twoApps({ webhook_secret_sealed: "sealed-with-another-key" }),
    });
    const broken = anEvent(processingItem(), { next_attempt_at: "2026-11-22T11:58:00Z" });
    const fine = anEvent(processingItem({ verification_id: verificationId(2), app_id: appId(2) }), {
      next_attempt_at: "2026-11-22T11:59:00Z",
    });
    events.put(broken, fine);

    const attempted = await deliverDue(deps);

    expect(attempted).toBe(1);
    expect(sender.posts.map((post) => post.headers["webhook-id"])).toEqual([fine.event_id]);
    expect(events.stored(fine.event_id).status).toBe("delivered");
    expect(events.stored(broken.event_id)).toMatchObject({
      status: "pending",
      attempts: 0,
      next_attempt_at: "2026-11-22T12:00:30Z",
    });
    expect(log.lines).toEqual([
      {
        level: "error",
        message: "webhook attempt failed",
        attributes: { error: expect.any(Error), event_id: broken.event_id },
      },
    ]);
  });
});

describe("deliverQueued", () => {
  /** A freshly recorded event, as the queue's message finds it: no attempt yet, the first one the queue's. */
  const recorded = (item = processingItem()) => anEvent(item, { next_attempt_at: "2026-11-22T12:00:25Z" });

  it("makes the first attempt of a recorded event, under a lease of the delivery timeout plus 20 s", async () => {
    const { events, sender, deps } = setup();
    const event = recorded();
    events.put(event);
    let storedDuringPost: string | undefined;
    sender.respond = () => {
      storedDuringPost = events.stored(event.event_id).next_attempt_at;
      return { statusCode: 200, latencyMs: 1 };
    };

    expect(await deliverQueued(deps, { event_id: event.event_id, app_id: event.app_id })).toBe(true);

    expect(sender.posts.map((post) => post.headers["webhook-id"])).toEqual([event.event_id]);
    expect(storedDuringPost).toBe("2026-11-22T12:00:30Z");
    expect(events.stored(event.event_id)).toMatchObject({ status: "delivered", attempts: 1 });
  });

  it("does nothing for a message seen twice, nor for an event the tick attempted first", async () => {
    const { events, sender, deps } = setup();
    const event = recorded();
    const retried = { ...recorded(processingItem({ verification_id: verificationId(2) })), attempts: 1 };
    events.put(event, retried);
    await deliverQueued(deps, { event_id: event.event_id, app_id: event.app_id });

    expect(await deliverQueued(deps, { event_id: event.event_id, app_id: event.app_id })).toBe(false);
    expect(await deliverQueued(deps, { event_id: retried.event_id, app_id: retried.app_id })).toBe(false);
    expect(sender.posts).toHaveLength(1);
  });

  it("does nothing for an unknown event, or one of another app than the message says", async () => {
    const { events, sender, deps } = setup();
    const event = recorded();
    events.put(event);

    expect(await deliverQueued(deps, { event_id: "evt_01JD0000000000000000000000", app_id: event.app_id })).toBe(false);
    expect(await deliverQueued(deps, { event_id: event.event_id, app_id: appId(9) })).toBe(false);
    expect(sender.posts).toEqual([]);
  });

  it("marks the event when the app has no webhook destination", async () => {
    const { events, sender, deps } = setup({ apps: [anApp({ webhook_url: undefined })] });
    const event = recorded();
    events.put(event);

    await deliverQueued(deps, { event_id: event.event_id, app_id: event.app_id });

    expect(events.stored(event.event_id).status).toBe("no_destination");
    expect(sender.posts).toEqual([]);
  });
});
