/**
 * The sender on real sockets: the address checked is the address connected to, resolved once
 * by the socket's own lookup, so a name cannot change between a check and the connection.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REFUSED_DESTINATION, type Resolve, webhookSender } from "#shared/adapters/webhook-sender";

let server: http.Server;
let port: number;
let requests = 0;
let connections = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    requests += 1;
    request.resume();
    request.on("end", () => {
      response.writeHead(request.url === "/fail" ? 500 : 204);
      response.end(request.url === "/fail" ? "é".repeat(1500) : undefined);
    });
  });
  server.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** A resolver answering `answers` in turn (the last one from then on), counting its calls. */
function resolver(...answers: string[][]): Resolve & { calls: number } {
  const resolve = ((_hostname, _options, callback) => {
    const addresses = answers[Math.min(resolve.calls, answers.length - 1)] ?? [];
    resolve.calls += 1;
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    );
  }) as Resolve & { calls: number };
  resolve.calls = 0;
  return resolve;
}

const post = (sender: ReturnType<typeof webhookSender>, url: string) =>
  sender.post(url, { "Content-Type": "application/json" }, "{}");

describe("the webhook sender", () => {
  it("reaches a loopback receiver by name where loopback is allowed, resolving once per connection", async () => {
    const resolve = resolver(["127.0.0.1"]);
    const before = requests;

    const outcome = await post(webhookSender("public-or-loopback", resolve), `http://hooks.test:${port}/`);

    expect(outcome).toMatchObject({ statusCode: 204 });
    expect(requests - before).toBe(1);
    expect(resolve.calls).toBe(1);
  });

  it("connects to nothing when the name resolves inward at connect time", async () => {
    const resolve = resolver(["127.0.0.1"]);
    const before = connections;

    const outcome = await post(webhookSender("public", resolve), `https://hooks.test:${port}/`);

    expect(outcome).toEqual({
      error: REFUSED_DESTINATION,
      errorCode: "destination_refused",
      latencyMs: expect.any(Number),
    });
    expect(resolve.calls).toBe(1);
    expect(connections - before).toBe(0);
  });

  it("refuses a name with any inward address among public ones", async () => {
    const resolve = resolver(["93.184.215.14", "::ffff:a9fe:a9fe"]);

    const outcome = await post(webhookSender("public", resolve), `https://hooks.test:${port}/`);

    expect(outcome).toMatchObject({ error: REFUSED_DESTINATION });
  });

  it.each([
    `https://127.0.0.1:PORT/`,
    `https://[::ffff:7f00:1]:PORT/`,
    `https://[::1]:PORT/`,
    `http://127.0.0.1:PORT/`,
    `http://hooks.test:PORT/`,
  ])("never connects to %s from a deployed stack", async (template) => {
    const before = connections;

    const outcome = await post(
      webhookSender("public", resolver(["127.0.0.1"])),
      template.replace("PORT", String(port)),
    );

    expect(outcome).toMatchObject({ error: REFUSED_DESTINATION });
    expect(connections - before).toBe(0);
  });

  it("keeps the status and the first 1 KiB of an answer, cut at a whole character", async () => {
    const outcome = await post(webhookSender("public-or-loopback"), `http://127.0.0.1:${port}/fail`);

    expect(outcome).toMatchObject({ statusCode: 500, body: "é".repeat(512) });
  });
});
