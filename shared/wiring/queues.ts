import { SQSClient } from "@aws-sdk/client-sqs";
import { sqsDeliveryQueue } from "../adapters/sqs-delivery-queue.ts";
import { sqsIssuerQueue } from "../adapters/sqs-issuer-queue.ts";
import { readSettings } from "../declarations/settings.ts";
import type { DeliveryQueue } from "../ports/delivery-queue.ts";
import type { IssuerQueue } from "../ports/issuer-queue.ts";
import type { FunctionConfig } from "./config.ts";

/** SQS's client, made once per process by the first function part that sends to a queue. */
let client: SQSClient | undefined;
function sqs(): SQSClient {
  const endpoint = readSettings(["SQS_ENDPOINT"]).SQS_ENDPOINT;
  client ??= new SQSClient(endpoint ? { endpoint } : {});
  return client;
}

/** The delivery queue (`DELIVERY_QUEUE_URL`); only the functions that send to a queue load SQS's client. */
export function deliveryQueue(config: FunctionConfig): DeliveryQueue {
  return sqsDeliveryQueue(sqs(), config.setting("DELIVERY_QUEUE_URL"));
}

/** The issuer queue (`ISSUER_QUEUE_URL`), when the environment has an issuer (`ISSUER` is not `none`). */
export function issuerQueue(config: FunctionConfig): IssuerQueue | undefined {
  return config.setting("ISSUER") === "none" ? undefined : sqsIssuerQueue(sqs(), config.setting("ISSUER_QUEUE_URL"));
}
