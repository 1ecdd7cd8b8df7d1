import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbVerificationReader } from "../../adapters/dynamodb-verification-reader.ts";
import type { VerificationStore } from "../../ports/verification-store.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The function's verifications table (`VERIFICATIONS_TABLE`), for reading one verification by its id. */
export const verificationReader = (config: FunctionConfig): Pick<VerificationStore, "get"> =>
  new DynamoDbVerificationReader(documentClientOf(dynamoClients().raw), config.setting("VERIFICATIONS_TABLE"));
