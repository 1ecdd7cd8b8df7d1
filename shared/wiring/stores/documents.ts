import type { S3Client } from "@aws-sdk/client-s3";
import { S3DocumentStore } from "../../adapters/s3-document-store.ts";
import type { DocumentStore } from "../../ports/document-store.ts";
import { s3Client } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The documents in the uploads bucket `bucket`, reached through `s3`. */
export const documentsIn = (s3: S3Client, bucket: string): DocumentStore => new S3DocumentStore(s3, bucket);

/** The function's uploads bucket (`UPLOADS_BUCKET`). */
export const documentStore = (config: FunctionConfig): DocumentStore =>
  documentsIn(s3Client(), config.setting("UPLOADS_BUCKET"));
