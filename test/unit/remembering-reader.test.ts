/** The simulator's reader opens each document once while its bytes stay the same, and keeps no failure. */
import { describe, expect, it } from "vitest";
import { rememberingReader } from "#shared/adapters/documents/remembering-reader";
import type { DocumentReader, ReadResult } from "#shared/ports/document-reader";

function counting(): DocumentReader & { opened: number; failNext: boolean } {
  const reader = {
    opened: 0,
    failNext: false,
    async read(_fileType: string, bytes: Uint8Array): Promise<ReadResult> {
      reader.opened += 1;
      if (reader.failNext) {
        reader.failNext = false;
        throw new Error("the reader stopped");
      }
      return { readable: true, content: { lines: [String(bytes[0])], linesPerPage: [1], qrCodes: [] } };
    },
  };
  return reader;
}

describe("rememberingReader", () => {
  it("reads the same bytes once, and other bytes afresh", async () => {
    const inner = counting();
    const reader = rememberingReader(inner);
    const first = await reader.read("pdf", new Uint8Array([1, 2]));
    expect(await reader.read("pdf", new Uint8Array([1, 2]))).toEqual(first);
    expect(await reader.read("pdf", new Uint8Array([3, 2]))).toMatchObject({ content: { lines: ["3"] } });
    expect(inner.opened).toBe(2);
  });

  it("keeps no failed read, and forgets the oldest past its capacity", async () => {
    const inner = counting();
    const reader = rememberingReader(inner, 2);
    inner.failNext = true;
    await expect(reader.read("pdf", new Uint8Array([1]))).rejects.toThrow("the reader stopped");
    await reader.read("pdf", new Uint8Array([1]));
    await reader.read("pdf", new Uint8Array([2]));
    await reader.read("pdf", new Uint8Array([3]));
    await reader.read("pdf", new Uint8Array([1]));
    expect(inner.opened).toBe(5);
  });
});
