import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbKeyLookup } from "../../adapters/dynamodb-key-lookup.ts";
import type { KeyLookup } from "../../ports/key-lookup.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The function's API keys (`APPS_TABLE`), as the authorizer reads them. */
export const keyLookup = (config: FunctionConfig): KeyLookup =>
  new DynamoDbKeyLookup(documentClientOf(dynamoClients().raw), config.setting("APPS_TABLE"));
