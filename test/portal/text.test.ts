/**
 * The portal's two dictionaries are kept in step, as docs/tr is with the English docs and the
 * console's are (test/backoffice/text.test.ts): the same keys, no empty value, the same
 * placeholders, Turkish that differs from the English, the sign-in's words, and a label in both
 * for every code the portal shows, read from where each code is defined (the domain, the
 * processing's source, the portal's and the public API's documents).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOCUMENT_TYPES } from "#shared/domain/document-types";
import { FRAUD_SIGNALS, REASON_MESSAGES } from "#shared/domain/reasons";
import { RESULTS, STATUSES } from "#shared/domain/state";
import { USAGE_OUTCOMES } from "#shared/domain/usage";
import { SIGN_IN_KEYS } from "../../web/common/sign-in-words.ts";
import { en } from "../../web/portal/text-en.ts";
import { tr } from "../../web/portal/text-tr.ts";
import { checkNames, expectInStep, labelsEveryCode } from "../support/dictionaries.ts";

const ROOT = path.resolve(__dirname, "../..");
const dictionaries = { en: en as Record<string, string>, tr: tr as Record<string, string> };

/** Keys whose Turkish reads as the English on purpose: templates of values with no words of their own. */
const SAME_ON_PURPOSE = ["account.who", "detail.status_result"];

type Schema = { enum?: string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[] };
const documentOf = (file: string) =>
  JSON.parse(readFileSync(path.join(ROOT, file), "utf8")) as { components: { schemas: Record<string, Schema> } };
const portal = documentOf("openapi-portal.json").components.schemas;
const publicApi = documentOf("openapi.json").components.schemas;

/** The values a schema's property takes, following `properties` and `items` down `route`. */
function enumOf(schema: Schema | undefined, ...route: string[]): string[] {
  let node = schema;
  for (const step of route) node = step === "[]" ? node?.items : node?.properties?.[step];
  const values = node?.enum ?? node?.anyOf?.flatMap((choice) => choice.enum ?? []);
  if (!values?.length) throw new Error(`No enum at ${route.join(".")}`);
  return values;
}

describe("the portal's dictionaries", () => {
  it("have the same keys, no empty value, and the same placeholders in each", () => {
    expectInStep(dictionaries);
  });

  it("read as Turkish in Turkish: every value differs from the English but the templates listed", () => {
    const turkishLetters = Object.values(tr).filter((value) => /[çğıöşüİ]/.test(value)).length;
    expect(turkishLetters).toBeGreaterThan(Object.keys(tr).length / 3);
    const same = Object.keys(en).filter((key) => dictionaries.tr[key] === dictionaries.en[key]);
    expect(same.sort()).toEqual([...SAME_ON_PURPOSE].sort());
  });

  it("hold every word of the sign-in, which the portal shows in its own words", () => {
    for (const key of SIGN_IN_KEYS) {
      expect(dictionaries.en, key).toHaveProperty([key]);
      expect(dictionaries.tr, key).toHaveProperty([key]);
    }
  });

  const groups: [string, readonly string[]][] = [
    ["status", STATUSES],
    ["result", RESULTS],
    ["document_type", Object.keys(DOCUMENT_TYPES)],
    ["reason", Object.keys(REASON_MESSAGES)],
    ["signal", FRAUD_SIGNALS],
    ["check", checkNames()],
    ["check_outcome", enumOf(portal.Verification, "checks", "[]", "outcome")],
    ["event_type", enumOf(portal.AppEvent, "type")],
    ["event_status", enumOf(portal.AppEvent, "status")],
    ["delivery_outcome", enumOf(portal.Delivery, "outcome")],
    ["role", enumOf(portal.Me, "role")],
    ["role_hint", enumOf(portal.Me, "role")],
    ["key_status", enumOf(portal.Key, "status")],
    ["app_status", enumOf(portal.App, "status")],
    ["environment", enumOf(portal.App, "environment")],
    ["matched_by", enumOf(portal.LookupPage, "data", "[]", "matched_by")],
    ["outcome", USAGE_OUTCOMES],
    // The portal API's refusals, and those the page makes itself (no answer, an answer that is no problem).
    ["problem", [...enumOf(portal.Problem, "code"), "network", "unexpected"]],
    // A request of the public API that a lookup finds shows its refusal.
    ["api_problem", enumOf(publicApi.Problem, "code")],
  ];
  labelsEveryCode(dictionaries, groups);

  it("name only codes that exist: no label for a code nobody sends", () => {
    const known = new Map<string, Set<string>>();
    for (const [group, codes] of groups) known.set(group, new Set([...(known.get(group) ?? []), ...codes]));
    for (const key of Object.keys(en)) {
      const [group = "", code = ""] = key.split(/\.(.*)/);
      if (known.has(group)) expect(known.get(group)?.has(code), key).toBe(true);
    }
  });
});
