/**
 * The console's two dictionaries are kept in step, as docs/tr is with the English docs: the same
 * keys, no empty value, the same placeholders, and a label in both for every code the console shows
 * (statuses, results, document types, reason codes, check outcomes and names, extracted fields,
 * the refusals it names, every action the audit trail records and the pool of who did it).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS } from "#shared/domain/audit";
import { DOCUMENT_TYPES } from "#shared/domain/document-types";
import { FRAUD_SIGNALS, REASON_MESSAGES } from "#shared/domain/reasons";
import { actorSchema } from "#shared/domain/responses/audit";
import { RESULTS, STATUSES } from "#shared/domain/state";
import { REJECTION_CODES } from "../../web/backoffice/order.ts";
import { en } from "../../web/backoffice/text-en.ts";
import { tr } from "../../web/backoffice/text-tr.ts";
import { checkNames, expectInStep, labelsEveryCode } from "../support/dictionaries.ts";

const ROOT = path.resolve(__dirname, "../..");
const dictionaries = { en: en as Record<string, string>, tr: tr as Record<string, string> };

/** Every field an extracted document can carry, from the backoffice API's document. */
function extractedFields(): string[] {
  const document = JSON.parse(readFileSync(path.join(ROOT, "openapi-backoffice.json"), "utf8")) as {
    components: { schemas: Record<string, unknown> };
  };
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) walk(child);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    const record = node as Record<string, unknown>;
    const fields = (record.properties as Record<string, { properties?: Record<string, unknown> }> | undefined)?.fields;
    if (fields?.properties) for (const name of Object.keys(fields.properties)) names.add(name);
    for (const child of Object.values(record)) walk(child);
  };
  walk(document.components.schemas.StaffVerification);
  return [...names].sort();
}

describe("the console's dictionaries", () => {
  it("have the same keys, no empty value, and the same placeholders in each", () => {
    expectInStep(dictionaries);
  });

  it("reads as Turkish in Turkish: the labels differ from the English ones", () => {
    const turkishLetters = Object.values(tr).filter((value) => /[çğıöşüİ]/.test(value)).length;
    expect(turkishLetters).toBeGreaterThan(Object.keys(tr).length / 3);
    const same = Object.keys(en).filter((key) => dictionaries.tr[key] === dictionaries.en[key]);
    // Only a template with no words of its own reads the same.
    expect(same).toEqual(["item.outcome_text"]);
  });

  const groups: [string, readonly string[]][] = [
    ["status", STATUSES],
    ["result", RESULTS],
    ["type", Object.keys(DOCUMENT_TYPES)],
    ["reason", Object.keys(REASON_MESSAGES)],
    ["reason", REJECTION_CODES],
    ["signal", FRAUD_SIGNALS],
    ["outcome", ["passed", "failed", "skipped"]],
    ["check", checkNames()],
    ["field", extractedFields()],
    ["problem", ["review_claimed", "review_not_claimed", "verification_not_in_review", "sequence_mismatch"]],
    ["action", AUDIT_ACTIONS],
    ["pool", actorSchema.shape.pool.options],
  ];
  labelsEveryCode(dictionaries, groups);

  it("name only codes that exist: no label for a reason, check, field or audit action nobody sends", () => {
    const known = new Map(groups.map(([group]) => [group, new Set<string>()]));
    for (const [group, codes] of groups) for (const code of codes) known.get(group)?.add(code);
    for (const key of Object.keys(en)) {
      const [group = "", code = ""] = key.split(/\.(.*)/);
      if (
        ["reason", "signal", "check", "field", "status", "result", "type", "outcome", "action", "pool"].includes(group)
      ) {
        expect(known.get(group)?.has(code), key).toBe(true);
      }
    }
  });
});
