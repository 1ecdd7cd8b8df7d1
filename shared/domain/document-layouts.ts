/**
 * Each document type's layout, from the registry: the labels it reads, the extracted schema,
 * and where its issue date is printed.
 */
import { issueDate } from "./certificates/issue-date.ts";
import { readLabelled } from "./certificates/labels.ts";
import type { CertificateLayout } from "./certificates/layout.ts";
import { DOCUMENT_REGISTRY, type DocumentType, type Registry, registryEntry } from "./document-registry.ts";
import * as z from "./zod.ts";

/** A layout as the pipeline sees any of them. */
export type AnyLayout = CertificateLayout<string, Record<string, unknown>>;

type Entry = (typeof DOCUMENT_REGISTRY)[number];

/** The layout of every document type, by its code. */
export const DOCUMENT_LAYOUTS = Object.fromEntries(DOCUMENT_REGISTRY.map((entry) => [entry.code, entry.layout])) as {
  [E in Entry as E["code"]]: E["layout"];
};

type ExtractedOption<E extends Entry> = z.ZodMiniObject<
  {
    schema: z.ZodMiniLiteral<E["layout"]["schema"]>;
    source: z.ZodMiniLiteral<"issuer_copy">;
    fields: E["layout"]["fieldsSchema"];
  },
  z.core.$strict
>;
type ExtractedOptions<T extends readonly Entry[]> = { -readonly [K in keyof T]: ExtractedOption<T[K]> };

/** One `extracted` shape per type of `registry`: its schema name and its fields. */
export function extractedOptions(registry: Registry) {
  return registry.map((entry) =>
    z.strictObject({
      schema: z.literal(entry.layout.schema),
      source: z.literal("issuer_copy"),
      fields: entry.layout.fieldsSchema,
    }),
  );
}

/** `extracted`: the fields read from the issuer's copy, in the schema of the document's type. */
export const extractedSchema = z.discriminatedUnion(
  "schema",
  extractedOptions(DOCUMENT_REGISTRY) as unknown as ExtractedOptions<typeof DOCUMENT_REGISTRY>,
);

/** The layout of `documentType`, seen as any layout: the pipeline reads every type the same way. */
export function layoutOf(documentType: DocumentType): AnyLayout {
  return DOCUMENT_LAYOUTS[documentType] as AnyLayout;
}

/** The type rule of `documentType`, seen as any rule; null when the type has none. */
export function ruleOf(documentType: DocumentType) {
  return registryEntry(documentType).rule as Registry[number]["rule"];
}

/**
 * The issue date printed on a document of `documentType`, from its text lines: the value after
 * one of the type's issue-date labels, `DD.MM.YYYY` maybe followed by a time, as ISO
 * `YYYY-MM-DD`; null when it is not printed or malformed.
 */
export function issueDateOf(documentType: DocumentType, lines: readonly string[]): string | null {
  const printed = readLabelled(lines, { issued_at: registryEntry(documentType).issueDateLabels }).issued_at;
  return printed === undefined ? null : (issueDate(printed) ?? null);
}
