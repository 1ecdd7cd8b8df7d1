/**
 * Everything under docs/test-documents/, made from the catalogue: the uploads, what the sandbox's
 * e-Devlet holds (`issuer/<DOCUMENT_TYPE>/<barcode>.pdf` or `.busy`) and the README.
 * The files are committed; a test regenerates them and compares bytes, so the published set
 * never drifts from the generator.
 */
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { SANDBOX_PREFIXES, SANDBOX_REVIEW_DELAY_MS } from "#shared/domain/sandbox";
import { CATALOGUE, type CatalogueEntry, type Upload } from "./catalogue.ts";
import { type CertificateSpec, certificatePdf, certificatePhoto, qrText } from "./certificate.ts";
import { encryptPdf } from "./encrypt.ts";
import { templateOf } from "./templates.ts";

export interface PublishedFile {
  /** Relative to docs/test-documents/, with forward slashes. */
  path: string;
  bytes: Uint8Array;
}

/** Where the sandbox's e-Devlet keeps what it holds for an entry's barcode, if anything. */
export function issuerPath(entry: CatalogueEntry): string | undefined {
  const barcode = entry.upload.spec.barcode;
  if (entry.issuer.kind === "nothing" || barcode === undefined) return undefined;
  const base = `issuer/${entry.documentType}/${barcode}`;
  return entry.issuer.kind === "busy" ? `${base}.busy` : `${base}.pdf`;
}

/** Several entries share a certificate; each is drawn once. */
function memoisedPdf(): (spec: CertificateSpec) => Promise<Uint8Array> {
  const made = new Map<CertificateSpec, Promise<Uint8Array>>();
  return (spec) => {
    let bytes = made.get(spec);
    if (!bytes) {
      bytes = certificatePdf(spec);
      made.set(spec, bytes);
    }
    return bytes;
  };
}

/**
 * A PDF loaded and saved again the way another writer would: its objects packed into object
 * streams, so the bytes differ while every page draws the same text.
 */
async function resaved(bytes: Uint8Array): Promise<Uint8Array> {
  const document = await PDFDocument.load(bytes, { updateMetadata: false });
  return document.save({ useObjectStreams: true, updateFieldAppearances: false });
}

async function uploadBytes(upload: Upload, pdf: (spec: CertificateSpec) => Promise<Uint8Array>): Promise<Uint8Array> {
  switch (upload.kind) {
    case "pdf":
      return pdf(upload.spec);
    case "encrypted-pdf":
      return encryptPdf(await pdf(upload.spec), { user: upload.password, owner: `${upload.password}-owner` });
    case "photo":
      return certificatePhoto(upload.spec, upload.format);
    case "resaved-pdf":
      return resaved(await pdf(upload.spec));
  }
}

const code = (text: string) => `\`${text}\``;

function createBody(entry: CatalogueEntry, size: number): string {
  return JSON.stringify({
    document_type: entry.documentType,
    original_filename: entry.file,
    file_size_bytes: size,
    ...entry.create,
  });
}

function holds(entry: CatalogueEntry): string {
  const where = issuerPath(entry);
  switch (entry.issuer.kind) {
    case "document":
      return `[${code(where ?? "")}](${where}): ${entry.issuer.description}`;
    case "busy":
      return (
        `[${code(where ?? "")}](${where}) (empty): the sandbox's e-Devlet answers busy for this barcode; ` +
        "the verification is retried for 15 minutes, then waits in review"
      );
    case "nothing":
      if (entry.upload.kind === "encrypted-pdf") return "nothing (never asked: the file cannot be read)";
      return entry.upload.spec.barcode === undefined
        ? "nothing (there is no barcode to ask about)"
        : `nothing for ${code(entry.upload.spec.barcode)}`;
  }
}

function forcedOutcome(outcome: (typeof SANDBOX_PREFIXES)[keyof typeof SANDBOX_PREFIXES]): string {
  switch (outcome.kind) {
    case "completed":
      return `${code("completed")} / ${code(outcome.result)} / ${code(outcome.reasonCode)}`;
    case "failed":
      return `${code("failed")} / - / ${code(outcome.reasonCode)}`;
    case "review":
      return (
        `${code("in_review")}, then about ${SANDBOX_REVIEW_DELAY_MS / 1000} s later ` +
        `${code("completed")} / ${code(outcome.decision.result)} / ${code(outcome.decision.reasonCode)}`
      );
  }
}

