/**
 * The issuer over HTTP: a real server on this machine plays the issuer, answering as each test
 * scripts it, so the client's timeouts, retries, bearer secret and answer parsing are exercised
 * on the wire.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { httpAuthority } from "#shared/adapters/http-authority";
import type { IssuerLookup } from "#shared/ports/authority";

type Script = (request: IncomingMessage, body: string, response: ServerResponse) => void;

let server: Server;
let url = "";
let script: Script[] = [];
const seen: { authorization: string | undefined; path: string | undefined; body: unknown }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      seen.push({ authorization: request.headers.authorization, path: request.url, body: JSON.parse(body) });
      const next = script.shift();
      if (!next) throw new Error("The issuer was asked more often than scripted");
      next(request, body, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});
beforeEach(() => {
  script = [];
  seen.length = 0;
});

const LOOKUP: IssuerLookup = {
  documentType: "YOK_STUDENT",
  barcode: "TESTYOK-0001-AKTIF",
  identityNumber: "10000000146",
};
const json =
  (status: number, body: unknown): Script =>
  (_request, _body, response) => {
    response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
const hang: Script = () => undefined;

function client(secret = async () => "s3cret-token-for-tests") {
  return httpAuthority({ url, secret, timeoutMs: 1_000, backoffMs: () => 1 });
}

describe("httpAuthority", () => {
  it("asks with the bearer secret and the contract's body, and returns the issuer's copy", async () => {
    const document = Buffer.from("%PDF-1.7 the issuer's copy");
    script = [json(200, { found: true, document: document.toString("base64"), issued_at: "2026-09-15" })];

    const answer = await client().lookup(LOOKUP);

    expect(answer).toEqual({ kind: "found", document: new Uint8Array(document) });
    expect(seen).toEqual([
      {
        authorization: "Bearer s3cret-token-for-tests",
        path: "/v1/documents/lookup",
        body: { document_type: "YOK_STUDENT", barcode: "TESTYOK-0001-AKTIF", identity_number: "10000000146" },
      },
    ]);
  });

  it("reads 404 { found: false } as not found, without retrying", async () => {
    script = [json(404, { found: false })];

    expect(await client().lookup(LOOKUP)).toEqual({ kind: "not_found" });
    expect(seen).toHaveLength(1);
  });

  it("retries a 5xx, a 429 and a timeout, and answers what the third attempt says", async () => {
    script = [json(503, {}), hang, json(404, { found: false })];

    expect(await client().lookup(LOOKUP)).toEqual({ kind: "not_found" });
    expect(seen).toHaveLength(3);
  });

  it.each([
    ["a timeout", [json(500, {}), json(429, {}), hang], "timeout"],
    ["a 5xx or 429", [hang, json(500, {}), json(429, {})], "http_error"],
  ] as const)(
    "gives up after the first attempt and two retries, naming the last one's cause: %s",
    async (_what, attempts, cause) => {
      script = [...attempts];

      expect(await client().lookup(LOOKUP)).toEqual({ kind: "unavailable", cause });
      expect(seen).toHaveLength(3);
    },
  );

  it("names a connection it cannot make unreachable, after its retries", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const authority = httpAuthority({ url: nowhere, secret: async () => "s3cret-token-for-tests", backoffMs: () => 1 });

    expect(await authority.lookup(LOOKUP)).toEqual({ kind: "unavailable", cause: "unreachable" });
  });

  it.each([
    ["a refused secret", json(401, { error: "unauthorized" })],
    ["a 404 that is not the contract's", json(404, { error: "route_not_found" })],
    ["a 200 without a document", json(200, { found: true })],
    ["a body that is not JSON", ((_q, _b, response) => response.writeHead(200).end("<html>")) as Script],
  ])("reads %s as unrecognised at once: a retry would not change it", async (_what, answer) => {
    script = [answer];

    expect(await client().lookup(LOOKUP)).toEqual({ kind: "unavailable", cause: "unrecognised" });
    expect(seen).toHaveLength(1);
  });

  it("stops reading an answer larger than any document and reads it as unrecognised", async () => {
    script = [
      (_request, _body, response) => {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(`{"found":true,"document":"${"A".repeat(16 * 1024 * 1024)}"}`);
      },
    ];

    expect(await client().lookup(LOOKUP)).toEqual({ kind: "unavailable", cause: "unrecognised" });
  });

  it("answers unavailable (unreachable) when the secret cannot be read, and asks for it again next time", async () => {
    let asked = 0;
    const authority = client(async () => {
      asked += 1;
      if (asked === 1) throw new Error("Secrets Manager is throttling");
      return "s3cret-token-for-tests";
    });
    script = [json(404, { found: false })];

    expect(await authority.lookup(LOOKUP)).toEqual({ kind: "unavailable", cause: "unreachable" });
    expect(await authority.lookup(LOOKUP)).toEqual({ kind: "not_found" });
    expect(asked).toBe(2);
  });
});
