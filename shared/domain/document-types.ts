/**
 * The document-type registry. A new document type is one entry here: the file types it
 * accepts, its size cap and the checks of its own that the pipeline runs.
 */

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

/** Checks a document type may add to the ones every verification runs. */
export const TYPE_CHECKS = ["authority_confirmation"] as const;
export type TypeCheck = (typeof TYPE_CHECKS)[number];

export interface DocumentTypeDefinition {
  description: string;
  fileTypes: readonly FileType[];
  maxFileSizeBytes: number;
  /** The type's own checks, run after the common ones. */
  checks: readonly TypeCheck[];
}

export const DOCUMENT_TYPES = {
  YOK_STUDENT: {
    description: "Turkish higher-education (YÖK) student certificate",
    fileTypes: ["pdf", "jpeg", "png"],
    maxFileSizeBytes: 10 * MiB,
    // The issuer's barcode service confirms the certificate.
    checks: ["authority_confirmation"],
  },
} as const satisfies Record<string, DocumentTypeDefinition>;

export type DocumentType = keyof typeof DOCUMENT_TYPES;
export const DOCUMENT_TYPE_CODES = Object.keys(DOCUMENT_TYPES) as [DocumentType, ...DocumentType[]];

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

export function acceptsFileType(documentType: DocumentType, fileType: FileType): boolean {
  return (DOCUMENT_TYPES[documentType].fileTypes as readonly FileType[]).includes(fileType);
}
