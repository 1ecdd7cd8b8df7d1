/** A customer backend's view of the API: plain HTTP with fetch. */
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { expect } from "vitest";
import { type VerificationResource, verificationResourceSchema } from "#shared/domain/responses/verification";
import { problemSchema } from "#shared/http/problem-schema";
import { buildBackofficeDocument } from "../../openapi/backoffice.ts";
import { buildPortalDocument } from "../../openapi/portal.ts";
import { Conformance } from "../openapi/conformance.ts";
import { until } from "./until.ts";

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** Each API's document, by the first segment of its paths; built on first use. */
const DOCUMENTS = {
  backoffice: { file: "openapi-backoffice.json", build: buildBackofficeDocument },
  portal: { file: "openapi-portal.json", build: buildPortalDocument },
  v1: { file: "openapi.json", build: undefined },
} as const;
const checkers = new Map<keyof typeof DOCUMENTS, Conformance>();

/**
 * Every reply the tests receive must be one the OpenAPI document of its API describes, for the
 * path the server saw: the URL's dot segments resolved, and a trailing slash dropped as the
 * gateway drops it (`/v1/verifications/.` is the list).
 */
function expectConforms(method: string, sent: string, reply: Reply): void {
  const url = new URL(sent, "http://localhost");
  const path = `${url.pathname.replace(/(.)\/$/, "$1")}${url.search}`;
  const first = path.split("/")[1];
  const api: keyof typeof DOCUMENTS = first === "backoffice" || first === "portal" ? first : "v1";
  let checker = checkers.get(api);
  if (!checker) {
    const build = DOCUMENTS[api].build;
    checker = build ? new Conformance(build()) : new Conformance();
    checkers.set(api, checker);
  }
  const problems = checker.problems({ method, path, ...reply });
  expect(problems, `${method} ${path} departs from ${DOCUMENTS[api].file}`).toEqual([]);
}

export async function call(
  baseUrl: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Uint8Array } = {},
): Promise<Reply> {
  // The API's own answer: a redirect (a document link's 303) is not followed to where it points.
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: options.headers,
    body: options.body,
    redirect: "manual",
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const reply = { status: response.status, headers: response.headers, text, json };
  expectConforms(method, path, reply);
  return reply;
}

