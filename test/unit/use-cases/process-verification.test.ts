import { describe, expect, it } from "vitest";
import { toResource, type VerificationItem } from "#shared/domain/verification";
import type { IssuerAnswer } from "#shared/ports/authority";
import { askedAnswer } from "#shared/use-cases/issuer/answers";
import { processVerification } from "#shared/use-cases/processing/process-verification";
import { erase } from "#shared/use-cases/public/erase-verification";
import { staffView } from "#shared/use-cases/review/staff-view";
import {
  aVerification,
  CERTIFICATE_LINES,
  documentBytes,
  InMemoryAppStore,
  InMemoryDocumentStore,
  InMemoryVerificationStore,
  KeyedDigest,
  pageContent,
  RecordingIssuerQueue,
  RecordingLog,
  ScriptedAuthority,
  ScriptedReader,
  TaggingSealer,
  tagSealed,
  verificationId,
} from "../../support/fakes.ts";
import { FixedClock } from "../../support/fixed-clock.ts";

const ID = verificationId(1);
const KEY = `documents/${ID}`;
const NOW = "2026-11-22T12:10:00Z";
const BASICS = ["upload_present", "size_matches", "file_type_allowed", "document_readable"];

const CERTIFICATE = [...CERTIFICATE_LINES];
const PIPELINE = ["barcode_found", "authority_match", "fields_extracted", "student_active"];
const UPLOAD = documentBytes("pdf", 1024);

/**
 * A verification in processing, as the confirm left it; its 1024-byte PDF stored unless told
 * otherwise, its text the certificate above, and an issuer that holds the same bytes, asked by
 * the issuer queue's reader (`asked`) with a retry window of none: an unavailable answer is
 * final here (the retries have their own tests, in issuer-answers.test.ts).
 */
function setup(
  options: {
    upload?: Uint8Array | null;
    authority?: IssuerAnswer | "none";
    item?: VerificationItem;
    lines?: string[];
    qrCodes?: string[];
  } = {},
) {
  const item = options.item ?? aVerification({ status: "processing", sequence: 2, updated_at: "2026-11-22T12:00:00Z" });
  const verifications = new InMemoryVerificationStore().put(item);
  const documents = new InMemoryDocumentStore();
  const upload = options.upload === undefined ? UPLOAD : options.upload;
  if (upload) documents.upload(KEY, upload);
  const reader = new ScriptedReader();
  reader.content = pageContent(options.lines ?? CERTIFICATE, options.qrCodes);
  const answer = options.authority === undefined || options.authority === "none" ? found(UPLOAD) : options.authority;
  const scripted = new ScriptedAuthority(answer);
  const authority = options.authority === "none" ? undefined : scripted;
  const clock = new FixedClock(NOW);
  const queue = new RecordingIssuerQueue();
  const log = new RecordingLog();
  const deps = {
    verifications,
    documents,
    reader,
    issuer: authority && queue,
    authority,
    sealer: new TaggingSealer(),
    subjects: new KeyedDigest(),
    clock,
    log,
  };
  return { verifications, documents, reader, scripted, queue, log, deps };
}

/** Processing as the issuer queue's reader runs it for the first attempt: it asks, and decides on the answer. */
function asked(deps: ReturnType<typeof setup>["deps"], id = ID) {
  const { issuer, authority } = deps;
  const asker =
    issuer && authority
      ? askedAnswer(
          { ...deps, queue: issuer, authority, retryWindowSeconds: 0, random: () => 0.5, stopwatch: () => 0 },
          1,
        )
      : undefined;
  return processVerification(deps, id, asker);
}

function found(document: Uint8Array): IssuerAnswer {
  return { kind: "found", document };
}

const outcomes = (item: VerificationItem | undefined) => item?.checks.map((check) => [check.name, check.outcome]);
const passed = (names: string[]) => names.map((name) => [name, "passed"]);
const skipped = (names: string[]) => names.map((name) => [name, "skipped"]);

