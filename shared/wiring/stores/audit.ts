import { DynamoDbAuditTrail } from "../../adapters/dynamodb-audit-trail.ts";
import type { AuditTrail } from "../../ports/audit-trail.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** The function's audit table (`AUDIT_TABLE`): only ever added to. */
export const auditTrail = (config: FunctionConfig): AuditTrail =>
  new DynamoDbAuditTrail(dynamoClients().doc, config.setting("AUDIT_TABLE"));
