/** `npm start` as a real process, on free ports, for the tests that need the whole runtime. */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { freePort } from "../../local/engines.ts";
import { ISSUER_SETTINGS } from "../../local/resources.ts";

const root = path.resolve(__dirname, "../..");

export interface RunningRuntime {
  process: ChildProcess;
  /** The API's, DynamoDB Local's and the S3 engine's ports. */
  ports: [number, number, number];
  /** Every port the runtime listens on, by the setting that names it (`PORT`, `DYNAMODB_PORT`, ...). */
  listeners: Record<string, number>;
  baseUrl: string;
  output: () => string;
}

/**
 * Starts the runtime with `env` over the defaults and resolves once it serves. A port found free
 * may be taken before the runtime binds it (the system hands out the same range for outgoing
 * connections): such a start is made again on other ports, twice at most.
 */
export async function startRuntime(
  env: Record<string, string>,
  args: string[] = [],
  /** `npm`: through `npm start` itself, the process a newcomer's terminal holds (its pid is npm's). */
  via: "node" | "npm" = "node",
): Promise<RunningRuntime> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startOnFreePorts(env, args, via);
    } catch (error) {
      if (attempt === 3 || !(error instanceof Error) || !error.message.includes("EADDRINUSE")) throw error;
    }
  }
}

async function startOnFreePorts(
  env: Record<string, string>,
  args: string[],
  via: "node" | "npm",
): Promise<RunningRuntime> {
  const ports: [number, number, number] = [await freePort(), await freePort(), await freePort()];
  // Every other server on a free port of its own too: PORT + n may be another process's.
  const others = {
    EDEVLET_PORT: await freePort(),
    BACKOFFICE_PORT: await freePort(),
    IDENTITY_PORT: await freePort(),
    PORTAL_PORT: await freePort(),
    KMS_PORT: await freePort(),
    USAGE_PLANS_PORT: await freePort(),
    QUEUE_PORT: await freePort(),
  };
  // Exactly what `npm start` runs: one Node process, no wrapper between it and the signal (or npm
  // itself, with the shell it runs the script in). The issuer a test file's own functions were
  // pointed at is not the runtime's: it runs its own simulator.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !(ISSUER_SETTINGS as readonly string[]).includes(name)),
  );
  const [command, commandArgs] =
    via === "npm"
      ? ["npm", ["start", ...(args.length > 0 ? ["--", ...args] : [])]]
      : [process.execPath, ["--import", "tsx", "local/main.ts", ...args]];
  const child = spawn(command, commandArgs, {
    cwd: root,
    env: {
      ...inherited,
      PORT: String(ports[0]),
      DYNAMODB_PORT: String(ports[1]),
      S3_PORT: String(ports[2]),
      ...Object.fromEntries(Object.entries(others).map(([name, port]) => [name, String(port)])),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("Ctrl-C stops")) resolve();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("exit", (code) => reject(new Error(`npm start exited with ${code}: ${output}`)));
  });
  const listeners = { PORT: ports[0], DYNAMODB_PORT: ports[1], S3_PORT: ports[2], ...others };
  return { process: child, ports, listeners, baseUrl: `http://127.0.0.1:${ports[0]}`, output: () => output };
}

/** Whether the process is gone: one killed by a signal keeps `exitCode` null and sets `signalCode`. */
export function hasExited(running: RunningRuntime): boolean {
  return running.process.exitCode !== null || running.process.signalCode !== null;
}

/** Resolves with the exit code once the process is gone (null when a signal ended it). */
export function exitOf(running: RunningRuntime): Promise<number | null> {
  if (hasExited(running)) return Promise.resolve(running.process.exitCode);
  return new Promise((resolve) => running.process.once("exit", resolve));
}

/** Sends `signal`, unless the process is already gone, and resolves with the exit code. */
export async function stopRuntime(running: RunningRuntime, signal: NodeJS.Signals = "SIGTERM"): Promise<number | null> {
  if (hasExited(running)) return running.process.exitCode;
  const exited = exitOf(running);
  running.process.kill(signal);
  return exited;
}
