/**
 * The identity number is read from every certificate, sent to the issuer, and then forgotten:
 * after every published test document has gone through a real `npm start` with debug logs on,
 * asking its e-Devlet simulator, neither a response, nor its output (every log line of every
 * function), nor DynamoDB Local's stored data, nor the queues kept on disk holds any of the
 * certificates' identity numbers. Nor do they after verifications by barcode alone, whose
 * numbers the create itself carries (`document_keys`, and `expected_subject.identity_number`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CATALOGUE } from "../../scripts/test-documents/catalogue.ts";
import { syntheticIdentityNumber } from "../../scripts/test-documents/certificate.ts";
import { Customer, expectVerification, upload } from "../support/client.ts";
import { startRuntime, stopRuntime } from "../support/runtime.ts";

const DOCUMENTS = path.resolve(__dirname, "../../docs/test-documents");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "identity-numbers-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe("identity numbers", () => {
  it("appear in no log line and no stored item after every test document was verified", async () => {
    // A short retry window, so the busy certificate reaches review within the sync confirm's wait.
    const runtime = await startRuntime({
      LOCAL_DATA_DIR: dataDir,
      POWERTOOLS_LOG_LEVEL: "DEBUG",
      ISSUER_RETRY_WINDOW_S: "4",
    });
    const responses: string[] = [];
    try {
      const { api_key } = JSON.parse(readFileSync(path.join(dataDir, "dev-app.json"), "utf8")) as { api_key: string };
      const customer = new Customer(runtime.baseUrl, api_key);
      for (const entry of CATALOGUE) {
        const bytes = new Uint8Array(readFileSync(path.join(DOCUMENTS, entry.file)));
        const created = await customer.created({
          document_type: entry.documentType,
          original_filename: entry.file,
          file_size_bytes: bytes.length,
          process_type: "sync",
          ...entry.create,
        });
        expect((await upload(created, bytes)).status).toBe(200);
        const confirmed = await customer.confirm(created.verification_id);
        const decided = expectVerification(confirmed);
        expect(decided.reason_code, entry.file).toBe(entry.expected.reason_code);
        responses.push(confirmed.text, (await customer.get(created.verification_id)).text);
      }
      // By barcode alone: the number sent is sealed until the lookup answers, the expected one kept as a digest.
      for (const entry of CATALOGUE.filter((candidate) => candidate.file === "yok-active.pdf").slice(0, 1)) {
        const { barcode, identityNumber } = entry.upload.spec;
        for (const identity_number of [identityNumber, syntheticIdentityNumber(99)]) {
          const reply = await customer.create({
            document_type: entry.documentType,
            process_type: "sync",
            document_keys: { barcode, identity_number },
            expected_subject: { identity_number },
          });
          const decided = expectVerification(reply);
          expect(decided.reason_code).toBe(
            identity_number === identityNumber ? "verified" : "document_not_found_at_issuer",
          );
          responses.push(reply.text, (await customer.get(decided.verification_id)).text);
        }
      }
    } finally {
      await stopRuntime(runtime);
    }

    const identityNumbers = [
      ...new Set([...CATALOGUE.map((entry) => entry.upload.spec.identityNumber), syntheticIdentityNumber(99)]),
    ];
    const output = runtime.output();
    // The run did log (every request's access line, and the functions at debug level), so the
    // output's silence about the numbers means something.
    expect(output).toContain("upload-complete");
    const tables = path.join(dataDir, "dynamodb");
    const stored = readdirSync(tables)
      .map((file) => readFileSync(path.join(tables, file)).toString("latin1"))
      .join("");
    expect(stored).toContain("TESTYOK-0001-AKTIF");
    // The issuer queue's messages name verifications only; kept on disk, so a restart retries them.
    const queued = readFileSync(path.join(dataDir, "queues.json"), "utf8");
    expect(output).toContain("issuer lookup");
    for (const number of identityNumbers) {
      expect(output, "the runtime's output").not.toContain(number);
      expect(stored, "DynamoDB Local's data").not.toContain(number);
      expect(queued, "the queues kept on disk").not.toContain(number);
      expect(responses.join(""), "the API's responses").not.toContain(number);
    }
  }, 120_000);
});
