/**
 * The parts of the guides that list the document types, written from the registry: the types
 * table of each integration guide (English and Turkish) and the rule reasons a reviewer may
 * reject with in the backoffice guide. Each lives in its page between two markers,
 * `<!-- registry: NAME -->` and `<!-- /registry: NAME -->`; the prose around them is written by
 * hand. `npm run openapi` rewrites them; a test fails when a committed page differs from a
 * fresh rendering.
 */
import type { Registry, Words } from "#shared/domain/document-registry";
import { FILE_TYPES, MiB, rulesOf } from "#shared/domain/document-types";

type Language = keyof Words;

export interface DocsSection {
  /** The page, from the project's root. */
  file: string;
  name: string;
  render(registry: Registry): string;
}

const TABLE_HEADS: Record<Language, string[]> = {
  en: [
    "`document_type`",
    "the document",
    "its rule: the check, and the reason when it fails",
    "`extracted.schema`",
    "files",
  ],
  tr: ["`document_type`", "belge", "kuralı: denetim ve sağlanmadığında neden", "`extracted.schema`", "dosyalar"],
};

const NO_RULE: Words = { en: "none: authenticity only", tr: "yok: yalnızca özgünlük" };
const OTHERWISE: Words = { en: "else", tr: "değilse" };
const UP_TO: Words = { en: "up to", tr: "en çok" };

/** Each type in a row: its code linked to its page, what it is, its rule, its schema, its files. */
function typesTable(registry: Registry, language: Language, pages: string): string {
  const row = (cells: string[]) => `| ${cells.join(" | ")} |`;
  const rows = registry.map((entry) => {
    const rule = entry.rule
      ? `\`${entry.rule.check}\` (${entry.rule.labels.check[language]}), ${OTHERWISE[language]} \`${entry.rule.reasonCode}\``
      : NO_RULE[language];
    const files = entry.fileTypes.map((type) => FILE_TYPES[type].extensions.join(", ")).join(", ");
    return row([
      `[\`${entry.code}\`](${pages}${entry.code}.md)`,
      entry.description[language],
      rule,
      `\`${entry.layout.schema}\``,
      `${files}; ${UP_TO[language]} ${entry.maxFileSizeBytes / MiB} MiB`,
    ]);
  });
  return [row(TABLE_HEADS[language]), row(TABLE_HEADS[language].map(() => "---")), ...rows].join("\n");
}

/** Each type rule's reason, as the console offers it: its code, its labels, its type. */
function ruleReasons(registry: Registry): string {
  return rulesOf(registry)
    .map((rule) => {
      const types = registry.filter((entry) => entry.rule?.reasonCode === rule.reasonCode);
      const codes = types.map((entry) => `\`${entry.code}\``).join(", ");
      return `- \`${rule.reasonCode}\`: ${rule.labels.reason.tr} / ${rule.labels.reason.en} (${codes})`;
    })
    .join("\n");
}

export const DOCS_SECTIONS: readonly DocsSection[] = [
  {
    file: "docs/integration-guide.md",
    name: "types-table",
    render: (registry) => typesTable(registry, "en", "document-types/"),
  },
  {
    file: "docs/tr/integration-guide.md",
    name: "types-table",
    render: (registry) => typesTable(registry, "tr", "../document-types/"),
  },
  { file: "docs/backoffice.md", name: "rule-reasons", render: ruleReasons },
];

const markers = (name: string) => [`<!-- registry: ${name} -->`, `<!-- /registry: ${name} -->`] as const;

/**
 * `page` with `section` written afresh from `registry` between its markers. A page without the
 * markers, or with them twice, is refused: the section would be lost or written twice.
 */
export function withSection(page: string, section: DocsSection, registry: Registry): string {
  const [open, close] = markers(section.name);
  const start = page.indexOf(open);
  const end = page.indexOf(close);
  if (start < 0 || end < start || page.indexOf(open, start + 1) >= 0) {
    throw new Error(`${section.file} must hold ${open} and ${close} once each, in that order`);
  }
  return `${page.slice(0, start + open.length)}\n\n${section.render(registry)}\n\n${page.slice(end)}`;
}
