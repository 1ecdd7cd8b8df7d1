/**
 * Consumer of the verifications table's change stream: primary adapter (stream records) ->
 * use case `onVerificationChange` (processing, the event, usage) -> DynamoDB, S3, the
 * delivery queue. It calls no customer endpoint. A failed record is reported so the stream
 * retries from it; the ones after it wait, which keeps each verification's changes in order.
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from "aws-lambda";
import { ON_VERIFICATION_CHANGE_FUNCTION } from "#shared/declarations/functions/on-verification-change";
import type { VerificationItem } from "#shared/domain/verification";
import { onVerificationChange } from "#shared/use-cases/processing/on-verification-change";
import { functionConfig } from "#shared/wiring/config";
import { processing } from "#shared/wiring/processing";
import { deliveryQueue } from "#shared/wiring/queues";
import { eventStore } from "#shared/wiring/stores/events";
import { usageStore } from "#shared/wiring/stores/usage";

const config = functionConfig(ON_VERIFICATION_CHANGE_FUNCTION);
const deps = {
  ...processing(config),
  events: eventStore(config),
  queue: deliveryQueue(config),
  usage: usageStore(config),
};

type StreamImage = NonNullable<DynamoDBRecord["dynamodb"]>["NewImage"];

function image(value: StreamImage): VerificationItem | undefined {
  return value ? (unmarshall(value as Record<string, AttributeValue>) as VerificationItem) : undefined;
}

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  for (const record of event.Records) {
    try {
      await onVerificationChange(deps, {
        before: image(record.dynamodb?.OldImage),
        after: image(record.dynamodb?.NewImage),
      });
    } catch (error) {
      deps.log.error("change stream record failed", { error, sequence: record.dynamodb?.SequenceNumber });
      return { batchItemFailures: [{ itemIdentifier: record.dynamodb?.SequenceNumber ?? "" }] };
    }
  }
  return { batchItemFailures: [] };
};
