import { describe, expect, it } from "vitest";
import { NotFoundError } from "#shared/domain/errors";
import type { EventItem } from "#shared/domain/webhook-events";
import { deliverDue, eventFor } from "#shared/use-cases/webhooks/delivery";
import { deliveryHistory, replayEvent } from "#shared/use-cases/webhooks/replay";
import {
  anApp,
  appId,
  aVerification,
  InMemoryAppStore,
  InMemoryEventStore,
  RecordingLog,
  RecordingWebhookSender,
  TaggingSealer,
} from "../../support/fakes.ts";
import { FixedClock, T0 } from "../../support/fixed-clock.ts";

function anEvent(status: EventItem["status"], attempts: number): EventItem {
  const draft = eventFor(aVerification({ status: "processing", sequence: 2, updated_at: "2026-11-20T10:00:00Z" }));
  if (!draft) throw new Error("no event");
  return { ...draft, status, attempts };
}

function setup() {
  const events = new InMemoryEventStore();
  const clock = new FixedClock(T0);
  return { events, clock, deps: { events, clock } };
}

describe("replayEvent", () => {
  it.each(["parked", "delivered"] as const)(
    "starts a new round for a %s event, due now, its attempts counted before it",
    async (status) => {
      const { events, deps } = setup();
      const event = anEvent(status, 3);
      events.put(event);

      const replayed = await replayEvent(deps, event.event_id);

      expect(replayed).toEqual({ ...event, status: "pending", attempts: 0, attempts_before: 3, next_attempt_at: T0 });
      expect(events.stored(event.event_id)).toEqual(replayed);
    },
  );

  it("is then sent by the next tick, as the attempt after the ones made before", async () => {
    const { events, clock, deps } = setup();
    const event = anEvent("parked", 2);
    events.put(event);
    const sender = new RecordingWebhookSender();
    await replayEvent(deps, event.event_id);

    const attempted = await deliverDue({
      events,
      apps: new InMemoryAppStore().put(anApp()),
      sealer: new TaggingSealer(),
      sender,
      clock,
      log: new RecordingLog(),
      random: () => 0.5,
    });

    expect(attempted).toBe(1);
    expect(sender.posts.map((post) => post.body)).toEqual([event.body]);
    expect(events.attempts.map((attempt) => attempt.attempt)).toEqual([3]);
  });

  it("refuses an unknown event with event_not_found", async () => {
    const { deps } = setup();

    const error = await replayEvent(deps, "evt_01KAAAAAAAAAAAAAAAAAAAAAAA").catch((e: unknown) => e);

    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ code: "event_not_found", message: "No event evt_01KAAAAAAAAAAAAAAAAAAAAAAA" });
  });
});

describe("deliveryHistory", () => {
  it("shows the app's attempts newest first, up to the limit, with null for what an attempt lacks", async () => {
    const { events } = setup();
    const event = { ...anEvent("pending", 0), next_attempt_at: T0 };
    events.put(event);
    await events.recordAttempt(
      event,
      {
        attempted_at: "2026-11-22T10:00:00Z",
        url: "https://a.example/h",
        outcome: "failed",
        error: "connection failed",
        latency_ms: 30,
      },
      { status: "pending", nextAttemptAt: "2026-11-22T10:01:00Z" },
    );
    await events.recordAttempt(
      { ...event, attempts: 1 },
      {
        attempted_at: "2026-11-22T10:01:00Z",
        url: "https://a.example/h",
        outcome: "failed",
        status_code: 500,
        error: "answered 500",
        latency_ms: 40,
      },
      { status: "pending", nextAttemptAt: "2026-11-22T10:06:00Z" },
    );
    await events.recordAttempt(
      { ...event, attempts: 2 },
      {
        attempted_at: "2026-11-22T10:06:00Z",
        url: "https://a.example/h",
        outcome: "delivered",
        status_code: 200,
        latency_ms: 50,
        event_type: "verification.completed",
        response_body: "ok",
      },
      { status: "delivered" },
    );

    const history = await deliveryHistory({ events }, appId(1), 2);

    expect(history).toEqual([
      {
        attempted_at: "2026-11-22T10:06:00Z",
        event_id: event.event_id,
        event_type: "verification.completed",
        attempt: 3,
        url: "https://a.example/h",
        outcome: "delivered",
        response_status: 200,
        latency_ms: 50,
        response_body: "ok",
        error: null,
        error_code: null,
      },
      {
        attempted_at: "2026-11-22T10:01:00Z",
        event_id: event.event_id,
        event_type: null,
        attempt: 2,
        url: "https://a.example/h",
        outcome: "failed",
        response_status: 500,
        latency_ms: 40,
        response_body: null,
        error: "answered 500",
        // Recorded before the code was kept: an answer that failed reads as its status.
        error_code: "http_status",
      },
    ]);
    const all = await deliveryHistory({ events }, appId(1), 10);
    expect(all.at(-1)).toMatchObject({
      attempt: 1,
      response_status: null,
      error: "connection failed",
      error_code: null,
    });
  });

  it("shows nothing of another app's attempts", async () => {
    const { events } = setup();
    const event = { ...anEvent("pending", 0), next_attempt_at: T0 };
    events.put(event);
    await events.recordAttempt(
      event,
      { attempted_at: T0, url: "https://a.example/h", outcome: "delivered", status_code: 200, latency_ms: 5 },
      { status: "delivered" },
    );

    expect(await deliveryHistory({ events }, appId(2), 10)).toEqual([]);
  });
});