describe("processVerification: the decision table", () => {
  it("every step passed: completed verified, the fields from the issuer's copy, the copy kept beside the upload", async () => {
    const { verifications, documents, scripted, deps } = setup();

    const final = await asked(deps);

    expect(final).toEqual(verifications.stored(ID));
    expect(final).toMatchObject({
      status: "completed",
      result: "verified",
      reasons: [],
      sequence: 3,
      updated_at: NOW,
      completed_at: NOW,
      issuer_copy_key: `${KEY}.issuer-copy`,
    });
    expect(outcomes(final)).toEqual(passed([...BASICS, ...PIPELINE]));
    expect(scripted.asked).toEqual([
      { documentType: "YOK_STUDENT", barcode: "YOK-7Q4M-2K9D", identityNumber: "10000000146" },
    ]);
    expect(final?.extracted).toMatchObject({
      schema: "yok_student.v1",
      source: "issuer_copy",
      fields: {
        full_name: "AYŞE DENEME",
        birth_date: "2004-03-17",
        is_active: true,
        class_year: 3,
        university_name: "ÖRNEK ÜNİVERSİTESİ",
        program_name: "Bilgisayar Mühendisliği",
        barcode: "YOK-7Q4M-2K9D",
      },
    });
    expect(JSON.stringify(final)).not.toContain("10000000146");
    expect(documents.written).toEqual([{ key: `${KEY}.issuer-copy`, contentType: "application/pdf" }]);
  });

  it("no barcode in a PDF: completed rejected barcode_missing, the issuer never asked", async () => {
    const { scripted, deps } = setup({ lines: CERTIFICATE.filter((line) => !line.startsWith("Barkod")) });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "completed", result: "rejected", reasons: [{ code: "barcode_missing" }] });
    expect(outcomes(final)).toEqual([...passed(BASICS), ["barcode_found", "failed"], ...skipped(PIPELINE.slice(1))]);
    expect(final).not.toHaveProperty("extracted");
    expect(scripted.asked).toEqual([]);
  });

  it("the barcode and identity number from the QR code when the text lacks them", async () => {
    const { scripted, deps } = setup({
      lines: CERTIFICATE.filter((line) => !/^(Barkod|T\.C\.)/.test(line)),
      qrCodes: ["https://www.turkiye.gov.tr/belge-dogrulama?barkod=YOK-7Q4M-2K9D&tckn=10000000146"],
    });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "completed", result: "verified" });
    expect(scripted.asked).toHaveLength(1);
  });

  it("the issuer has no such document: completed rejected document_not_found_at_issuer", async () => {
    const { documents, deps } = setup({ authority: { kind: "not_found" } });

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "completed",
      result: "rejected",
      reasons: [{ code: "document_not_found_at_issuer" }],
    });
    expect(outcomes(final)).toEqual([
      ...passed([...BASICS, "barcode_found"]),
      ["authority_match", "failed"],
      ...skipped(PIPELINE.slice(2)),
    ]);
    expect(documents.written).toEqual([]);
  });

  it("the issuer's copy prints other text: completed rejected document_altered, a fraud signal, no fields, the differing lines kept", async () => {
    const copy = documentBytes("pdf", 1024);
    copy[100] = 0x41;
    const { documents, reader, deps } = setup({ authority: found(copy) });
    reader.answer(copy, pageContent(CERTIFICATE.map((line) => line.replace("Aktif", "Mezun"))));

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "completed",
      result: "rejected",
      reasons: [{ code: "document_altered" }],
      fraud_signals: ["document_altered"],
      text_differences: {
        only_in_upload: ["Öğrencilik Durumu : Aktif"],
        only_in_issuer_copy: ["Öğrencilik Durumu : Mezun"],
      },
    });
    expect(final).not.toHaveProperty("extracted");
    expect(outcomes(final)?.at(BASICS.length + 1)).toEqual(["authority_match", "failed"]);
    expect(await documents.read(`${KEY}.issuer-copy`)).toEqual(copy);
  });

  it("masks an identity number in a differing line, and keeps the lines of a copy whose pages hold them otherwise", async () => {
    const copy = documentBytes("pdf", 1024);
    copy[100] = 0x41;
    const { reader, deps } = setup({ authority: found(copy) });
    const other = CERTIFICATE.map((line) => line.replace("10000000146", "10000000078"));
    reader.answer(copy, pageContent(other));

    const final = await asked(deps);

    expect(final?.text_differences).toEqual({
      only_in_upload: ["T.C. Kimlik No : 10*******46"],
      only_in_issuer_copy: ["T.C. Kimlik No : 10*******78"],
    });
    expect(JSON.stringify(final)).not.toMatch(/10000000(146|078)/);
  });

  it("the same text on other pages is other content: rejected document_altered", async () => {
    const copy = documentBytes("pdf", 1024);
    copy[100] = 0x41;
    const { reader, deps } = setup({ authority: found(copy) });
    reader.answer(copy, { ...pageContent(CERTIFICATE), linesPerPage: [4, CERTIFICATE.length - 4] });

    expect(await asked(deps)).toMatchObject({ result: "rejected", reasons: [{ code: "document_altered" }] });
  });

  it("the issuer's text in another file (saved again, runs split and spaced otherwise): verified, noting not_original_file", async () => {
    const copy = documentBytes("pdf", 1024);
    copy[100] = 0x41;
    const { reader, deps } = setup({ authority: found(copy) });
    // The issuer's copy as its own writer laid it out: one run per word, other spacing, decomposed letters.
    reader.answer(copy, pageContent(CERTIFICATE.map((line) => line.replaceAll(" ", "   ").normalize("NFD"))));

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "completed",
      result: "verified",
      fraud_signals: ["not_original_file"],
      extracted: { fields: { is_active: true } },
    });
    expect(final?.checks.find((check) => check.name === "authority_match")).toMatchObject({
      outcome: "passed",
      detail: "The document has the same content as the issuer's copy, in another file",
    });
    expect(final).not.toHaveProperty("text_differences");
  });

  it("reads every field from the issuer's copy, never from the upload", async () => {
    const copy = documentBytes("pdf", 1024);
    copy[100] = 0x41;
    // The upload has the same text, its own reading of a value aside: only the copy's counts.
    const { reader, deps } = setup({ authority: found(copy), lines: CERTIFICATE });
    reader.answer(copy, pageContent(CERTIFICATE.map((line) => line.replace("Sınıfı : 3", "Sınıfı :  3"))));
    const final = await asked(deps);
    expect(final?.extracted).toMatchObject({ fields: { class_year: 3 } });

    const mezun = setup({ authority: found(copy) });
    mezun.reader.answer(copy, pageContent(CERTIFICATE.map((line) => line.replace("Aktif", "Mezun"))));
    mezun.reader.content = pageContent(CERTIFICATE.map((line) => line.replace("Aktif", "Mezun")));
    expect(await asked(mezun.deps)).toMatchObject({ result: "rejected", reasons: [{ code: "student_not_active" }] });
  });

  it("the type rule fails: completed rejected student_not_active, with the fields", async () => {
    const lines = CERTIFICATE.map((line) => (line.startsWith("Öğrencilik") ? "Öğrencilik Durumu : Mezun" : line));
    const { deps } = setup({ lines });

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "completed",
      result: "rejected",
      reasons: [{ code: "student_not_active" }],
      extracted: { fields: { student_status: "Mezun", is_active: false } },
    });
    expect(outcomes(final)?.at(-1)).toEqual(["student_active", "failed"]);
  });

  it("a type without a rule: verified without a rule step, in the type's schema", async () => {
    const lines = [
      "T.C. Kimlik No : 10000000146",
      "Adı Soyadı : HAKAN ADRESLİ",
      "Doğum Tarihi : 12.12.1995",
      "Yerleşim Yeri Adresi : ÖRNEK MAH. DENEME SK. NO: 7 ÇANKAYA / ANKARA",
      "Barkod No : NVI-7Q4M-2K9D",
    ];
    const item = aVerification({ status: "processing", sequence: 2, document_type: "NVI_RESIDENCE" });
    const { deps } = setup({ lines, item });

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "completed",
      result: "verified",
      extracted: { schema: "nvi_residence.v1", fields: { full_name: "HAKAN ADRESLİ", barcode: "NVI-7Q4M-2K9D" } },
    });
    expect(outcomes(final)).toEqual(passed([...BASICS, "barcode_found", "authority_match", "fields_extracted"]));
  });

  it("a new type's rule fails: completed rejected with its reason, the check named as the registry names it", async () => {
    const lines = [
      "T.C. Kimlik No : 10000000146",
      "Adı Soyadı : ONUR KAYITLI",
      "Doğum Tarihi : 09.10.1993",
      "Adli Sicil Kaydı : Adli sicil kaydı vardır",
      "Barkod No : ADS-7Q4M-2K9D",
    ];
    const item = aVerification({ status: "processing", sequence: 2, document_type: "CRIMINAL_RECORD" });
    const { deps } = setup({ lines, item });

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "completed",
      result: "rejected",
      reasons: [{ code: "criminal_record_present", message: "The certificate shows a criminal record" }],
      extracted: { schema: "criminal_record.v1", fields: { has_record: true } },
    });
    expect(outcomes(final)?.at(-1)).toEqual(["no_criminal_record", "failed"]);
  });

  it.each([
    [
      "matches, ignoring case, Turkish letters and spaces",
      { full_name: "ayşe  deneme", birth_date: "2004-03-17" },
      "verified",
    ],
    ["differs by name", { full_name: "Ayşe Başka" }, "rejected"],
    ["differs by birth date", { birth_date: "2004-03-18" }, "rejected"],
  ] as const)("expected subject %s", async (_what, expected_subject, result) => {
    const item = aVerification({ status: "processing", sequence: 2, expected_subject });
    const { deps } = setup({ item });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "completed", result });
    expect(outcomes(final)?.at(-1)).toEqual(["subject_match", result === "verified" ? "passed" : "failed"]);
    if (result === "rejected") expect(final?.reasons).toMatchObject([{ code: "subject_mismatch" }]);
  });

  it.each([
    ["the issuer is unavailable past the retry window", { kind: "unavailable", cause: "busy" } as const],
    ["no issuer is configured", "none" as const],
  ])("%s: in_review issuer_unavailable, with a 72 h review window; never verified", async (_what, authority) => {
    const { deps } = setup({ authority });

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "in_review",
      review_reason: "issuer_unavailable",
      review_required_at: NOW,
      review_deadline: "2026-11-25T12:10:00Z",
      sequence: 3,
    });
    expect(final).not.toHaveProperty("result");
    expect(final).not.toHaveProperty("completed_at");
    expect(outcomes(final)).toEqual([...passed([...BASICS, "barcode_found"]), ...skipped(PIPELINE.slice(1))]);
  });

  it("fields incomplete on the issuer's copy: in_review fields_incomplete, with what was read", async () => {
    const { deps } = setup({ lines: CERTIFICATE.filter((line) => !line.startsWith("Sınıfı")) });

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "in_review",
      review_reason: "fields_incomplete",
      extracted: { fields: { class_year: null, full_name: "AYŞE DENEME" } },
    });
    expect(final?.checks.find((check) => check.name === "fields_extracted")).toMatchObject({
      outcome: "failed",
      detail: "Missing or malformed: class_year",
    });
  });

  describe("a photo: the keys from its QR code, everything else from the issuer's copy", () => {
    const QR = ["https://www.turkiye.gov.tr/belge-dogrulama?barkod=YOK-7Q4M-2K9D&tckn=10000000146"];
    function photoSetup(type: "png" | "jpeg", fields: Partial<VerificationItem> = {}) {
      const item = aVerification({ status: "processing", sequence: 2, media_type: `image/${type}`, ...fields });
      const context = setup({ item, upload: documentBytes(type, 1024), lines: [], qrCodes: QR });
      context.reader.answer(UPLOAD, pageContent(CERTIFICATE));
      return context;
    }

    it.each(["png", "jpeg"] as const)(
      "a %s photo, nobody expected: in_review original_pdf_not_provided, the issuer's copy and its fields kept for review",
      async (type) => {
        const { documents, scripted, deps } = photoSetup(type);

        const final = await asked(deps);

        expect(final).toMatchObject({
          status: "in_review",
          review_reason: "original_pdf_not_provided",
          extracted: { source: "issuer_copy", fields: { full_name: "AYŞE DENEME" } },
          fraud_signals: ["upload_not_compared"],
        });
        expect(outcomes(final)?.slice(BASICS.length, BASICS.length + 2)).toEqual([
          ["barcode_found", "passed"],
          ["authority_match", "passed"],
        ]);
        expect(scripted.asked).toHaveLength(1);
        expect(documents.written).toHaveLength(1);
      },
    );

    it("the expected subject matches the issuer's copy: verified, the upload not compared", async () => {
      const { deps } = photoSetup("jpeg", { expected_subject: { full_name: "Ayşe Deneme", birth_date: "2004-03-17" } });

      const final = await asked(deps);

      expect(final).toMatchObject({ status: "completed", result: "verified", fraud_signals: ["upload_not_compared"] });
      expect(outcomes(final)).toEqual(passed([...BASICS, ...PIPELINE, "subject_match"]));
    });

    it("the expected subject is someone else: rejected subject_mismatch", async () => {
      const { deps } = photoSetup("png", { expected_subject: { full_name: "Zeynep Başka" } });

      expect(await asked(deps)).toMatchObject({ result: "rejected", reasons: [{ code: "subject_mismatch" }] });
    });

    it("the issuer's copy fails the type's rule: rejected by it, as a PDF would be", async () => {
      const { reader, deps } = photoSetup("png", { expected_subject: { full_name: "Ayşe Deneme" } });
      reader.answer(UPLOAD, pageContent(CERTIFICATE.map((line) => line.replace("Aktif", "Mezun"))));

      expect(await asked(deps)).toMatchObject({ result: "rejected", reasons: [{ code: "student_not_active" }] });
    });

    it("a scan (a PDF without a text layer) is a photo: verified from the copy when the subject matches", async () => {
      const scan = documentBytes("pdf", 1024);
      scan[200] = 0x42;
      const item = aVerification({ status: "processing", sequence: 2, expected_subject: { full_name: "AYŞE DENEME" } });
      const { reader, deps } = setup({ item, upload: scan, lines: [], qrCodes: QR });
      reader.answer(UPLOAD, pageContent(CERTIFICATE));

      expect(await asked(deps)).toMatchObject({ result: "verified", fraud_signals: ["upload_not_compared"] });
    });

    it.each([
      ["nobody expected: original_pdf_not_provided", {}, "original_pdf_not_provided"],
      [
        "a subject expected: issuer_unavailable",
        { expected_subject: { full_name: "AYŞE DENEME" } },
        "issuer_unavailable",
      ],
    ] as const)("the issuer unavailable, %s", async (_what, fields, reason) => {
      const item = aVerification({ status: "processing", sequence: 2, ...fields });
      const { deps } = setup({
        item,
        upload: documentBytes("png", 1024),
        lines: [],
        qrCodes: QR,
        authority: { kind: "unavailable", cause: "busy" },
      });

      expect(await asked(deps)).toMatchObject({ status: "in_review", review_reason: reason });
    });

    it("the issuer has no such document: rejected document_not_found_at_issuer", async () => {
      const item = aVerification({ status: "processing", sequence: 2 });
      const { deps } = setup({
        item,
        upload: documentBytes("png", 1024),
        lines: [],
        qrCodes: QR,
        authority: { kind: "not_found" },
      });

      expect(await asked(deps)).toMatchObject({
        result: "rejected",
        reasons: [{ code: "document_not_found_at_issuer" }],
      });
    });
  });

  it("a barcode without an identity number in a PDF (a bare-barcode QR code): in_review fields_incomplete, the issuer never asked", async () => {
    const { scripted, deps } = setup({
      lines: CERTIFICATE.filter((line) => !/^(Barkod|T\.C\.)/.test(line)),
      qrCodes: ["YOK-7Q4M-2K9D"],
    });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "in_review", review_reason: "fields_incomplete" });
    expect(final?.checks.find((check) => check.name === "barcode_found")).toMatchObject({
      outcome: "failed",
      detail: "Barcode YOK-7Q4M-2K9D was read, but no identity number to ask the issuer with",
    });
    expect(scripted.asked).toEqual([]);
  });

  describe("the document's age, with max_document_age_days", () => {
    // NOW is 2026-11-22 in Türkiye too.
    const dated = (date: string) => [...CERTIFICATE, `Belge Tarihi : ${date} 10:42`];

    it.each([
      ["issued on the last day allowed", "23.10.2026", 30, "verified", "passed"],
      ["issued the day before", "22.10.2026", 30, "rejected", "failed"],
      ["issued today", "22.11.2026", 1, "verified", "passed"],
    ] as const)("%s: %s", async (_what, date, days, result, outcome) => {
      const item = aVerification({ status: "processing", sequence: 2, max_document_age_days: days });
      const { deps } = setup({ item, lines: dated(date) });

      const final = await asked(deps);

      expect(final).toMatchObject({ status: "completed", result });
      expect(outcomes(final)?.at(-1)).toEqual(["document_fresh", outcome]);
      if (result === "rejected") expect(final?.reasons).toMatchObject([{ code: "document_too_old" }]);
    });

    it("read from the issuer's copy, not the upload", async () => {
      const copy = documentBytes("pdf", 1024);
      copy[100] = 0x41;
      const item = aVerification({ status: "processing", sequence: 2, max_document_age_days: 30 });
      const { reader, deps } = setup({ item, authority: found(copy), lines: dated("20.11.2026") });
      reader.answer(copy, pageContent(dated("01.01.2026")));

      // Other text: the upload's own date is an alteration, and nothing is read from it.
      expect(await asked(deps)).toMatchObject({ result: "rejected", reasons: [{ code: "document_altered" }] });
    });

    it("no issue date printed: in_review fields_incomplete", async () => {
      const item = aVerification({ status: "processing", sequence: 2, max_document_age_days: 30 });
      const { deps } = setup({ item });

      const final = await asked(deps);

      expect(final).toMatchObject({ status: "in_review", review_reason: "fields_incomplete" });
      expect(final?.checks.find((check) => check.name === "document_fresh")).toMatchObject({ outcome: "failed" });
    });

    it("is not checked without the limit", async () => {
      const { deps } = setup({ lines: dated("01.01.2020") });

      const final = await asked(deps);

      expect(final).toMatchObject({ result: "verified" });
      expect(final?.checks.map((check) => check.name)).not.toContain("document_fresh");
    });
  });

  it("a photo with no QR code still goes to review, the issuer never asked", async () => {
    const item = aVerification({ status: "processing", sequence: 2 });
    const { scripted, deps } = setup({ item, upload: documentBytes("png", 1024), lines: [] });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "in_review", review_reason: "original_pdf_not_provided" });
    expect(scripted.asked).toEqual([]);
  });
});

