import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbAuditTrail } from "../../adapters/dynamodb-audit-trail.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The audit table `table`, reached through `dynamo`: only ever added to, each month's records chained. */
export const auditIn = (dynamo: DynamoDBClient, table: string): DynamoDbAuditTrail =>
  new DynamoDbAuditTrail(documentClientOf(dynamo), table);

/** The function's audit table (`AUDIT_TABLE`). */
export const auditTrail = (config: FunctionConfig): DynamoDbAuditTrail =>
  auditIn(dynamoClients().raw, config.setting("AUDIT_TABLE"));
