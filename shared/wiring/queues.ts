import { SQSClient } from "@aws-sdk/client-sqs";
import { sqsDeliveryQueue } from "../adapters/sqs-delivery-queue.ts";
import { readSettings } from "../declarations/settings.ts";
import type { DeliveryQueue } from "../ports/delivery-queue.ts";
import type { FunctionConfig } from "./config.ts";

/** The delivery queue (`DELIVERY_QUEUE_URL`); only the function that sends to it loads SQS's client. */
export function deliveryQueue(config: FunctionConfig): DeliveryQueue {
  const endpoint = readSettings(["SQS_ENDPOINT"]).SQS_ENDPOINT;
  return sqsDeliveryQueue(new SQSClient(endpoint ? { endpoint } : {}), config.setting("DELIVERY_QUEUE_URL"));
}