describe("processVerification: the keys a reviewer sees", () => {
  const MASKED = { barcode: "YOK-7Q4M-2K9D", identity_number_masked: "10*******46" };

  it("records the barcode and the masked identity number with the decision, for staff only", async () => {
    const { documents, deps } = setup();

    const final = await asked(deps);
    if (!final) throw new Error("Nothing stored");

    expect(final.document_keys).toEqual(MASKED);
    const staff = await staffView({ documents, apps: new InMemoryAppStore(), clock: new FixedClock(NOW) }, final);
    expect(staff.document_keys).toEqual(MASKED);
    const resource = toResource(final, NOW);
    expect(resource).not.toHaveProperty("document_keys");
    expect(JSON.stringify(resource)).not.toContain(MASKED.identity_number_masked);
    expect(JSON.stringify(staff)).not.toContain("10000000146");
  });

  it("records what a photo's QR code gave when it lacks the identity number, and goes to review", async () => {
    const { deps } = setup({
      upload: documentBytes("png", 1024),
      lines: [],
      qrCodes: ["https://www.turkiye.gov.tr/belge-dogrulama?barkod=YOK-7Q4M-2K9D"],
    });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "in_review", review_reason: "original_pdf_not_provided" });
    expect(final?.document_keys).toEqual({ barcode: "YOK-7Q4M-2K9D", identity_number_masked: null });
  });

  it("records none when the checks never looked (an outcome a sandbox prefix forced), and the staff view says null", async () => {
    const item = aVerification({ status: "processing", sequence: 2, external_reference_id: "test_verified_a" });
    const { documents, deps } = setup({ item });

    const final = await asked(deps);
    if (!final) throw new Error("Nothing stored");

    expect(final).not.toHaveProperty("document_keys");
    expect(
      (await staffView({ documents, apps: new InMemoryAppStore(), clock: new FixedClock(NOW) }, final)).document_keys,
    ).toBeNull();
  });

  it("are erased with the person", async () => {
    const { verifications, documents, deps } = setup();
    const final = await asked(deps);
    if (!final) throw new Error("Nothing stored");

    const erased = await erase({ verifications, documents, clock: new FixedClock(NOW) }, final);

    expect(erased.outcome).toBe("erased");
    expect(verifications.stored(ID)).not.toHaveProperty("document_keys");
    expect(
      (await staffView({ documents, apps: new InMemoryAppStore(), clock: new FixedClock(NOW) }, erased.item))
        .document_keys,
    ).toBeNull();
  });
});

