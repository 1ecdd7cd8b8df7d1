import { DynamoDbUsageStore } from "../../adapters/dynamodb-usage-store.ts";
import type { UsageStore } from "../../ports/usage-store.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The function's usage table (`USAGE_TABLE`): each app's verifications counted per day. */
export const usageStore = (config: FunctionConfig): UsageStore =>
  new DynamoDbUsageStore(dynamoClients().doc, config.setting("USAGE_TABLE"));
