/**
 * Consumer of the verifications table's change stream: primary adapter (stream records) ->
 * use case `onVerificationChange` (event, delivery, processing) -> DynamoDB, S3, webhooks.
 * A failed record is reported so the stream retries from it; the ones after it wait, which
 * keeps each verification's changes in order.
 */

import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { authorityFor } from "#shared/authority";
import { documentClient, s3Client } from "#shared/clients";
import { readConfig } from "#shared/config";
import { logger } from "#shared/logger";
import { webhookDeps } from "#shared/pipeline";
import { FUNCTIONS } from "#shared/routes";
import { UploadStore } from "#shared/upload-store";
import { onVerificationChange } from "#shared/use-cases/on-change";
import type { VerificationItem } from "#shared/verification";
import { VerificationStore } from "#shared/verification-store";

const config = readConfig(FUNCTIONS["on-verification-change"].settings);
const deps = {
  ...webhookDeps(config),
  verifications: new VerificationStore(documentClient(), config.VERIFICATIONS_TABLE),
  uploads: new UploadStore(s3Client(), config.UPLOADS_BUCKET),
  authority: authorityFor(config.ENVIRONMENT),
};

type StreamImage = NonNullable<DynamoDBRecord["dynamodb"]>["NewImage"];

function image(value: StreamImage): VerificationItem | undefined {
  return value ? (unmarshall(value as Record<string, AttributeValue>) as VerificationItem) : undefined;
}

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records) {
    try {
      await onVerificationChange(
        deps,
        { before: image(record.dynamodb?.OldImage), after: image(record.dynamodb?.NewImage) },
        () => new Date(),
      );
    } catch (error) {
      logger.error("change stream record failed", { error: error as Error, sequence: record.dynamodb?.SequenceNumber });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? "" }] };
    }
  }
  return { batchItemFailures: [] };
};
