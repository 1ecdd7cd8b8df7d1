/**
 * `npm run webhooks:listen`: a local webhook receiver for the dev app. It verifies each
 * delivery's signature with the public standardwebhooks library and prints the event.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { devAppPath } from "./dev-app.ts";

const settings = z
  .object({
    LISTEN_PORT: z.coerce.number().int().min(1).max(65535).default(4000),
    LOCAL_DATA_DIR: z.string().min(1).default(".local"),
  })
  .parse(process.env);

const file = devAppPath(path.resolve(settings.LOCAL_DATA_DIR));

/** The dev app's current secret, read at each delivery: npm start may seed it after this starts. */
function verifier(): Webhook | undefined {
  try {
    const { webhook_secret } = z.object({ webhook_secret: z.string() }).parse(JSON.parse(readFileSync(file, "utf8")));
    return new Webhook(webhook_secret);
  } catch {
    return undefined;
  }
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
    const current = verifier();
    if (!current) {
      process.stdout.write(`${new Date().toISOString()} REJECTED: no dev app in ${file} yet\n`);
      res.writeHead(503).end();
      return;
    }
    try {
      const event = current.verify(body, headers) as { type: string; data: { verification: Record<string, unknown> } };
      const { verification_id, status, result, sequence } = event.data.verification;
      process.stdout.write(
        `${new Date().toISOString()} signature ok  ${event.type}  ${verification_id}  status=${status} result=${result} sequence=${sequence}\n`,
      );
      res.writeHead(204).end();
    } catch {
      process.stdout.write(`${new Date().toISOString()} REJECTED: the signature does not verify\n`);
      res.writeHead(400).end();
    }
  });
});

server.listen(settings.LISTEN_PORT, "127.0.0.1", () => {
  const url = `http://127.0.0.1:${settings.LISTEN_PORT}/webhooks`;
  process.stdout.write(
    [
      `Listening for the dev app's webhooks on ${url}`,
      `Signatures are checked with the dev app's secret from ${file}.`,
      "Point the dev app at it: (re)start the API with",
      `  DEV_WEBHOOK_URL=${url} npm start`,
      "",
    ].join("\n"),
  );
});
process.on("SIGINT", () => server.close(() => process.exit(0)));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
