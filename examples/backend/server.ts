/**
 * A small customer backend on the TypeScript client: students send their YÖK certificate, the
 * backend creates a verification, uploads the file and confirms it, learns the decision from the
 * signed webhook, and answers what it knows.
 */
import { createHash } from "node:crypto";
import express, { type Express } from "express";
// In your backend: from "@verification-api/client".
import { ProblemError, type VerificationClient } from "../../clients/typescript/src/index.ts";
import { webhookApp } from "../webhooks/express.ts";

/** What the backend keeps of a student's certificate check: the newest state the API sent. */
export interface CertificateCheck {
  verification_id: string;
  status: string;
  result: string | null;
  sequence: number;
}

export function backend(options: { client: VerificationClient; webhookSecret: string }): Express {
  const { client, webhookSecret } = options;
  const checks = new Map<string, CertificateCheck>();
  const seenEvents = new Set<string>();
  const app = express();

  app.post(
    "/students/:studentId/certificate",
    express.raw({ type: ["application/pdf", "image/png", "image/jpeg"], limit: "10mb" }),
    async (request, response) => {
      const { studentId } = request.params;
      const document = new Uint8Array(request.body as Buffer);
      // The same student and file make the same key: a retried upload never makes a second verification.
      const digest = createHash("sha256").update(document).digest("hex").slice(0, 32);
      try {
        const { verification } = await client.createVerification(
          {
            document_type: "YOK_STUDENT",
            external_reference_id: studentId,
            original_filename: request.get("X-Filename") ?? "certificate.pdf",
            file_size_bytes: document.length,
          },
          { idempotencyKey: `certificate-${studentId}-${digest}` },
        );
        if (verification.status === "awaiting_upload") {
          await client.upload(verification, document);
          await client.confirmUpload(verification.verification_id);
        }
        response.status(202).json({ verification_id: verification.verification_id });
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error;
        response.status(error.status >= 500 ? 502 : 422).json({ code: error.code, detail: error.problem.detail });
      }
    },
  );

  // The Express recipe receives the webhooks: raw body, signature and timestamp checked.
  app.use(
    webhookApp(webhookSecret, (event) => {
      // At least once, and not always in order: each event once, and the highest sequence wins.
      if (seenEvents.has(event.id) || event.type === "webhook.test") return;
      seenEvents.add(event.id);
      const { verification_id, status, result, sequence, external_reference_id } = event.data.verification;
      const known = external_reference_id ? checks.get(external_reference_id) : undefined;
      if (external_reference_id && (!known || known.sequence < sequence)) {
        checks.set(external_reference_id, { verification_id, status, result, sequence });
      }
    }),
  );

  app.get("/students/:studentId/certificate", async (request, response) => {
    const { studentId } = request.params;
    const known = checks.get(studentId);
    if (known) {
      response.json(known);
      return;
    }
    // No webhook yet (or the backend restarted): ask the API, by the student's reference.
    const page = await client.listVerifications({ external_reference_id: studentId, limit: 1 });
    const latest = page.data[0];
    if (!latest) {
      response.status(404).json({ detail: "No certificate received for this student" });
      return;
    }
    response.json({
      verification_id: latest.verification_id,
      status: latest.status,
      result: latest.result,
      sequence: latest.sequence,
    });
  });

  return app;
}
