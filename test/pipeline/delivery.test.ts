/**
 * Webhook delivery under a controlled clock: the retry schedule, parking, replay, the
 * expiry tick, and both signatures during a secret rotation.
 */
import { rmSync } from "node:fs";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { Webhook } from "standardwebhooks";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import type { AttemptItem, EventItem } from "#shared/domain/webhook-events";
import type { NewApp } from "#shared/use-cases/accounts/apps";
import { RETRY_DELAYS_SECONDS } from "#shared/use-cases/webhooks/delivery";
import { rotateWebhookSecret } from "#shared/use-cases/webhooks/destination";
import { opsInProcess, runtimeFileFor } from "../ops/support.ts";
import { startApi, type TestApi } from "../support/api.ts";
import { Customer, expectVerification, upload } from "../support/client.ts";
import { pdfDocument } from "../support/documents.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { until } from "../support/until.ts";

let api: TestApi;
let receiver: Receiver;
let dataDir: string;

beforeAll(async () => {
  receiver = await startReceiver();
  api = await startApi({ pipeline: true });
  dataDir = runtimeFileFor(api, inject("engines").dynamoEndpoint);
});
afterAll(async () => {
  await api.stop();
  await receiver.stop();
  rmSync(dataDir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
  receiver.answer = 200;
});

const ops = (args: string[]) => opsInProcess(args, dataDir);

async function appWithCustomer(): Promise<{ app: NewApp; customer: Customer }> {
  const app = await api.newApp("sandbox", receiver.url);
  return { app, customer: new Customer(api.baseUrl, app.api_key) };
}

async function eventsOf(verificationId: string): Promise<EventItem[]> {
  const items = await api.scan(api.tables.events);
  return (items.filter((i) => i.sk === "EVENT" && i.verification_id === verificationId) as unknown as EventItem[]).sort(
    (a, b) => (a.sequence ?? 0) - (b.sequence ?? 0),
  );
}

async function attemptsOf(eventId: string): Promise<AttemptItem[]> {
  const items = await api.scan(api.tables.events);
  return (items.filter((i) => i.sk !== "EVENT" && i.event_id === eventId) as unknown as AttemptItem[]).sort(
    (a, b) => a.attempt - b.attempt,
  );
}

const seconds = (iso: string | undefined) => Date.parse(iso ?? "") / 1000;

describe("retries", () => {
  it("retries a failing destination on the sandbox schedule, parks the event, and a replay delivers it", async () => {
    const { customer } = await appWithCustomer();
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"], now: start });
    receiver.answer = 500;
    const document = await pdfDocument();
    const verification = await customer.created({ file_size_bytes: document.length, process_type: "sync" });
    expect((await upload(verification, document)).status).toBe(200);
    expect(expectVerification(await customer.confirm(verification.verification_id)).status).toBe("completed");

    // Attempt 1 happens as soon as the change is read from the stream.
    let events = await until(
      () => eventsOf(verification.verification_id),
      (found) => found.length === 2 && found.every((e) => e.attempts === 1),
    );
    const [delayOne, delayTwo] = RETRY_DELAYS_SECONDS.sandbox as [number, number];
    let clock = start / 1000;
    for (const event of events) {
      expect(event.status).toBe("pending");
      expect(seconds(event.next_attempt_at) - clock).toBeGreaterThanOrEqual(delayOne * 0.9 - 1);
      expect(seconds(event.next_attempt_at) - clock).toBeLessThanOrEqual(delayOne * 1.1 + 1);
    }

    // Nothing is due before the first delay has passed.
    vi.setSystemTime((clock + delayOne * 0.9 - 2) * 1000);
    expect(await api.handlers.tick()).toMatchObject({ attempted: 0 });

    clock += delayOne * 1.1 + 1;
    vi.setSystemTime(clock * 1000);
    expect(await api.handlers.tick()).toMatchObject({ attempted: 2 });
    events = await eventsOf(verification.verification_id);
    for (const event of events) {
      expect(event.attempts).toBe(2);
      expect(seconds(event.next_attempt_at) - clock).toBeGreaterThanOrEqual(delayTwo * 0.9 - 1);
      expect(seconds(event.next_attempt_at) - clock).toBeLessThanOrEqual(delayTwo * 1.1 + 1);
    }

    clock += delayTwo * 1.1 + 1;
    vi.setSystemTime(clock * 1000);
    expect(await api.handlers.tick()).toMatchObject({ attempted: 2 });
    events = await eventsOf(verification.verification_id);
    expect(events.map((e) => [e.status, e.attempts, e.next_attempt_at])).toEqual([
      ["parked", 3, undefined],
      ["parked", 3, undefined],
    ]);
    const completed = events[1] as EventItem;
    const attempts = await attemptsOf(completed.event_id);
    expect(attempts.map((a) => [a.attempt, a.outcome, a.status_code, a.error, a.error_code])).toEqual([
      [1, "failed", 500, "answered 500", "http_status"],
      [2, "failed", 500, "answered 500", "http_status"],
      [3, "failed", 500, "answered 500", "http_status"],
    ]);
    expect(attempts.every((a) => a.url === receiver.url && a.latency_ms >= 0)).toBe(true);

    clock += 86_400;
    vi.setSystemTime(clock * 1000);
    expect(await api.handlers.tick()).toMatchObject({ attempted: 0 });

    // An operator reads the attempts and replays the parked event with the ops command.
    const history = await ops(["webhooks", "deliveries", completed.app_id, "--json", "--limit", "50"]);
    const listed = (
      JSON.parse(history.stdout) as { attempts: { event_id: string; outcome: string; response_status: number }[] }
    ).attempts;
    expect(history.exit).toBe(0);
    expect(listed.filter((a) => a.event_id === completed.event_id)).toHaveLength(3);
    expect(listed.every((a) => a.outcome === "failed" && a.response_status === 500)).toBe(true);

    receiver.answer = 200;
    const before = receiver.deliveries.length;
    const replay = await ops(["webhooks", "replay", completed.event_id, "--json"]);
    expect(replay.exit).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ event_id: completed.event_id, status: "pending" });
    expect(await api.handlers.tick()).toMatchObject({ attempted: 1 });
    expect(receiver.deliveries.length).toBe(before + 1);
    expect(JSON.parse(receiver.deliveries.at(-1)?.body ?? "{}")).toMatchObject({
      id: completed.event_id,
      type: "verification.completed",
    });
    expect((await eventsOf(verification.verification_id))[1]).toMatchObject({ status: "delivered", attempts: 1 });
    expect((await ops(["webhooks", "replay", "evt_01KAJ8Z1C0QX5M3V7N9R2T4W6Y"])).exit).toBe(3);
  });

  it("records a refused connection as a failed attempt with its error", async () => {
    const dead = await startReceiver();
    await dead.stop();
    const app = await api.newApp("sandbox", dead.url);
    const customer = new Customer(api.baseUrl, app.api_key);
    const document = await pdfDocument();
    const verification = await customer.created({ file_size_bytes: document.length, process_type: "sync" });
    await upload(verification, document);
    await customer.confirm(verification.verification_id);
    const [first] = await until(
      () => eventsOf(verification.verification_id),
      (found) => found.length === 2 && found.every((e) => e.attempts === 1),
    );
    const [attempt] = await attemptsOf((first as EventItem).event_id);
    expect(attempt).toMatchObject({ outcome: "failed", error: "connection failed", error_code: "connection_failed" });
    expect(attempt?.status_code).toBeUndefined();
  });
});

