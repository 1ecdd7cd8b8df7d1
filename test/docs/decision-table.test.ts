/**
 * The decision table the integration guide publishes (EN and TR) against the engine's own codes
 * and the team's decision (verification-engine.md): the same rows, each naming a status, a
 * result and a reason code the service really gives, and every code a check can decide with
 * somewhere in it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { REASON_MESSAGES, REVIEW_REASONS } from "#shared/domain/reasons";
import { RESULTS, STATUSES } from "#shared/domain/state";

const root = path.resolve(__dirname, "../..");
const read = (file: string) => readFileSync(path.resolve(root, file), "utf8");

interface Row {
  status: string;
  result: string;
  reason: string;
}

/** The first table after `heading`, each row as its status, its results (sorted) and the first code of its reason. */
function decisionRows(markdown: string, heading: string): Row[] {
  const section = markdown.slice(markdown.indexOf(heading));
  const table = /(?:^\|.*\|\n)+/m.exec(section)?.[0] ?? "";
  return table
    .trim()
    .split("\n")
    .slice(2)
    .map((line) => {
      const [, , status = "", result = "", reason = ""] = line.split("|").map((cell) => cell.trim());
      return {
        status: (STATUSES as readonly string[]).find((known) => status.includes(known)) ?? "",
        result: RESULTS.filter((known) => result.includes(known)).join(" "),
        reason: /`([^`]+)`/.exec(reason)?.[1] ?? "",
      };
    });
}

const key = (row: Row) => `${row.status} | ${row.result} | ${row.reason}`;

const guide = decisionRows(read("docs/integration-guide.md"), "## How a verification is decided");

describe("the decision table in docs/integration-guide.md", () => {
  it("has the rows of verification-engine.md, row by row", () => {
    const handbook = decisionRows(read("../shared/docs/verification-engine.md"), "## The decision table");
    expect(guide.length).toBeGreaterThan(10);
    expect(guide.map(key)).toEqual(handbook.map(key));
  });

  it("is translated row by row in docs/tr/", () => {
    const turkish = decisionRows(read("docs/tr/integration-guide.md"), "## Bir doğrulamaya nasıl karar verilir");
    expect(turkish.map(key)).toEqual(guide.map(key));
  });

  it("names only codes the service gives, and every code a check decides with", () => {
    const named = guide.map((row) => row.reason).filter((reason) => reason !== "" && !reason.includes(":"));
    for (const code of named) expect(Object.keys(REASON_MESSAGES), code).toContain(code);
    const decidedByChecks = [
      "verified",
      "document_unreadable",
      "barcode_missing",
      "document_not_found_at_issuer",
      "document_altered",
      "document_too_old",
      "subject_mismatch",
      "review_timeout",
      // The sandbox's own reference prefixes ask for a review: not a row of the table.
      ...REVIEW_REASONS.filter((reason) => reason !== "review_requested"),
    ];
    for (const code of decidedByChecks) expect(named, code).toContain(code);
  });
});