describe("processVerification: the evidence", () => {
  it("pins the upload before reading it when the confirm could not, and reads only the pinned copy", async () => {
    const { documents, deps } = setup();

    const final = await asked(deps);

    expect(documents.copies).toEqual([{ from: KEY, to: `${KEY}.evidence` }]);
    expect(final).toMatchObject({ status: "completed", result: "verified" });
  });

  it("keeps the copy pinned at confirm: a later upload to the URL changes nothing it reads", async () => {
    const { documents, deps } = setup();
    documents.upload(`${KEY}.evidence`, UPLOAD);
    // A second PUT with the still-valid URL, of another size: the checks would fail on it.
    documents.upload(KEY, documentBytes("pdf", 999));

    const final = await asked(deps);

    expect(documents.copies).toEqual([]);
    expect(final).toMatchObject({ status: "completed", result: "verified" });
  });
});

describe("processVerification: sandbox reference prefixes force the outcome for any readable file", () => {
  it.each([
    ["test_verified_a", { status: "completed", result: "verified", reasons: [] }],
    [
      "test_rejected_a",
      { status: "completed", result: "rejected", reasons: [{ code: "document_not_found_at_issuer" }] },
    ],
    ["test_inconclusive_a", { status: "completed", result: "inconclusive", reasons: [{ code: "review_timeout" }] }],
    ["test_failed_a", { status: "failed", failure_code: "document_unreadable" }],
    ["test_review_verified_a", { status: "in_review", review_reason: "review_requested" }],
    ["test_review_rejected_a", { status: "in_review", review_reason: "review_requested" }],
  ])("%s", async (reference, expected) => {
    const item = aVerification({ status: "processing", sequence: 2, external_reference_id: reference });
    const { scripted, deps } = setup({ item, lines: [] });

    const final = await asked(deps);

    expect(final).toMatchObject(expected);
    expect(outcomes(final)).toEqual([...passed(BASICS), ...skipped(PIPELINE)]);
    expect(scripted.asked).toEqual([]);
    // Kept for the message, which says the outcome was forced, also once the reference is erased.
    expect(final?.sandbox_prefix).toBe(reference.slice(0, -1));
  });

  it("says the outcome was forced, in the message and in the reason, never that the issuer confirmed it", async () => {
    for (const reference of ["test_verified_a", "test_rejected_a", "test_failed_a"]) {
      const item = aVerification({ status: "processing", sequence: 2, external_reference_id: reference });
      const { deps } = setup({ item, lines: [] });
      const final = await asked(deps);
      if (!final) throw new Error("Nothing stored");
      const forced = `The sandbox reference prefix ${reference.slice(0, -1)} forced this outcome`;
      const { message, reasons } = toResource({ ...final, external_reference_id: undefined }, NOW);
      expect(message).toContain(forced);
      expect(message).not.toMatch(/issuer (confirmed|has no)|could not be read/);
      for (const reason of reasons) expect(reason.message).toContain(forced);
    }
  });

  it("production ignores them", async () => {
    const item = aVerification({
      status: "processing",
      sequence: 2,
      environment: "production",
      external_reference_id: "test_verified_a",
    });
    const { deps } = setup({ item, lines: ["Başka bir belge"] });

    expect(await asked(deps)).toMatchObject({ status: "completed", result: "rejected" });
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

      const final = await asked(deps);

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
    reader.refusal = { code: "pdf_unreadable", params: {} };

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "failed", failure_code: "document_unreadable" });
    expect(final?.checks.at(-1)).toEqual({
      name: "document_readable",
      outcome: "failed",
      detail: "The PDF could not be read",
      detail_code: "pdf_unreadable",
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

    expect(await asked(deps)).toEqual(item);
    expect(verifications.transitions).toEqual([]);
    expect(reader.opened).toEqual([]);
  });

  it("returns undefined for a verification that does not exist", async () => {
    const { deps } = setup();

    expect(await asked(deps, verificationId(2))).toBeUndefined();
  });

  it("writes only from the state it read: the sequence it saw is the guard", async () => {
    const { verifications, deps } = setup();

    await asked(deps);

    expect(verifications.transitions).toEqual([
      expect.objectContaining({
        from: "processing",
        to: "completed",
        now: NOW,
        expect: { sequence: 2 },
      }),
    ]);
  });

  it("when another run finished first, writes nothing and returns what that run stored", async () => {
    const { verifications, scripted, deps } = setup({ authority: { kind: "not_found" } });
    // While this run waits on the issuer, another run completes the verification.
    const lookup = scripted.lookup.bind(scripted);
    scripted.lookup = async (request) => {
      await verifications.transition({
        id: ID,
        from: "processing",
        to: "completed",
        now: "2026-11-22T12:09:59Z",
        set: { result: "verified", checks: [], reasons: [], completed_at: "2026-11-22T12:09:59Z" },
      });
      return lookup(request);
    };

    const final = await asked(deps);

    expect(final).toMatchObject({
      status: "completed",
      result: "verified",
      sequence: 3,
      completed_at: "2026-11-22T12:09:59Z",
    });
    expect(verifications.stored(ID)).toEqual(final);
  });
});

