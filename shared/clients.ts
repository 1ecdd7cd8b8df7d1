import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { readConfig } from "./config.ts";

/** One client per AWS service for the whole process, created on first use. */
let dynamo: { raw: DynamoDBClient; doc: DynamoDBDocumentClient } | undefined;
let s3: S3Client | undefined;

export function dynamoClients(): { raw: DynamoDBClient; doc: DynamoDBDocumentClient } {
  if (!dynamo) {
    const { DYNAMODB_ENDPOINT } = readConfig(["DYNAMODB_ENDPOINT"]);
    const raw = new DynamoDBClient(DYNAMODB_ENDPOINT ? { endpoint: DYNAMODB_ENDPOINT } : {});
    const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    dynamo = { raw, doc };
  }
  return dynamo;
}

export function documentClient(): DynamoDBDocumentClient {
  return dynamoClients().doc;
}

export function s3Client(): S3Client {
  if (!s3) {
    const { S3_ENDPOINT } = readConfig(["S3_ENDPOINT"]);
    s3 = new S3Client({
      ...(S3_ENDPOINT ? { endpoint: S3_ENDPOINT, forcePathStyle: true } : {}),
      // Without this the SDK adds a CRC32 of an empty body to presigned PUTs, which S3 refuses.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }
  return s3;
}
