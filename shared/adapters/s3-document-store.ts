import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { addSeconds, isoSeconds } from "../domain/time.ts";
import type { UploadInstructions } from "../domain/verification.ts";
import type { DocumentStore } from "../ports/document-store.ts";

function isMissing(error: unknown): boolean {
  return error instanceof Error && (error.name === "NotFound" || error.name === "NoSuchKey");
}

/** The uploads bucket. */
export class S3DocumentStore implements DocumentStore {
  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  /**
   * A presigned PUT that signs Content-Type and Content-Length, so the store refuses a file
   * of another size or type.
   */
  async presignPut(
    key: string,
    contentType: string,
    size: number,
    now: Date,
    lifetimeSeconds: number,
  ): Promise<UploadInstructions> {
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ContentType: contentType,
      ContentLength: size,
    });
    const url = await getSignedUrl(this.s3, command, {
      expiresIn: lifetimeSeconds,
      signingDate: now,
      signableHeaders: new Set(["content-type", "content-length"]),
    });
    const upload: UploadInstructions = {
      method: "PUT",
      url,
      headers: { "Content-Type": contentType, "Content-Length": String(size) },
      expires_at: isoSeconds(addSeconds(now, lifetimeSeconds)),
    };
    return upload;
  }

  /** A presigned GET; the signature is the only credential, so it lives a minute at most where staff use it. */
  presignGet(key: string, now: Date, lifetimeSeconds: number): Promise<string> {
    return getSignedUrl(this.s3, new GetObjectCommand({ Bucket: this.bucket, Key: key }), {
      expiresIn: lifetimeSeconds,
      signingDate: now,
    });
  }

  /** The stored object's size, or undefined when nothing has been uploaded. */
  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async firstBytes(key: string, count: number): Promise<Uint8Array> {
    const object = await this.s3.send(
      new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: `bytes=0-${count - 1}` }),
    );
    return object.Body ? (await object.Body.transformToByteArray()).subarray(0, count) : new Uint8Array();
  }

  /** The whole stored object, or undefined when there is none. */
  async read(key: string): Promise<Uint8Array | undefined> {
    try {
      const object = await this.s3.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body ? await object.Body.transformToByteArray() : new Uint8Array();
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async copy(from: string, to: string): Promise<void> {
    await this.s3.send(
      new CopyObjectCommand({ Bucket: this.bucket, CopySource: `${this.bucket}/${encodeURI(from)}`, Key: to }),
    );
  }

  async write(key: string, bytes: Uint8Array, contentType: string): Promise<void> {
    await this.s3.send(new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes, ContentType: contentType }));
  }

  async delete(key: string): Promise<void> {
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
