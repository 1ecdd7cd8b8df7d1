import type { UploadInstructions } from "../domain/responses/verification.ts";

/** Where uploaded documents are kept, by object key. */
export interface DocumentStore {
  /**
   * Instructions to upload exactly one file of `contentType` and `size` to `key`, valid for
   * `lifetimeSeconds` from `now`: another type or size is refused by the store itself.
   */
  presignPut(
    key: string,
    contentType: string,
    size: number,
    now: Date,
    lifetimeSeconds: number,
  ): Promise<UploadInstructions>;
  /** A URL that reads the object at `key`, valid for `lifetimeSeconds` from `now`. */
  presignGet(key: string, now: Date, lifetimeSeconds: number): Promise<string>;
  /** The stored object's size, or undefined when nothing has been uploaded. */
  size(key: string): Promise<number | undefined>;
  /** The object's first `count` bytes (fewer when it is shorter). */
  firstBytes(key: string, count: number): Promise<Uint8Array>;
  /** The whole stored object, or undefined when there is none. */
  read(key: string): Promise<Uint8Array | undefined>;
  /** Copies the object at `from` to `to`, inside the store (the upload, pinned as evidence). */
  copy(from: string, to: string): Promise<void>;
  /** Keeps `bytes` at `key` (the issuer's copy, beside the upload). */
  write(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  delete(key: string): Promise<void>;
}