describe("processVerification: a verification by its keys (no upload)", () => {
  const BARCODE = "YOK-7Q4M-2K9D";
  const NUMBER = "10000000146";
  /** Created by `document_keys`: straight in processing, the number sealed for this verification. */
  const byKeys = (fields: Partial<VerificationItem> = {}) =>
    aVerification({
      status: "processing",
      sequence: 2,
      original_filename: undefined,
      file_size_bytes: undefined,
      media_type: undefined,
      submitted_keys: { barcode: BARCODE, identity_number_sealed: tagSealed(NUMBER) },
      ...fields,
    });

  it("asks with the keys sent, decides on the issuer's copy alone, and forgets the sealed number", async () => {
    const { verifications, scripted, deps } = setup({ upload: null, item: byKeys() });

    const final = await asked(deps);

    expect(scripted.asked).toEqual([{ documentType: "YOK_STUDENT", barcode: BARCODE, identityNumber: NUMBER }]);
    expect(deps.sealer.contexts).toEqual([`${final?.app_id}/${ID}`]);
    expect(final).toMatchObject({ status: "completed", result: "verified", issuer_copy_key: `${KEY}.issuer-copy` });
    expect(outcomes(final)).toEqual(passed(PIPELINE));
    expect(final?.extracted).toMatchObject({ source: "issuer_copy", fields: { barcode: BARCODE } });
    expect(final?.submitted_keys).toEqual({ barcode: BARCODE });
    expect(final?.document_keys).toEqual({ barcode: BARCODE, identity_number_masked: "10*******46" });
    expect(JSON.stringify(verifications.stored(ID))).not.toContain(NUMBER);
  });

  it("rejects keys the issuer has no document for, the number forgotten with the answer", async () => {
    const { deps } = setup({ upload: null, item: byKeys(), authority: { kind: "not_found" } });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "completed", result: "rejected" });
    expect(final?.reasons.map((reason) => reason.code)).toEqual(["document_not_found_at_issuer"]);
    expect(final?.submitted_keys).toEqual({ barcode: BARCODE });
    expect(final?.extracted).toBeUndefined();
  });

  it("with no issuer configured, waits for a person and removes the sealed number with the decision", async () => {
    const { deps } = setup({ upload: null, item: byKeys(), authority: "none" });

    const final = await processVerification(deps, ID);

    expect(final).toMatchObject({ status: "in_review", review_reason: "issuer_unavailable" });
    expect(final?.submitted_keys).toEqual({ barcode: BARCODE });
    expect(deps.sealer.opens).toBe(0);
  });

  it("a processor that may not ask only sends the lookup to the queue, and never opens the number", async () => {
    const { queue, deps } = setup({ upload: null, item: byKeys() });

    const pending = await processVerification(deps, ID);

    expect(pending).toMatchObject({ status: "processing" });
    expect(queue.messages).toHaveLength(1);
    expect(deps.sealer.opens).toBe(0);
  });
});

