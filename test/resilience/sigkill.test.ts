/**
 * The local runtime killed outright (SIGKILL) in the middle of a burst of creates, uploads
 * and confirms, then started again on the same data: every verification the API accepted
 * is still there, and every confirmed one reaches its terminal state with its event, since
 * the pipeline resumes from its stream checkpoint.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { afterAll, describe, expect, it } from "vitest";
import { isTerminal } from "#shared/domain/state";
import type { EventItem } from "#shared/domain/webhook-events";
import { isAlive, LOCAL_REGION } from "../../local/engines.ts";
import { Customer, expectVerification, upload } from "../support/client.ts";
import { pdfDocument } from "../support/documents.ts";
import { exitOf, type RunningRuntime, startRuntime, stopRuntime } from "../support/runtime.ts";

const WORKERS = 6;
/** Confirmed uploads before the kill: the burst is still going when it lands. */
const KILL_AFTER_CONFIRMS = 15;
const MAX_ROUNDS_PER_WORKER = 100;

const dataDir = mkdtempSync(path.join(os.tmpdir(), "verification-api-sigkill-"));
const started: RunningRuntime[] = [];
const jvms: number[] = [];

const jvmPid = () => Number(readFileSync(path.join(dataDir, "dynamodb.pid"), "utf8"));

afterAll(async () => {
  // Whatever happened above, nothing this file started may outlive it.
  for (const running of started) await stopRuntime(running, "SIGKILL");
  for (const pid of jvms) {
    if (isAlive(pid)) process.kill(-pid, "SIGKILL");
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** The runtime on this file's data; a start that hangs fails the test instead of its timeout. */
async function start(): Promise<RunningRuntime> {
  let timer: NodeJS.Timeout | undefined;
  const running = await Promise.race([
    startRuntime({ LOCAL_DATA_DIR: dataDir }),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error("the runtime did not start within 40 s")), 40_000);
    }),
  ]).finally(() => clearTimeout(timer));
  started.push(running);
  jvms.push(jvmPid());
  return running;
}

/** Where the burst got to: what was created and confirmed, and where each worker is. */
interface Burst {
  created: string[];
  confirmed: string[];
  inflight: Map<number, string>;
}

/**
 * `WORKERS` customers create, upload and confirm against `first` until `KILL_AFTER_CONFIRMS` are
 * confirmed, when the runtime is killed with SIGKILL; answers when it was killed (0 if never).
 */
async function burstUntilKilled(first: RunningRuntime, apiKey: string, burst: Burst): Promise<number> {
  const { created, confirmed, inflight } = burst;
  const document = await pdfDocument();
  let killedAt = 0;

  const kill = () => {
    if (killedAt === 0) {
      killedAt = Date.now();
      first.process.kill("SIGKILL");
    }
  };
  const before = new Customer(first.baseUrl, apiKey);
  const worker = async (w: number) => {
    for (let round = 0; round < MAX_ROUNDS_PER_WORKER && killedAt === 0; round += 1) {
      try {
        inflight.set(w, `create ${round}`);
        const reply = await before.create({
          document_type: "YOK_STUDENT",
          original_filename: "belge.pdf",
          file_size_bytes: document.length,
          external_reference_id: `burst-${w}-${round}`,
        });
        expect(reply.status, reply.text).toBe(201);
        const verification = expectVerification(reply);
        created.push(verification.verification_id);
        inflight.set(w, `upload ${round}`);
        expect((await upload(verification, document)).status).toBe(200);
        inflight.set(w, `confirm ${round}`);
        const confirm = await before.confirm(verification.verification_id);
        expect(confirm.status, confirm.text).toBe(200);
        confirmed.push(verification.verification_id);
        inflight.set(w, `done ${round}`);
        if (confirmed.length >= KILL_AFTER_CONFIRMS) kill();
      } catch (error) {
        // After the kill, a request in flight dies with the connection; before it, nothing may fail.
        if (killedAt > 0 && error instanceof TypeError) {
          inflight.set(w, "gone");
          return;
        }
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  return killedAt;
}

/** Polls each of `confirmed` until it is terminal or `deadline` passes; what became terminal, what did not, and how many were still processing at the first look. */
async function terminalBy(after: Customer, confirmed: string[], deadline: number) {
  const pending = new Set(confirmed);
  const finals = new Map<string, { status: string; sequence: number }>();
  let stillProcessing: number | undefined;
  while (pending.size > 0 && Date.now() < deadline) {
    for (const id of [...pending]) {
      const verification = expectVerification(await after.get(id));
      if (isTerminal(verification.status)) {
        finals.set(id, verification);
        pending.delete(id);
      }
    }
    stillProcessing ??= pending.size;
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { pending, finals, stillProcessing };
}

/** Each terminal state has its event in the runtime's own events table (waited for until `deadline`). */
async function expectTerminalEvents(
  finals: Map<string, { status: string; sequence: number }>,
  deadline: number,
): Promise<void> {
  const runtime = JSON.parse(readFileSync(path.join(dataDir, "runtime.json"), "utf8"));
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: runtime.dynamodb_endpoint,
      region: LOCAL_REGION,
      credentials: runtime.credentials,
    }),
  );
  const scanEvents = async () => {
    // Records as the table holds them: events (sk EVENT) beside their attempts.
    const events: (EventItem & { sk: string })[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new ScanCommand({ TableName: runtime.tables.EVENTS_TABLE, ExclusiveStartKey: startKey }),
      );
      events.push(...((page.Items ?? []) as (EventItem & { sk: string })[]));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return events;
  };
  const terminalEvents = (events: (EventItem & { sk: string })[], id: string, sequence: number) =>
    events.filter((e) => e.sk === "EVENT" && e.verification_id === id && e.sequence === sequence).map((e) => e.type);
  // The event follows the terminal state by one more pass over the change stream.
  let events = await scanEvents();
  while (
    Date.now() < deadline &&
    [...finals].some(([id, final]) => terminalEvents(events, id, final.sequence).length === 0)
  ) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    events = await scanEvents();
  }
  db.destroy();
  for (const [id, final] of finals) {
    expect(terminalEvents(events, id, final.sequence), id).toEqual([`verification.${final.status}`]);
  }
}

