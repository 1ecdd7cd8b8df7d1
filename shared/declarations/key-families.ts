/**
 * Families of items a function can be held to within a table (IAM's `dynamodb:LeadingKeys`), by
 * the name a function's declaration gives them: each is the prefix its items' partition keys
 * start with, as the adapter that writes them makes them (`test/adapters/key-families.test.ts`
 * holds the two together). The stack writes the prefixes; the declarations, and so the functions'
 * bundles, carry only the names.
 */
export const KEY_FAMILIES = {
  /** The apps table's API keys (`KEY#<sha256 of the key>`). */
  apiKeys: "KEY#",
  /** The usage table's kept requests of the public API (`REQ#<request id>`). */
  requests: "REQ#",
} as const;
export type KeyFamily = keyof typeof KEY_FAMILIES;
