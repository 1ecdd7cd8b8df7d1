import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbVerificationStore } from "../../adapters/dynamodb-verification-store.ts";
import type { AuditLinker, RequestLinker } from "../../adapters/dynamodb-writes.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/**
 * The verifications table `table`, reached through `dynamo`; a person's changes recorded through
 * `audit`, an API request's changes kept with the request's record through `requests`.
 */
export const verificationsIn = (
  dynamo: DynamoDBClient,
  table: string,
  audit?: AuditLinker,
  requests?: RequestLinker,
): VerificationStore => new DynamoDbVerificationStore(documentClientOf(dynamo), table, audit, requests);

/**
 * The function's verifications table (`VERIFICATIONS_TABLE`); a person's changes recorded through
 * `audit`, an API request's changes kept with the request's record through `requests`.
 */
export const verificationStore = (
  config: FunctionConfig,
  audit?: AuditLinker,
  requests?: RequestLinker,
): VerificationStore => verificationsIn(dynamoClients().raw, config.setting("VERIFICATIONS_TABLE"), audit, requests);
