/**
 * An organisation's audited lookups from a process of their own: a portal gateway over the
 * functions' handlers (the bench's settings come through the environment, so the same engines,
 * pools and tables) and the owner's loops of lookups on it. In Lambda each invocation has a CPU
 * of its own and only the storage is shared; this process, run at a CPU priority the bench
 * chooses, is as near to that as one machine gets. Spoken to over the IPC channel
 * (`bench/audited-load.ts`): it says `ready`, reads from `go` until `stop` (and at least
 * `minLoadMs`), then answers what the reads answered.
 */
import type { AddressInfo } from "node:net";
import { LOCAL_REGION } from "../local/engines.ts";
import { createGateway } from "../local/gateway.ts";
import { loadHandlers } from "../local/handlers.ts";
import { type ReadsDone, readUntil } from "../test/support/audited-load.ts";

export interface ReadsApartOptions {
  ownerToken: string;
  atOnce: number;
  minLoadMs: number;
}

/** What the bench says to this process, and what it answers. */
export type ToReads = "go" | "stop";
export type FromReads = { ready: true } | { done: ReadsDone };

function say(message: FromReads): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) reject(new Error("reads-apart.ts runs only as the bench's child, over IPC"));
    else process.send(message, undefined, {}, (error) => (error ? reject(error) : resolve()));
  });
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? "") as ReadsApartOptions;
  const server = createGateway({ api: "portal", handlers: await loadHandlers(), region: LOCAL_REGION });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const portalUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const heard = (word: ToReads) =>
    new Promise<void>((resolve) => process.on("message", (m) => m === word && resolve()));
  const go = heard("go");
  const stop = heard("stop");
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  await say({ ready: true });
  await go;
  const started = performance.now();
  const done = await readUntil(
    { portalUrl, ownerToken: options.ownerToken },
    { read: "lookup", atOnce: options.atOnce },
    () => stopped && performance.now() - started >= options.minLoadMs,
  );
  await say({ done });
  // Every loop has its answer: nothing is in flight, and the functions' clients need not close.
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `reads apart failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