describe("the tick", () => {
  it("expires an upload awaited past its deadline, as of the deadline, and sends verification.expired", async () => {
    const { app, customer } = await appWithCustomer();
    const verification = await customer.created();
    vi.useFakeTimers({ toFake: ["Date"], now: Date.parse(verification.upload_deadline) + 61_000 });
    const { expired } = (await api.handlers.tick()) as { expired: number };
    expect(expired).toBeGreaterThanOrEqual(1);
    expect(expectVerification(await customer.get(verification.verification_id))).toMatchObject({
      status: "expired",
      sequence: 2,
      updated_at: verification.upload_deadline,
      completed_at: verification.upload_deadline,
    });
    const delivery = await until(
      async () => receiver.deliveries.find((d) => d.body.includes(verification.verification_id)),
      (found) => found !== undefined,
    );
    const event = new Webhook(app.webhook_secret).verify(delivery?.body ?? "", delivery?.headers ?? {}) as {
      type: string;
      data: { verification: { status: string; sequence: number; completed_at: string | null } };
    };
    expect(event).toMatchObject({
      type: "verification.expired",
      data: { verification: { status: "expired", sequence: 2, completed_at: verification.upload_deadline } },
    });
    // A second tick finds nothing more to do.
    expect(await api.handlers.tick()).toMatchObject({ expired: 0 });
  });
});