describe("the runtime killed with SIGKILL mid-burst and started again", () => {
  it("loses no accepted verification, and the pipeline finishes what was in flight", async () => {
    const created: string[] = [];
    const confirmed: string[] = [];
    // Where each worker is, so that a stall names its step rather than only the test's timeout.
    let phase = "start";
    const inflight = new Map<number, string>();
    const watchdog = setTimeout(
      () =>
        console.error(
          `resilience/sigkill stalled in ${phase}: workers ${JSON.stringify([...inflight])}, ${created.length} created, ${confirmed.length} confirmed`,
        ),
      80_000,
    );
    const first = await start();
    phase = "burst";
    const devApp = JSON.parse(readFileSync(path.join(dataDir, "dev-app.json"), "utf8"));
    const killedAt = await burstUntilKilled(first, devApp.api_key, { created, confirmed, inflight });
    expect(killedAt).toBeGreaterThan(0);
    await exitOf(first);
    expect(first.process.signalCode).toBe("SIGKILL");
    // SIGKILL gives the runtime no chance to stop its JVM: it is still running, and the restart must stop it.
    const orphanedJvm = jvms[0] as number;
    const jvmSurvived = isAlive(orphanedJvm);

    phase = "restart";
    const second = await start();
    phase = "after";
    expect(isAlive(orphanedJvm)).toBe(false);
    const after = new Customer(second.baseUrl, devApp.api_key);

    for (const id of created) {
      const reply = await after.get(id);
      expect(reply.status, `${id} was accepted before the kill`).toBe(200);
    }
    const deadline = Date.now() + 25_000;
    const { pending, finals, stillProcessing } = await terminalBy(after, confirmed, deadline);
    expect([...pending], "confirmed before the kill, still not terminal").toEqual([]);

    // Each terminal state has its event in the runtime's own events table.
    await expectTerminalEvents(finals, deadline);

    phase = "stop";
    clearTimeout(watchdog);
    expect(await stopRuntime(second, "SIGTERM")).toBe(0);
    expect(isAlive(jvms[1] as number)).toBe(false);
    console.log(
      [
        `resilience/sigkill: ${WORKERS} workers, SIGKILL after ${KILL_AFTER_CONFIRMS} confirms`,
        `  before the kill: ${created.length} created (201), ${confirmed.length} confirmed (200)`,
        `  the killed runtime's JVM ${jvmSurvived ? "survived the kill and was stopped by the restart" : "died with it"}`,
        `  after the restart: ${stillProcessing} confirmed still processing at the first look; ${created.length} of ${created.length} found, ${finals.size} of ${confirmed.length} confirmed reached a terminal state with its event`,
      ].join("\n"),
    );
  }, 90_000);
});
