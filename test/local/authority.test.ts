/**
 * The project's own authority service, the deployed handler behind the local HTTP server, on
 * the issuer-lookup contract: what the sandbox and `npm start` answer processing with.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthorityHandler, startAuthority } from "../../local/authority.ts";
import { PUBLISHED_CERTIFICATES } from "../../local/resources.ts";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";
import { certificatePdf } from "../../scripts/test-documents/certificate.ts";

/** The published dormitory certificate's spec, to print another one like it. */
function accommodated() {
  const entry = CATALOGUE.find((candidate) => candidate.file === "gsb-accommodated.pdf");
  if (entry?.upload.kind !== "pdf") throw new Error("The catalogue has no gsb-accommodated.pdf");
  return entry.upload.spec;
}

const SECRET = "local-authority-test-secret";
const added = mkdtempSync(path.join(os.tmpdir(), "authority-"));
let service: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  process.env.AUTHORITY_DOCUMENTS = [PUBLISHED_CERTIFICATES, added].join(path.delimiter);
  process.env.AUTHORITY_SECRET = SECRET;
  const { handler } = (await import("../../functions/authority.ts")) as { handler: AuthorityHandler };
  service = await startAuthority(handler, 0);
});
afterAll(async () => {
  await service.stop();
  rmSync(added, { recursive: true, force: true });
});

async function lookup(body: unknown, secret = SECRET) {
  const response = await fetch(`${service.url}/v1/documents/lookup`, {
    method: "POST",
    headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const ACTIVE = { document_type: "YOK_STUDENT", barcode: "TESTYOK-0001-AKTIF", identity_number: "10000000146" };

describe("the authority service", () => {
  it("answers found with the published certificate for its barcode and printed identity number", async () => {
    const { status, body } = await lookup(ACTIVE);
    expect(status).toBe(200);
    expect(body.found).toBe(true);
    expect(Buffer.from(String(body.document), "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });

  it.each([
    ["another identity number", { ...ACTIVE, identity_number: "10000000214" }],
    ["an unknown barcode", { ...ACTIVE, barcode: "TESTYOK-9999-YOK" }],
    ["the barcode under another document type", { ...ACTIVE, document_type: "GSB_KYK_DORM" }],
  ])("answers 404 { found: false } for %s", async (_what, body) => {
    expect(await lookup(body)).toEqual({ status: 404, body: { found: false } });
  });

  it("answers 503 for a barcode its folder marks unavailable", async () => {
    const unavailable = {
      document_type: "GSB_KYK_DORM",
      barcode: "TESTGSB-0005-ERISILEMEZ",
      identity_number: "10000000900",
    };
    expect((await lookup(unavailable)).status).toBe(503);
  });

  it("serves a certificate added to its folder while it runs, and only under the barcode it prints", async () => {
    const spec = { ...accommodated(), barcode: "LOCAL-0001-ADDED" };
    const asked = { document_type: "GSB_KYK_DORM", barcode: "LOCAL-0001-ADDED", identity_number: spec.identityNumber };
    expect((await lookup(asked)).status).toBe(404);
    mkdirSync(path.join(added, "GSB_KYK_DORM"), { recursive: true });
    writeFileSync(path.join(added, "GSB_KYK_DORM/LOCAL-0001-ADDED.pdf"), await certificatePdf(spec));
    expect((await lookup(asked)).status).toBe(200);
    // A published certificate copied under another name prints another barcode: not found.
    copyFileSync(
      path.join(PUBLISHED_CERTIFICATES, "GSB_KYK_DORM/TESTGSB-0001-KALIYOR.pdf"),
      path.join(added, "GSB_KYK_DORM/LOCAL-0002-COPIED.pdf"),
    );
    expect((await lookup({ ...asked, barcode: "LOCAL-0002-COPIED" })).status).toBe(404);
  });

  it("refuses a wrong bearer secret, a malformed body and a barcode that could name a path", async () => {
    expect(await lookup(ACTIVE, "not-the-secret")).toEqual({ status: 401, body: { error: "unauthorized" } });
    expect((await lookup({ ...ACTIVE, barcode: "../../../etc/passwd" })).status).toBe(400);
    expect((await lookup({ ...ACTIVE, identity_number: "123" })).status).toBe(400);
    expect((await lookup({ ...ACTIVE, extra: true })).status).toBe(400);
  });
});
