/** A customer backend's calls, as the bench makes them: over loopback with plain fetch, or handed to the handlers in-process. */
import { randomUUID } from "node:crypto";
import { type VerificationResource, verificationResourceSchema } from "#shared/domain/responses/verification";

export interface Reply {
  status: number;
  headers: Headers;
  json: unknown;
  /** In-process only: from the proxy event handed to the handler to its response, in milliseconds. */
  handlerMs?: number;
}

export const PDF_SIZE = 2048;

/** A document of PDF_SIZE bytes that starts as a PDF does: what confirm sniffs. */
export const PDF_BYTES = (() => {
  const bytes = Buffer.alloc(PDF_SIZE, 0x20);
  bytes.write("%PDF-1.4\n", 0, "latin1");
  return bytes;
})();

export function createBody(reference = "student-4711", size = PDF_SIZE): string {
  return JSON.stringify({
    document_type: "YOK_STUDENT",
    external_reference_id: reference,
    original_filename: "ogrenci-belgesi.pdf",
    file_size_bytes: size,
  });
}

/** How a request reaches the API. */
export type Send = (method: string, path: string, headers: Record<string, string>, body?: string) => Promise<Reply>;

/** Over HTTP to the local gateway, as a customer's backend calls it. */
export function overHttp(baseUrl: string): Send {
  return async (method, path, headers, body) => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      json: text ? (JSON.parse(text) as unknown) : undefined,
    };
  };
}

export class BenchCustomer {
  constructor(
    readonly send: Send,
    readonly apiKey: string,
  ) {}

  request(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
    return this.send(method, path, { "X-API-Key": this.apiKey, ...headers }, body);
  }

  create(idempotencyKey: string = randomUUID(), body = createBody()): Promise<Reply> {
    return this.request(
      "POST",
      "/v1/verifications",
      { "Content-Type": "application/json", "Idempotency-Key": idempotencyKey },
      body,
    );
  }

  confirm(id: string): Promise<Reply> {
    return this.request("POST", `/v1/verifications/${id}/upload-complete`);
  }

  get(id: string): Promise<Reply> {
    return this.request("GET", `/v1/verifications/${id}`);
  }

  /** Creates a verification and uploads its document as instructed; fails loudly otherwise. */
  async uploaded(document: Uint8Array = PDF_BYTES): Promise<VerificationResource> {
    const resource = expectResource(await this.create(randomUUID(), createBody(undefined, document.length)), 201);
    const status = await upload(resource, document);
    if (status !== 200) throw new Error(`The upload was refused with ${status}`);
    return resource;
  }
}

/** PUTs the document to the verification's upload URL as instructed; the storage's status. */
export async function upload(resource: VerificationResource, document: Uint8Array): Promise<number> {
  if (!resource.upload) throw new Error("A new verification came without upload instructions");
  const put = await fetch(resource.upload.url, {
    method: resource.upload.method,
    headers: resource.upload.headers,
    body: document,
  });
  await put.arrayBuffer();
  return put.status;
}

/** The verification in a reply of the expected status, or an error naming what came instead. */
export function expectResource(reply: Reply, status: number): VerificationResource {
  if (reply.status !== status)
    throw new Error(`Expected ${status}, got ${reply.status}: ${JSON.stringify(reply.json)}`);
  return verificationResourceSchema.parse(reply.json);
}
