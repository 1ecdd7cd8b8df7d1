import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  type S3Client,
} from "@aws-sdk/client-s3";
import { getSignedUrl, S3RequestPresigner } from "@aws-sdk/s3-request-presigner";
import type { UploadInstructions } from "../domain/responses/verification.ts";
import { addSeconds, isoSeconds } from "../domain/time.ts";
import type { DocumentStore } from "../ports/document-store.ts";

function isMissing(error: unknown): boolean {
  return error instanceof Error && (error.name === "NotFound" || error.name === "NoSuchKey");
}

type Signable = Parameters<S3RequestPresigner["presign"]>[0];

/** How an upload URL is signed, whichever way it is made: its type and size are signed, so the store refuses others. */
function putSigning(now: Date, lifetimeSeconds: number) {
  return { expiresIn: lifetimeSeconds, signingDate: now, signableHeaders: new Set(["content-type", "content-length"]) };
}

/** A URI component escaped as SigV4 and the SDK's URL formatting escape it (RFC 3986 unreserved kept). */
function escapeUri(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Signs PUT URLs for one bucket without the client's middleware stack: the request the SDK
 * would build for `PutObjectCommand` (path-style on a custom endpoint, virtual-hosted in AWS),
 * handed straight to the SDK's own presigner with the client's credentials and region.
 * `getSignedUrl` runs the whole stack for each URL, which costs more than the signing.
 * test/adapters/s3-presign.test.ts holds both to the same URL.
 */
class PutPresigner {
  private prepared?: Promise<{
    presigner: S3RequestPresigner;
    base: Omit<Signable, "headers" | "path" | "query">;
    prefix: string;
  }>;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {}

  private prepare() {
    this.prepared ??= (async () => {
      const { config } = this.s3;
      const region = await config.region();
      const endpoint = config.endpoint ? await config.endpoint() : undefined;
      const presigner = new S3RequestPresigner({ ...config, signingName: "s3", region: async () => region });
      if (endpoint && config.forcePathStyle) {
        const { protocol, hostname, port } = endpoint;
        return {
          presigner,
          base: { method: "PUT", protocol, hostname, port },
          prefix: `${endpoint.path.replace(/\/$/, "")}/${this.bucket}`,
        };
      }
      if (endpoint) throw new Error("A custom S3 endpoint is only supported path-style");
      const hostname = `${this.bucket}.s3.${region}.amazonaws.com`;
      return { presigner, base: { method: "PUT", protocol: "https:", hostname }, prefix: "" };
    })();
    return this.prepared;
  }

  async url(key: string, contentType: string, size: number, now: Date, lifetimeSeconds: number): Promise<string> {
    const { presigner, base, prefix } = await this.prepare();
    const path = `${prefix}/${key.split("/").map(escapeUri).join("/")}`;
    const host = base.port ? `${base.hostname}:${base.port}` : base.hostname;
    const signed = await presigner.presign(
      {
        ...base,
        path,
        query: { "x-id": "PutObject" },
        headers: { host, "content-type": contentType, "content-length": String(size) },
      },
      putSigning(now, lifetimeSeconds),
    );
    const query = Object.entries(signed.query ?? {})
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, value]) => `${escapeUri(name)}=${escapeUri(String(value))}`)
      .join("&");
    return `${signed.protocol}//${host}${signed.path}?${query}`;
  }
}

/** The uploads bucket. */
export class S3DocumentStore implements DocumentStore {
  private readonly puts: PutPresigner;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
  ) {
    this.puts = new PutPresigner(s3, bucket);
  }

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
    const upload: UploadInstructions = {
      method: "PUT",
      url: await this.putUrl(key, contentType, size, now, lifetimeSeconds),
      headers: { "Content-Type": contentType, "Content-Length": String(size) },
      expires_at: isoSeconds(addSeconds(now, lifetimeSeconds)),
    };
    return upload;
  }

  private putUrl(key: string, contentType: string, size: number, now: Date, lifetimeSeconds: number): Promise<string> {
    // A bucket name with dots is addressed path-style by the SDK; the whole stack decides that one.
    if (this.bucket.includes(".")) {
      return getSignedUrl(
        this.s3,
        new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType, ContentLength: size }),
        putSigning(now, lifetimeSeconds),
      );
    }
    return this.puts.url(key, contentType, size, now, lifetimeSeconds);
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
