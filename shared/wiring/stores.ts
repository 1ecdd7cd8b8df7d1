import { DynamoDbAppStore } from "../adapters/dynamodb-app-store.ts";
import { DynamoDbAuditTrail } from "../adapters/dynamodb-audit-trail.ts";
import { DynamoDbEventStore } from "../adapters/dynamodb-event-store.ts";
import { DynamoDbOrganizationStore } from "../adapters/dynamodb-organization-store.ts";
import { DynamoDbUsageStore } from "../adapters/dynamodb-usage-store.ts";
import { DynamoDbVerificationStore } from "../adapters/dynamodb-verification-store.ts";
import { S3DocumentStore } from "../adapters/s3-document-store.ts";
import type { AppStore } from "../ports/app-store.ts";
import type { AuditTrail } from "../ports/audit-trail.ts";
import type { DocumentStore } from "../ports/document-store.ts";
import type { EventStore } from "../ports/event-store.ts";
import type { OrganizationStore } from "../ports/organization-store.ts";
import type { UsageStore } from "../ports/usage-store.ts";
import type { VerificationStore } from "../ports/verification-store.ts";
import { dynamoClients, s3Client } from "./clients.ts";
import type { FunctionConfig } from "./config.ts";

/** The tables and the bucket, named by the function's settings. */
export const appStore = (config: FunctionConfig): AppStore =>
  new DynamoDbAppStore(dynamoClients().doc, config.setting("APPS_TABLE"));

export const verificationStore = (config: FunctionConfig): VerificationStore =>
  new DynamoDbVerificationStore(dynamoClients().doc, config.setting("VERIFICATIONS_TABLE"));

export const eventStore = (config: FunctionConfig): EventStore =>
  new DynamoDbEventStore(dynamoClients().doc, config.setting("EVENTS_TABLE"));

export const documentStore = (config: FunctionConfig): DocumentStore =>
  new S3DocumentStore(s3Client(), config.setting("UPLOADS_BUCKET"));

export const auditTrail = (config: FunctionConfig): AuditTrail =>
  new DynamoDbAuditTrail(dynamoClients().doc, config.setting("AUDIT_TABLE"));

export const organizationStore = (config: FunctionConfig): OrganizationStore =>
  new DynamoDbOrganizationStore(dynamoClients().doc, config.setting("APPS_TABLE"));

export const usageStore = (config: FunctionConfig): UsageStore =>
  new DynamoDbUsageStore(dynamoClients().doc, config.setting("USAGE_TABLE"));
