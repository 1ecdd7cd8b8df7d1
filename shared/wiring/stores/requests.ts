import { DynamoDbRequestHistory } from "../../adapters/dynamodb-request-history.ts";
import { DynamoDbRequestLog } from "../../adapters/dynamodb-request-log.ts";
import type { RequestLinker } from "../../adapters/dynamodb-writes.ts";
import type { RequestHistory, RequestLog } from "../../ports/request-log.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The public API's request log, in the usage table (`USAGE_TABLE`): kept alone, or beside the change a request makes. */
export const requestLog = (config: FunctionConfig): RequestLog & RequestLinker =>
  new DynamoDbRequestLog(dynamoClients().doc, config.setting("USAGE_TABLE"));

/** The same requests by app and time, for the portal's request log. */
export const requestHistory = (config: FunctionConfig): RequestHistory =>
  new DynamoDbRequestHistory(dynamoClients().doc, config.setting("USAGE_TABLE"));
