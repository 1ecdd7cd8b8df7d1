/**
 * Lists, one convention: `{ data, next_cursor }`, `limit` 1-100 (20 by default), and a cursor
 * that is opaque to the caller: base64url JSON naming where the last page ended.
 */
import { InvalidInputError } from "./errors.ts";
import * as z from "./zod.ts";

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;

export const limitSchema = z
  ._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_LIMIT)), DEFAULT_LIMIT)
  .check(z.describe(`How many items a page holds: 1-${MAX_LIMIT}, ${DEFAULT_LIMIT} by default`));

export const cursorSchema = z
  .string()
  .check(z.maxLength(512), z.describe("`next_cursor` of the previous page; omit for the first page"));

/** A list page as every list answers it. */
export function listPageSchema<Item extends z.ZodMiniType>(item: Item) {
  return z.strictObject({
    data: z.array(item),
    next_cursor: z.nullable(z.string()).check(z.describe("Pass as `cursor` for the next page; null on the last page")),
  });
}

export function encodeCursor(position: unknown): string {
  return Buffer.from(JSON.stringify(position), "utf8").toString("base64url");
}

/** The position a cursor names, or `invalid_cursor` for anything this service did not hand out. */
export function decodeCursor<T>(cursor: string, schema: z.ZodMiniType<T>): T {
  try {
    const parsed = schema.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    if (parsed.success) return parsed.data;
  } catch {
    // Not base64url JSON: refused below like any other foreign cursor.
  }
  throw new InvalidInputError("invalid_cursor", "cursor must be the next_cursor of a previous page of this list");
}
