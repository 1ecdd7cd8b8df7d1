import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbAppStore } from "../../adapters/dynamodb-app-store.ts";
import type { AuditLinker } from "../../adapters/dynamodb-writes.ts";
import type { AppStore } from "../../ports/app-store.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The apps and their keys in the apps table `table`, reached through `dynamo`. */
export const appsIn = (dynamo: DynamoDBClient, table: string, audit?: AuditLinker): AppStore =>
  new DynamoDbAppStore(documentClientOf(dynamo), table, audit);

/** The function's apps table (`APPS_TABLE`). */
export const appStore = (config: FunctionConfig, audit?: AuditLinker): AppStore =>
  appsIn(dynamoClients().raw, config.setting("APPS_TABLE"), audit);
