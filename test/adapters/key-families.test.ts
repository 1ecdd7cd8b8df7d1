/**
 * The key families IAM holds functions to (`declarations/key-families.ts`) are the prefixes of the
 * partition keys the adapters write: a family that drifted from its adapter would grant nothing,
 * or the wrong items.
 */
import { describe, expect, it } from "vitest";
import { keyPk } from "#shared/adapters/dynamodb-key-lookup";
import { requestPk } from "#shared/adapters/dynamodb-request-log";
import { KEY_FAMILIES } from "#shared/declarations/key-families";

describe("the key families", () => {
  it("apiKeys is the prefix of every API key's partition key, and nothing more", () => {
    expect(keyPk("ab12")).toBe(`${KEY_FAMILIES.apiKeys}ab12`);
    expect(keyPk("")).toBe(KEY_FAMILIES.apiKeys);
  });

  it("requests is the prefix of every kept request's partition key, and nothing more", () => {
    expect(requestPk("req_1")).toBe(`${KEY_FAMILIES.requests}req_1`);
    expect(requestPk("")).toBe(KEY_FAMILIES.requests);
  });
});