/** A row per catalogue entry: the file, what it exercises, its create body and the outcome it ends in. */
function outcomeRows(sizes: ReadonlyMap<string, number>): string[][] {
  return CATALOGUE.map((entry) => {
    const size = sizes.get(entry.file) ?? 0;
    const expected = entry.expected;
    return [
      `[${code(entry.file)}](${entry.file})`,
      code(entry.documentType),
      entry.exercises,
      code(createBody(entry, size)),
      holds(entry),
      code(expected.status),
      expected.result === null ? "-" : code(expected.result),
      code(expected.reason_code),
    ];
  });
}

/** A row per file: its size and what it prints of the person, the barcode and the QR code. */
function peopleRows(sizes: ReadonlyMap<string, number>): string[][] {
  return [...new Map(CATALOGUE.map((entry) => [entry.file, entry])).values()].map((entry) => {
    const spec = entry.upload.spec;
    const template = templateOf(spec.documentType);
    const name = template.holder(spec.fields) ?? "-";
    const status = template.state(spec.fields) ?? "-";
    const qr = qrText(spec);
    return [
      `[${code(entry.file)}](${entry.file})`,
      code(`${sizes.get(entry.file) ?? 0}`),
      name,
      code(spec.identityNumber),
      spec.barcode === undefined ? "-" : code(spec.barcode),
      status,
      qr === undefined ? "-" : code(qr),
    ];
  });
}

