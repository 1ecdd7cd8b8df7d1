/**
 * The key families IAM holds functions to (`declarations/key-families.ts`) are the prefixes of the
 * partition keys the adapters write: a family that drifted from its adapter would grant nothing,
 * or the wrong items.
 */
import { describe, expect, it } from "vitest";
import { keyPk } from "#shared/adapters/dynamodb-key-lookup";
import { KEY_FAMILIES } from "#shared/declarations/key-families";

describe("the key families", () => {
  it("apiKeys is the prefix of every API key's partition key, and nothing more", () => {
    expect(keyPk("ab12")).toBe(`${KEY_FAMILIES.apiKeys}ab12`);
    expect(keyPk("")).toBe(KEY_FAMILIES.apiKeys);
  });
});
