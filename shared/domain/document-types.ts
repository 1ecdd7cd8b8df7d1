/**
 * What the functions that never read a document need of the document types: their codes, the
 * file types each accepts and its size cap, their rules' reasons and sentences. They come from
 * `type-facts.ts`, which `npm run openapi` writes from the registry (`document-registry.ts`)
 * without the layouts, so that these functions do not carry every type's reader.
 */
import { createHash } from "node:crypto";
import type { DocumentType } from "./document-registry.ts";
import { TYPE_FACTS } from "./type-facts.ts";

export type { DocumentType } from "./document-registry.ts";

export const MiB = 1024 * 1024;

/** File types the service can recognise by their first bytes. */
export const FILE_TYPES = {
  pdf: { mediaType: "application/pdf", extensions: [".pdf"], magic: [[0x25, 0x50, 0x44, 0x46, 0x2d]] },
  jpeg: { mediaType: "image/jpeg", extensions: [".jpg", ".jpeg"], magic: [[0xff, 0xd8, 0xff]] },
  png: {
    mediaType: "image/png",
    extensions: [".png"],
    magic: [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]],
  },
} as const satisfies Record<string, { mediaType: string; extensions: readonly string[]; magic: readonly number[][] }>;

export type FileType = keyof typeof FILE_TYPES;

/** How many leading bytes `sniffFileType` needs to see. */
export const SNIFF_BYTES = Math.max(...Object.values(FILE_TYPES).flatMap((t) => t.magic.map((m) => m.length)));

/**
 * What the derivations below read of a list of types: the registry, its facts (`TYPE_FACTS`), or
 * a registry made in a test.
 */
export type TypeList = readonly {
  code: string;
  rule: { check: string; reasonCode: string; message: string; finding: string } | null;
}[];

/** The type codes, in the list's order. */
export function typeCodes<L extends TypeList>(types: L): L[number]["code"][] {
  return types.map((entry) => entry.code);
}

type RuleOf<L extends TypeList> = NonNullable<L[number]["rule"]>;

/** The rules of the types that have one, in the list's order. */
export function rulesOf<L extends TypeList>(types: L): RuleOf<L>[] {
  return types.flatMap((entry) => (entry.rule === null ? [] : [entry.rule as RuleOf<L>]));
}

/** Each rule reason's sentence on the resource. */
export function ruleReasonMessages<L extends TypeList>(types: L): Record<RuleOf<L>["reasonCode"], string> {
  return Object.fromEntries(rulesOf(types).map((rule) => [rule.reasonCode, rule.message])) as Record<
    RuleOf<L>["reasonCode"],
    string
  >;
}

/** Each rule reason's reviewer finding. */
export function ruleFindings<L extends TypeList>(types: L): Record<RuleOf<L>["reasonCode"], string> {
  return Object.fromEntries(rulesOf(types).map((rule) => [rule.reasonCode, rule.finding])) as Record<
    RuleOf<L>["reasonCode"],
    string
  >;
}

type Facts = (typeof TYPE_FACTS)[number];

/** Each type's facts, by its code. */
export const DOCUMENT_TYPES = Object.fromEntries(TYPE_FACTS.map((facts) => [facts.code, facts])) as {
  [F in Facts as F["code"]]: F;
};

export const DOCUMENT_TYPE_CODES = typeCodes(TYPE_FACTS) as [DocumentType, ...DocumentType[]];

/** The largest file any document type accepts. */
export const MAX_FILE_SIZE_BYTES = Math.max(...Object.values(DOCUMENT_TYPES).map((d) => d.maxFileSizeBytes));

export function fileTypeOfName(filename: string): FileType | undefined {
  const dot = filename.lastIndexOf(".");
  if (dot < 0) return undefined;
  const extension = filename.slice(dot).toLowerCase();
  return (Object.keys(FILE_TYPES) as FileType[]).find((type) =>
    (FILE_TYPES[type].extensions as readonly string[]).includes(extension),
  );
}

export function allowedExtensions(documentType: DocumentType): string[] {
  return DOCUMENT_TYPES[documentType].fileTypes.flatMap((type) => [...FILE_TYPES[type].extensions]);
}

/** The file type whose magic bytes start `head`, if any. */
export function sniffFileType(head: Uint8Array): FileType | undefined {
  return (Object.keys(FILE_TYPES) as FileType[]).find((type) =>
    FILE_TYPES[type].magic.some((magic) => magic.every((byte, i) => head[i] === byte)),
  );
}

/** Whether two documents are the same bytes, judged as the contract says: by their SHA-256. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
  return a.byteLength === b.byteLength && digest(a) === digest(b);
}

export function acceptsFileType(documentType: DocumentType, fileType: FileType): boolean {
  return (DOCUMENT_TYPES[documentType].fileTypes as readonly FileType[]).includes(fileType);
}
