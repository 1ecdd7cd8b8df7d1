/**
 * `npm run webhooks:listen`: a local webhook receiver for the dev app. It checks each delivery
 * with the TypeScript client's `verifyWebhook` (the signature over the raw body, the timestamp,
 * the event's shape) and prints every event type it accepts, or why it refused the delivery:
 * only a verified event is answered 2xx, and a refusal's reason is the answer's body, so the
 * portal's delivery list shows it beside the status.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { z } from "zod";
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from "../clients/typescript/src/index.ts";
import { devAppPath } from "./dev-app.ts";
import { loopbackHostsOnly } from "./loopback.ts";

const settings = z
  .object({
    LISTEN_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
    LOCAL_DATA_DIR: z.string().min(1).default(".local"),
  })
  .parse(process.env);

const file = devAppPath(path.resolve(settings.LOCAL_DATA_DIR));

/** What each refusal is called in the printed line. */
const REFUSALS: Record<WebhookVerificationError["reason"], string> = {
  bad_signature: "bad signature",
  stale_timestamp: "stale timestamp",
  not_an_event: "not an event",
  missing_headers: "not a webhook delivery",
};

/** The dev app's current secret, read at each delivery: npm start may seed it after this starts. */
function currentSecret(): string | undefined {
  try {
    return z.object({ webhook_secret: z.string() }).parse(JSON.parse(readFileSync(file, "utf8"))).webhook_secret;
  } catch {
    return undefined;
  }
}

/**
 * One line for an accepted event: its type, then what it is about. A type this receiver does not
 * know yet is still a verified event: printed with its id, and accepted.
 */
function describe(event: WebhookEvent): string {
  if (event.type === "webhook.test") return `${event.type}  ${event.data.app_id}  "${event.data.message}"`;
  const verification = (event.data as Partial<Extract<WebhookEvent, { type: "verification.completed" }>["data"]>)
    ?.verification;
  if (!verification) return `${event.type}  ${event.id}`;
  const { verification_id, status, result, sequence } = verification;
  return `${event.type}  ${verification_id}  status=${status} result=${result} sequence=${sequence}`;
}

function print(line: string): void {
  process.stdout.write(`${new Date().toISOString()} ${line}\n`);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const secret = currentSecret();
    if (!secret) {
      print(`REJECTED: no dev app in ${file} yet`);
      res.writeHead(503, { "Content-Type": "text/plain" }).end(`no dev app in ${file} yet\n`);
      return;
    }
    let event: WebhookEvent;
    try {
      event = verifyWebhook(Buffer.concat(chunks), req.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      print(`REJECTED (${REFUSALS[error.reason]}): ${error.message}`);
      res.writeHead(400, { "Content-Type": "text/plain" }).end(`${error.reason}: ${error.message}\n`);
      return;
    }
    print(`signature ok  ${describe(event)}`);
    res.writeHead(204).end();
  });
});

// Deliveries come from the local runtime; a page of another site whose name resolves to 127.0.0.1 is refused.
loopbackHostsOnly(server);
server.listen(settings.LISTEN_PORT, "127.0.0.1", () => {
  const url = `http://127.0.0.1:${settings.LISTEN_PORT}/webhooks`;
  process.stdout.write(
    [
      `Listening for the dev app's webhooks on ${url}`,
      `Signatures are checked with the dev app's secret from ${file}.`,
      "Point the dev app at it: (re)start the API with",
      `  DEV_WEBHOOK_URL=${url} npm start`,
      `or without a restart: npm run ops -- webhooks set <app_id> --url ${url}`,
      "",
    ].join("\n"),
  );
});
process.on("SIGINT", () => server.close(() => process.exit(0)));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
