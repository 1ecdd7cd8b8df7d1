import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { documentClientOf } from "../../adapters/aws-clients.ts";
import { DynamoDbOrganizationStore } from "../../adapters/dynamodb-organization-store.ts";
import type { AuditLinker } from "../../adapters/dynamodb-writes.ts";
import type { OrganizationStore } from "../../ports/organization-store.ts";
import { dynamoClients } from "../clients.ts";
import type { FunctionConfig } from "../config.ts";

/** Organisations and memberships in the apps table `table`, reached through `dynamo`. */
export const organizationsIn = (dynamo: DynamoDBClient, table: string, audit?: AuditLinker): OrganizationStore =>
  new DynamoDbOrganizationStore(documentClientOf(dynamo), table, audit);

/** The organisations in the function's apps table (`APPS_TABLE`). */
export const organizationStore = (config: FunctionConfig, audit?: AuditLinker): OrganizationStore =>
  organizationsIn(dynamoClients().raw, config.setting("APPS_TABLE"), audit);
