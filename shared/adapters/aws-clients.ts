import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

const documentClients = new WeakMap<DynamoDBClient, DynamoDBDocumentClient>();

/**
 * The document client the stores expect on `raw`: attributes left undefined are not written.
 * One per client, so the stores a function builds on it share it.
 */
export function documentClientOf(raw: DynamoDBClient): DynamoDBDocumentClient {
  let doc = documentClients.get(raw);
  if (!doc) {
    doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    documentClients.set(raw, doc);
  }
  return doc;
}

/** A DynamoDB client and its document client; `endpoint` names a local engine, none in AWS. */
export function createDynamoClients(endpoint?: string): { raw: DynamoDBClient; doc: DynamoDBDocumentClient } {
  const raw = new DynamoDBClient(endpoint ? { endpoint } : {});
  return { raw, doc: documentClientOf(raw) };
}

/** An S3 client; `endpoint` names a local engine, none in AWS. */
export function createS3Client(endpoint?: string): S3Client {
  return new S3Client({
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    // Without this the SDK adds a CRC32 of an empty body to presigned PUTs, which S3 refuses.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
}