describe("a webhook secret rotation", () => {
  it("sends both signatures for 24 h, each verifying with its own secret", async () => {
    const { app, customer } = await appWithCustomer();
    const rotated = await rotateWebhookSecret(
      { apps: api.apps, sealer: api.sealer, clock: api.clock },
      { appId: app.app_id },
    );
    const document = await pdfDocument();
    const verification = await customer.created({ file_size_bytes: document.length, process_type: "sync" });
    await upload(verification, document);
    await customer.confirm(verification.verification_id);
    const delivery = await until(
      async () => receiver.deliveries.find((d) => d.body.includes(verification.verification_id)),
      (found) => found !== undefined,
    );
    const headers = delivery?.headers ?? {};
    expect(headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    for (const secret of [rotated.webhook_secret, app.webhook_secret]) {
      expect(() => new Webhook(secret).verify(delivery?.body ?? "", headers)).not.toThrow();
    }
  });
});

describe("a delivery that cannot even be attempted", () => {
  it("leaves the event pending for the tick and does not hold up the stream", async () => {
    const { app, customer } = await appWithCustomer();
    // A sealed secret that no longer opens (say, after the sealing key was replaced by mistake).
    await api.db.send(
      new UpdateCommand({
        TableName: api.tables.apps,
        Key: { pk: `APP#${app.app_id}` },
        UpdateExpression: "SET webhook_secret_sealed = :broken",
        ExpressionAttributeValues: { ":broken": "v1.AAAA.AAAA.AAAA" },
      }),
    );
    const document = await pdfDocument();
    const verification = await customer.created({ file_size_bytes: document.length });
    await upload(verification, document);
    await customer.confirm(verification.verification_id);
    const events = await until(
      () => eventsOf(verification.verification_id),
      (found) => found.length === 2,
    );
    expect(events.map((e) => [e.type, e.status, e.attempts])).toEqual([
      ["verification.processing", "pending", 0],
      ["verification.completed", "pending", 0],
    ]);
    expect(expectVerification(await customer.get(verification.verification_id))).toMatchObject({
      status: "completed",
      result: "rejected",
      reason_code: "barcode_missing",
    });
  });
});

describe("a slow endpoint", () => {
  it("holds up only its own app's deliveries: another app's webhooks arrive at once", async () => {
    const slow = await startReceiver();
    slow.answerAfterMs = 6_000;
    try {
      const slowApp = await api.newApp("sandbox", slow.url);
      const slowCustomer = new Customer(api.baseUrl, slowApp.api_key);
      const { customer } = await appWithCustomer();
      const document = await pdfDocument();
      const confirmOne = async (who: Customer) => {
        const verification = await who.created({ file_size_bytes: document.length, process_type: "sync" });
        expect((await upload(verification, document)).status).toBe(200);
        expect(expectVerification(await who.confirm(verification.verification_id)).status).toBe("completed");
        return verification.verification_id;
      };
      // Three verifications of the slow app: six events, each answered after 6 s.
      const slowIds = await Promise.all([1, 2, 3].map(() => confirmOne(slowCustomer)));
      await slow.waitFor(1);
      const confirmed = Date.now();
      const id = await confirmOne(customer);

      const arrived = await until(
        async () => receiver.deliveries.filter((delivery) => delivery.body.includes(id)),
        (found) => found.length === 2,
      );
      const latencyMs = Math.max(...arrived.map((delivery) => delivery.receivedAt)) - confirmed;
      console.log(`slow endpoint: the other app's two webhooks arrived ${latencyMs} ms after its confirm`);
      expect(latencyMs).toBeLessThan(3_000);
      // Meanwhile the slow endpoint has answered none of its app's attempts.
      const slowEvents = (await Promise.all(slowIds.map(eventsOf))).flat();
      expect(slowEvents.every((event) => event.attempts === 0)).toBe(true);
    } finally {
      await slow.stop();
    }
  });
});