/** A call of the portal or backoffice API at `baseUrl` with `accessToken`, its `body` sent as JSON when given. */
export function callAs(
  baseUrl: string,
  accessToken: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<Reply> {
  return call(baseUrl, method, route, {
    headers: {
      Authorization: `Bearer ${accessToken}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

export const validBody = (overrides: Record<string, unknown> = {}) => ({
  document_type: "YOK_STUDENT",
  external_reference_id: "student-4711",
  original_filename: "ogrenci-belgesi.pdf",
  file_size_bytes: 1024,
  ...overrides,
});

export class Customer {
  constructor(
    readonly baseUrl: string,
    readonly apiKey: string,
  ) {}

  /** `idempotencyKey: null` sends none. */
  create(body: unknown, idempotencyKey: string | null = crypto.randomUUID(), headers: Record<string, string> = {}) {
    return call(this.baseUrl, "POST", "/v1/verifications", {
      headers: {
        "X-API-Key": this.apiKey,
        "Content-Type": "application/json",
        ...(idempotencyKey === null ? {} : { "Idempotency-Key": idempotencyKey }),
        ...headers,
      },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
  }

  confirm(id: string) {
    return call(this.baseUrl, "POST", `/v1/verifications/${id}/upload-complete`, {
      headers: { "X-API-Key": this.apiKey },
    });
  }

  get(id: string) {
    return call(this.baseUrl, "GET", `/v1/verifications/${id}`, { headers: { "X-API-Key": this.apiKey } });
  }

  erase(id: string) {
    return call(this.baseUrl, "DELETE", `/v1/verifications/${id}`, { headers: { "X-API-Key": this.apiKey } });
  }

  /** The verification once decided (neither awaiting its upload nor processing), within 25 s. */
  decided(id: string): Promise<VerificationResource> {
    return until(
      async () => expectVerification(await this.get(id)),
      (verification) => !["awaiting_upload", "processing"].includes(verification.status),
      25_000,
    );
  }

  /** Creates a verification and asserts it worked. */
  async created(overrides: Record<string, unknown> = {}): Promise<VerificationResource> {
    const reply = await this.create(validBody(overrides));
    expect(reply.status, reply.text).toBe(201);
    return expectVerification(reply);
  }
}

/** The upload exactly as the create response instructs. */
export function upload(resource: VerificationResource, body: Uint8Array, headers?: Record<string, string>) {
  if (!resource.upload) throw new Error("The verification has no upload instructions");
  return fetch(resource.upload.url, {
    method: resource.upload.method,
    headers: headers ?? resource.upload.headers,
    body,
  });
}

/** Asserts a successful reply carries a Request-Id and a well-formed verification. */
export function expectVerification(reply: Reply): VerificationResource {
  expect(reply.headers.get("content-type")).toBe("application/json");
  expect(reply.headers.get("request-id")).toMatch(/^[0-9a-f-]{36}$/);
  return verificationResourceSchema.parse(reply.json);
}

/** Asserts a reply is the problem+json the contract names, and that it leaks nothing. */
export function expectProblem(reply: Reply, status: number, code: string) {
  expect({ status: reply.status, code: (reply.json as { code?: string } | undefined)?.code }, reply.text).toEqual({
    status,
    code,
  });
  expect(reply.headers.get("content-type")).toBe("application/problem+json");
  const requestId = reply.headers.get("request-id");
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  const problem = problemSchema.parse(reply.json);
  expect(problem.request_id).toBe(requestId);
  expect(problem.type).toBe(`urn:problem:verification-api:${code}`);
  expect(reply.text).not.toMatch(/\bat \S+:\d+|Exception|dynamodb|s3rver|\.ts\b|vk_(sandbox|production)_/i);
  return problem;
}

/** A document of exactly `size` bytes whose first bytes are those of `kind`. */
export function documentBytes(kind: "pdf" | "png" | "jpeg" | "text", size: number): Uint8Array {
  const heads = {
    pdf: [0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x34],
    png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    jpeg: [0xff, 0xd8, 0xff, 0xe0],
    text: [0x68, 0x65, 0x6c, 0x6c, 0x6f],
  };
  const bytes = new Uint8Array(size).fill(0x20);
  bytes.set(heads[kind].slice(0, size));
  return bytes;
}

/**
 * One request written as given: each header value on a line of its own (so a header can come
 * twice, as fetch never sends it), and the body's bytes as they are.
 */
export function rawCall(
  baseUrl: string,
  method: string,
  path: string,
  headers: [string, string][],
  body?: Buffer,
  /** The loopback address to send from, so a test can play several clients (127.0.0.2, ...). */
  localAddress?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(path, baseUrl), { method, ...(localAddress ? { localAddress } : {}) });
    // Node names a header once, whatever its case: values of one name go out as lines of their own.
    const values = new Map<string, string[]>();
    for (const [name, value] of headers)
      values.set(name.toLowerCase(), [...(values.get(name.toLowerCase()) ?? []), value]);
    for (const [name, list] of values) request.setHeader(name, list.length === 1 ? (list[0] ?? "") : list);
    if (body) request.setHeader("Content-Length", body.length);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (typeof value === "string") headers.set(name, value);
        }
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: response.statusCode ?? 0, headers, text, json });
      });
    });
    request.on("error", reject);
    request.end(body);
  });
}

/** The published test documents (docs/test-documents). */
export const TEST_DOCUMENTS = path.resolve(__dirname, "../../docs/test-documents");

/**
 * A published test document made into a verification of `documentType`, uploaded and processed at
 * confirm (`sync`), checked to be as processing should leave it.
 */
export async function processedDocument(
  customer: Customer,
  file: string,
  documentType: string,
  expected: Partial<VerificationResource>,
): Promise<VerificationResource> {
  const bytes = new Uint8Array(readFileSync(path.join(TEST_DOCUMENTS, file)));
  const created = await customer.created({
    document_type: documentType,
    original_filename: file,
    file_size_bytes: bytes.length,
    process_type: "sync",
  });
  expect((await upload(created, bytes)).status).toBe(200);
  const confirmed = expectVerification(await customer.confirm(created.verification_id));
  expect(confirmed).toMatchObject(expected);
  return confirmed;
}
