import { describe, expect, it } from "vitest";
import type { VerificationItem } from "#shared/domain/verification";
import type { AuthorityOutcome } from "#shared/ports/authority";
import { processVerification } from "#shared/use-cases/process-verification";
import {
  aVerification,
  documentBytes,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  ScriptedAuthority,
  ScriptedReader,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const ID = verificationId(1);
const KEY = `documents/${ID}`;
const NOW = "2026-11-22T12:10:00Z";
const BASICS = ["upload_present", "size_matches", "file_type_allowed", "document_readable"];

/** A verification in processing, as the confirm left it; its 1024-byte PDF stored unless told otherwise. */
function setup(
  options: { upload?: Uint8Array | null; authority?: AuthorityOutcome | "none"; item?: VerificationItem } = {},
) {
  const item = options.item ?? aVerification({ status: "processing", sequence: 2, updated_at: "2026-11-22T12:00:00Z" });
  const verifications = new InMemoryVerificationStore().put(item);
  const documents = new InMemoryDocumentStore();
  const upload = options.upload === undefined ? documentBytes("pdf", 1024) : options.upload;
  if (upload) documents.upload(KEY, upload);
  const reader = new ScriptedReader();
  const scripted = new ScriptedAuthority(options.authority === "none" ? "confirmed" : options.authority);
  const authority = options.authority === "none" ? undefined : scripted;
  const clock = new FixedClock(NOW);
  return { verifications, documents, reader, scripted, deps: { verifications, documents, reader, authority, clock } };
}

describe("processVerification: the authority's answer decides the result", () => {
  it("completes verified when the authority confirms, having asked it with the stored document", async () => {
    const { verifications, scripted, deps } = setup({ authority: "confirmed" });

    const final = await processVerification(deps, ID);

    expect(final).toEqual(verifications.stored(ID));
    expect(final).toMatchObject({
      status: "completed",
      result: "verified",
      reasons: [],
      sequence: 3,
      updated_at: NOW,
      completed_at: NOW,
    });
    expect(final?.checks.map((check) => [check.name, check.outcome])).toEqual([
      ...BASICS.map((name) => [name, "passed"]),
      ["authority_confirmation", "passed"],
    ]);
    expect(scripted.asked).toEqual([{ verificationId: ID, document: documentBytes("pdf", 1024) }]);
  });

  it.each([
    ["not_confirmed", "rejected", "failed", "authority_not_confirmed"],
    ["inconclusive", "inconclusive", "skipped", "authority_inconclusive"],
  ] as const)("completes a %s answer as %s, the check %s, with reason %s", async (answer, result, outcome, reason) => {
    const { deps } = setup({ authority: answer });

    const final = await processVerification(deps, ID);

    expect(final).toMatchObject({ status: "completed", result, sequence: 3, completed_at: NOW });
    expect(final?.checks.at(-1)).toMatchObject({ name: "authority_confirmation", outcome });
    expect(final?.reasons.map((r) => r.code)).toEqual([reason]);
    expect(final).not.toHaveProperty("failure_code");
  });

  it("fails with authority_error when the authority cannot process the document", async () => {
    const { deps } = setup({ authority: "error" });

    const final = await processVerification(deps, ID);

    expect(final).toMatchObject({ status: "failed", failure_code: "authority_error", sequence: 3, completed_at: NOW });
    expect(final).not.toHaveProperty("result");
    expect(final?.checks.map((check) => [check.name, check.outcome])).toEqual([
      ...BASICS.map((name) => [name, "passed"]),
      ["authority_confirmation", "failed"],
    ]);
  });

  it("with no authority configured, completes inconclusive with authority_check_unavailable: never verified", async () => {
    const { deps } = setup({ authority: "none" });

    const final = await processVerification(deps, ID);

    expect(final).toMatchObject({
      status: "completed",
      result: "inconclusive",
      reasons: [
        {
          code: "authority_check_unavailable",
          message: "The issuing authority could not be asked to confirm the document",
        },
      ],
    });
    expect(final?.checks.at(-1)).toEqual({
      name: "authority_confirmation",
      outcome: "skipped",
      detail: "No authority integration is configured",
    });
  });
});

describe("processVerification: a document that cannot be processed", () => {
  it.each([
    ["missing", null, "document_missing", "upload_present"],
    ["of another size", documentBytes("pdf", 1000), "file_size_mismatch", "size_matches"],
    ["of a type not accepted", documentBytes("gif", 1024), "unsupported_file_type", "file_type_allowed"],
  ])(
    "fails a document %s with %s, skipping the checks after %s, and never asks the authority",
    async (_what, upload, code, failedCheck) => {
      const { scripted, deps } = setup({ upload });

      const final = await processVerification(deps, ID);

      expect(final).toMatchObject({ status: "failed", failure_code: code, sequence: 3, completed_at: NOW });
      const outcomes = final?.checks.map((check) => check.outcome);
      const failedAt = BASICS.indexOf(failedCheck);
      expect(final?.checks.map((check) => check.name)).toEqual(BASICS);
      expect(outcomes).toEqual(BASICS.map((_, i) => (i < failedAt ? "passed" : i === failedAt ? "failed" : "skipped")));
      expect(scripted.asked).toEqual([]);
    },
  );

  it("fails document_unreadable when the reader refuses it, and never asks the authority", async () => {
    const { reader, scripted, deps } = setup();
    reader.refusal = "The PDF could not be read";

    const final = await processVerification(deps, ID);

    expect(final).toMatchObject({ status: "failed", failure_code: "document_unreadable" });
    expect(final?.checks.at(-1)).toEqual({
      name: "document_readable",
      outcome: "failed",
      detail: "The PDF could not be read",
    });
    expect(scripted.asked).toEqual([]);
  });
});

describe("processVerification: safe to run twice", () => {
  it.each([
    ["awaiting its upload", aVerification()],
    ["completed", aVerification({ status: "completed", result: "verified", sequence: 3 })],
  ])("returns a verification %s as stored, reading no document and writing nothing", async (_what, item) => {
    const { verifications, reader, deps } = setup({ item });

    expect(await processVerification(deps, ID)).toEqual(item);
    expect(verifications.transitions).toEqual([]);
    expect(reader.opened).toEqual([]);
  });

  it("returns undefined for a verification that does not exist", async () => {
    const { deps } = setup();

    expect(await processVerification(deps, verificationId(2))).toBeUndefined();
  });

  it("writes only from the state it read: the sequence it saw is the condition", async () => {
    const { verifications, deps } = setup();

    await processVerification(deps, ID);

    expect(verifications.transitions).toEqual([
      expect.objectContaining({
        from: "processing",
        to: "completed",
        now: NOW,
        condition: { expression: "#sequence = :seen", values: { ":seen": 2 } },
      }),
    ]);
  });

  it("when another run finished first, writes nothing and returns what that run stored", async () => {
    const { verifications, scripted, deps } = setup({ authority: "not_confirmed" });
    // While this run waits on the authority, another run completes the verification.
    const confirm = scripted.confirm.bind(scripted);
    scripted.confirm = async (item, document) => {
      await verifications.transition({
        id: ID,
        from: "processing",
        to: "completed",
        now: "2026-11-22T12:09:59Z",
        set: { result: "verified", checks: [], reasons: [], completed_at: "2026-11-22T12:09:59Z" },
      });
      return confirm(item, document);
    };

    const final = await processVerification(deps, ID);

    expect(final).toMatchObject({
      status: "completed",
      result: "verified",
      sequence: 3,
      completed_at: "2026-11-22T12:09:59Z",
    });
    expect(verifications.stored(ID)).toEqual(final);
  });
});