describe("processVerification: the expected identity number", () => {
  const expecting = async (number: string) =>
    aVerification({
      status: "processing",
      sequence: 2,
      expected_subject: { identity_number_digest: await new KeyedDigest().digest(number) },
    });

  it("passes subject_match when the number the document's keys carry is the expected one, and drops the digest", async () => {
    const { deps } = setup({ item: await expecting("10000000146") });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "completed", result: "verified" });
    expect(outcomes(final)?.at(-1)).toEqual(["subject_match", "passed"]);
    // The digest was all of it: nothing is left, not even an empty map (the change stream cannot read one back).
    expect(final).not.toHaveProperty("expected_subject");
  });

  it("rejects another number: subject_mismatch", async () => {
    const { deps } = setup({ item: await expecting("10000000214") });

    const final = await asked(deps);

    expect(final).toMatchObject({ status: "completed", result: "rejected" });
    expect(final?.reasons.map((reason) => reason.code)).toEqual(["subject_mismatch"]);
    expect(final).not.toHaveProperty("expected_subject");
  });

  it("keeps the rest of the expected subject, without the digest", async () => {
    const item = await expecting("10000000146");
    const { deps } = setup({
      item: { ...item, expected_subject: { ...item.expected_subject, full_name: "AYŞE DENEME" } },
    });

    const final = await asked(deps);

    expect(final).toMatchObject({ result: "verified", expected_subject: { full_name: "AYŞE DENEME" } });
    expect(final?.expected_subject).not.toHaveProperty("identity_number_digest");
  });
});