/** A Markdown table. */
const table = (header: string[], body: string[][]) =>
  [
    `| ${header.join(" | ")} |`,
    `|${header.map(() => "---").join("|")}|`,
    ...body.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");

function readme(sizes: ReadonlyMap<string, number>): string {
  const rows = outcomeRows(sizes);
  const people = peopleRows(sizes);
  const prefixes = Object.entries(SANDBOX_PREFIXES).map(([prefix, outcome]) => [code(prefix), forcedOutcome(outcome)]);

  return `# Test documents

Synthetic e-Devlet certificates for trying every outcome of a verification in the sandbox: one
file per row of the decision table that a document can exercise. **Every name, T.C. identity
number, barcode, address, employer, institution and record in these files is invented**; none belongs to a real
person, and the certificates say so on their face (\`SENTETİK TEST BELGESİ\`).

## Trying one

1. Create a verification in the sandbox with the body in the table (\`POST /v1/verifications\`,
   with your sandbox key and an \`Idempotency-Key\`). \`file_size_bytes\` is the file's exact size.
2. \`PUT\` the file to \`upload.url\` with the headers in \`upload.headers\`, then
   \`POST /v1/verifications/{id}/upload-complete\`.
3. Fetch the verification (or wait for its webhook): it ends in the \`status\`, \`result\` and
   \`reason_code\` below. \`in_review\` waits for a reviewer.

${table(["File", "document_type", "Exercises", "Create body", "The sandbox's e-Devlet holds", "status", "result", "reason_code"], rows)}

\`yok-active.pdf\` appears twice: sent with an \`expected_subject\` about someone else, it is
rejected with \`subject_mismatch\` (the birth date matches, the name does not). Sent with the
printed name and birth date, in any case, it stays \`verified\`.

\`yok-active-resaved.pdf\` is \`yok-active.pdf\` loaded and saved again by another PDF writer:
other bytes, the same text on every page, so it is verified with
\`fraud_signals: ["not_original_file"]\`. \`yok-active-resaved-altered.pdf\` is saved the same way
after one value was edited (\`3. Sınıf\` into \`4. Sınıf\`), so its text differs from the issuer's
copy: \`document_altered\`.

Every certificate prints its issue date after its type's label (\`Belge Tarihi\`, \`Düzenlenme
Tarihi\`, ..., see each type's page under \`docs/document-types/\`), a fixed date in 2026, except
\`edevlet-document-undated.pdf\`, which prints none: with \`max_document_age_days\` it waits in
review (\`fields_incomplete\`).

## What each file carries

${table(["File", "Size (bytes)", "Name", "T.C. Kimlik No", "Barcode", "What it shows", "QR code"], people)}

The PDFs have a text layer (\`label : value\` lines in Turkish, set differently from file to
file: upper-case or ASCII labels, missing colons, values split into several text runs, another
field order) and a QR code. Most QR codes carry what real certificates carry, the payload
e-Devlet's own verification app reads:
\`barkodlubelgedogrulama://barkod: <barcode>;tckn:<T.C. Kimlik No>\`. Some print it another way
(no scheme, upper case, a trailing \`;\`, a link after the pairs), and a few carry a verification
link or just the barcode instead, as the last column shows. The photos show the certificate's text
(readable by eye, to compare with its PDF) but have no text layer: only the QR code is read. The fields are read from the issuer's copy, never from an upload the issuer did not
confirm.

## What the sandbox's e-Devlet holds

\`issuer/<DOCUMENT_TYPE>/<barcode>.pdf\` is the issuer's copy the sandbox's e-Devlet returns for a
barcode, when it is asked with the identity number printed in that PDF;
\`issuer/<DOCUMENT_TYPE>/<barcode>.busy\` (an empty file) makes it answer busy for that barcode,
so the verification is retried for 15 minutes, then waits in review. The local runtime
(\`npm start\`) serves the same folder.

## Forcing an outcome instead

In the sandbox, an \`external_reference_id\` that starts with one of these prefixes forces the
outcome for any readable file, whatever it contains. Production ignores them.

${table(["Prefix", "Outcome (status / result / reason_code)"], prefixes)}

## Regenerating

These files are made by \`scripts/test-documents/\` (\`npm run test-documents\`). A test makes
them again and compares them byte for byte, so change the generator, not the files.
`;
}

/** A checkout must not convert line endings: the files are compared with a fresh run byte for byte. */
const GIT_ATTRIBUTES = "# Made by scripts/test-documents (npm run test-documents); compared byte for byte.\n* -text\n";

/** Every file of docs/test-documents/, sorted by path. */
export async function publishedFiles(): Promise<PublishedFile[]> {
  const pdf = memoisedPdf();
  const files = new Map<string, Uint8Array>();
  const add = (file: string, bytes: Uint8Array) => {
    const existing = files.get(file);
    if (existing && Buffer.compare(existing, bytes) !== 0) throw new Error(`Two different files for ${file}`);
    files.set(file, bytes);
  };
  for (const entry of CATALOGUE) {
    add(entry.file, await uploadBytes(entry.upload, pdf));
    const where = issuerPath(entry);
    if (where === undefined) continue;
    if (entry.issuer.kind === "document") {
      if (entry.issuer.spec.barcode !== entry.upload.spec.barcode) throw new Error(`${entry.file}: barcodes differ`);
      add(where, await pdf(entry.issuer.spec));
    } else {
      add(where, new Uint8Array(0));
    }
  }
  const sizes = new Map([...files].map(([file, bytes]) => [file, bytes.length]));
  add("README.md", new TextEncoder().encode(readme(sizes)));
  add(".gitattributes", new TextEncoder().encode(GIT_ATTRIBUTES));
  return [...files]
    .map(([file, bytes]) => ({ path: file, bytes }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** The files under `folder`, as relative paths with forward slashes. */
export async function filesUnder(folder: string, prefix = ""): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const nested = await Promise.all(
    entries.map((entry) =>
      entry.isDirectory()
        ? filesUnder(path.join(folder, entry.name), `${prefix}${entry.name}/`)
        : Promise.resolve([`${prefix}${entry.name}`]),
    ),
  );
  return nested.flat();
}

/** Writes the published set into `target`, removing files there that are no longer part of it. */
export async function writeTestDocuments(target: string): Promise<PublishedFile[]> {
  const files = await publishedFiles();
  const wanted = new Set(files.map((file) => file.path));
  for (const stale of await filesUnder(target)) {
    if (!wanted.has(stale)) await rm(path.join(target, stale));
  }
  for (const file of files) {
    const destination = path.join(target, ...file.path.split("/"));
    await mkdir(path.dirname(destination), { recursive: true });
    await writeFile(destination, file.bytes);
  }
  return files;
}
