import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbAppStore } from "../../adapters/dynamodb-app-store.ts";
import type { AppStore } from "../../ports/app-store.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The apps and their keys in the apps table `table`, reached through `dynamo`. */
export const appsIn = (dynamo: DynamoDBClient, table: string): AppStore =>
  new DynamoDbAppStore(documentClientOf(dynamo), table);

/** The function's apps table (`APPS_TABLE`). */
export const appStore = (config: FunctionConfig): AppStore => appsIn(dynamoClients().raw, config.setting("APPS_TABLE"));
