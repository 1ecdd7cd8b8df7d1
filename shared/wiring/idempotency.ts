import { DynamoDBPersistenceLayer } from "@aws-lambda-powertools/idempotency/dynamodb";
import { PowertoolsIdempotency } from "../adapters/powertools-idempotency.ts";
import { IDEMPOTENCY_SECONDS } from "../domain/new-verification.ts";
import type { Idempotency } from "../ports/idempotency.ts";
import { dynamoClients } from "./clients.ts";
import type { FunctionConfig } from "./config.ts";

/**
 * Idempotency records in the function's idempotency table, keyed by the function's name:
 * a fixed prefix keeps records valid across deployments that rename the Lambda.
 */
export function idempotency(config: FunctionConfig): Idempotency {
  const persistence = new DynamoDBPersistenceLayer({
    tableName: config.setting("IDEMPOTENCY_TABLE"),
    awsSdkV3Client: dynamoClients().raw,
  });
  return new PowertoolsIdempotency(persistence, config.name, IDEMPOTENCY_SECONDS);
}
