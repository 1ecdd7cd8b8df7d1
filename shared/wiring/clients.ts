import { KMSClient } from "@aws-sdk/client-kms";
import { createDynamoClients, createS3Client } from "../adapters/aws-clients.ts";
import { readSettings } from "../declarations/settings.ts";

/** One client per AWS service for the whole process, made on first use and shared by every function in it. */
let dynamo: ReturnType<typeof createDynamoClients> | undefined;
let s3: ReturnType<typeof createS3Client> | undefined;
let kms: KMSClient | undefined;

export function dynamoClients(): ReturnType<typeof createDynamoClients> {
  dynamo ??= createDynamoClients(readSettings(["DYNAMODB_ENDPOINT"]).DYNAMODB_ENDPOINT);
  return dynamo;
}

export function s3Client(): ReturnType<typeof createS3Client> {
  s3 ??= createS3Client(readSettings(["S3_ENDPOINT"]).S3_ENDPOINT);
  return s3;
}

export function kmsClient(): KMSClient {
  const endpoint = readSettings(["KMS_ENDPOINT"]).KMS_ENDPOINT;
  kms ??= new KMSClient(endpoint ? { endpoint } : {});
  return kms;
}
