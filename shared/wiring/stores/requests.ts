import { DynamoDbRequestLog } from "../../adapters/dynamodb-request-log.ts";
import type { RequestLog } from "../../ports/request-log.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The public API's request log, in the usage table (`USAGE_TABLE`). */
export const requestLog = (config: FunctionConfig): RequestLog =>
  new DynamoDbRequestLog(dynamoClients().doc, config.setting("USAGE_TABLE"));
