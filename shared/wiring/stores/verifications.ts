import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbVerificationStore } from "../../adapters/dynamodb-verification-store.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The verifications table `table`, reached through `dynamo`. */
export const verificationsIn = (dynamo: DynamoDBClient, table: string): VerificationStore =>
  new DynamoDbVerificationStore(documentClientOf(dynamo), table);

/** The function's verifications table (`VERIFICATIONS_TABLE`). */
export const verificationStore = (config: FunctionConfig): VerificationStore =>
  verificationsIn(dynamoClients().raw, config.setting("VERIFICATIONS_TABLE"));
