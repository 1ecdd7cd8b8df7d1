/**
 * Where the ops command points: the local runtime that `npm start` runs (by default), or a
 * deployed environment's stack, whose outputs name its apps table, sealing key and user pools.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { APIGatewayClient } from "@aws-sdk/client-api-gateway";
import { CloudFormationClient, DescribeStacksCommand } from "@aws-sdk/client-cloudformation";
import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { KMSClient } from "@aws-sdk/client-kms";
import { S3Client } from "@aws-sdk/client-s3";
import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import { GetCallerIdentityCommand, STSClient } from "@aws-sdk/client-sts";
import { z } from "zod";
import { stackName } from "#shared/declarations/stack";
import type { AuditContext } from "#shared/domain/audit";
import { type Destinations, destinationsFor, ENVIRONMENTS, type Environment } from "#shared/domain/environments";
import type { AppLimits } from "#shared/ports/app-limits";
import type { AppStore } from "#shared/ports/app-store";
import type { AuditDigests, AuditPrints, AuditStrays, AuditTrail, DigestVerifier } from "#shared/ports/audit-trail";
import type { Clock } from "#shared/ports/clock";
import type { DocumentStore } from "#shared/ports/document-store";
import type { EventStore } from "#shared/ports/event-store";
import type { PortalDirectory, StaffDirectory } from "#shared/ports/identity";
import type { OrganizationStore } from "#shared/ports/organization-store";
import type { Sealer } from "#shared/ports/sealer";
import type { VerificationStore } from "#shared/ports/verification-store";
import { appLimitsOn } from "#shared/wiring/app-limits";
import { clock } from "#shared/wiring/config";
import { peopleOf } from "#shared/wiring/portal-directory";
import { sealerOn } from "#shared/wiring/sealer";
import { secretIn } from "#shared/wiring/secrets";
import { staffOf } from "#shared/wiring/staff-directory";
import { appsIn } from "#shared/wiring/stores/apps";
import { auditIn, sealingIn } from "#shared/wiring/stores/audit";
import { documentsIn } from "#shared/wiring/stores/documents";
import { eventsIn } from "#shared/wiring/stores/events";
import { organizationsIn } from "#shared/wiring/stores/organizations";
import { verificationsIn } from "#shared/wiring/stores/verifications";

export interface TargetOptions {
  /** A deployed environment; without it, the local runtime. */
  env?: Environment;
  region?: string;
  stack?: string;
  appsTable?: string;
  eventsTable?: string;
  /** The audit table every change is recorded in; default: the stack's `AuditTableName` output. */
  auditTable?: string;
  secretsKeyArn?: string;
  /** The KMS key that seals webhook secrets; default: the stack's `SealingKeyArn` output. */
  sealingKeyId?: string;
  /** The usage plan of the apps' request buckets; default: the stack's `UsagePlanId` output. */
  usagePlanId?: string;
  staffUserPoolId?: string;
  portalUserPoolId?: string;
  /** The local runtime's data folder. */
  dataDir?: string;
}

export interface Target {
  /** What the command is aimed at, for the readable output. */
  label: string;
  environment: Environment;
  /** Where its webhooks may go: the same rule its functions apply. */
  destinations: Destinations;
  apps: AppStore;
  /** Organisations and memberships, in the apps table. */
  organizations: OrganizationStore;
  clock: Clock;
  /** The webhook events and their attempts; found only by the commands that need them. */
  events(): Promise<EventStore>;
  /** Seals webhook secrets; its key is read on first use, so only by the commands that seal. */
  sealer: Sealer;
  /** Each app's request bucket (the stage's usage plan); found on first use. */
  limits: AppLimits;
  /** The staff user pool's users; found only by the commands that manage them. */
  staff(): Promise<StaffDirectory>;
  /** The customer pool's users (portal logins); found only by the commands that invite them. */
  portalUsers(): Promise<PortalDirectory>;
  /** Verifications and their documents; found only by the erase command. */
  erasure(): Promise<{ verifications: VerificationStore; documents: DocumentStore }>;
  /** The audit trail every command's change is written with. */
  audit: AuditTrail;
  /** The trail's records, digests and the sealing key's public half; found only by `audit verify`. */
  auditCheck(): Promise<AuditCheck>;
  /** Who runs the command, as the audit trail names them: the IAM principal, or the OS user locally. */
  operator(): Promise<AuditContext>;
  close(): void;
}

/** What `audit verify` reads: the records by their prints, those outside their month's chain, the digests and the key to check them with. */
export interface AuditCheck {
  prints: AuditPrints;
  strays: AuditStrays;
  digests: AuditDigests;
  verifier: DigestVerifier;
}

/** The audit context of an operator: one request id per command run. */
function operatorContext(sub: string, username: string, source: string): AuditContext {
  return {
    actor: { pool: "operator", sub, username },
    requestId: `ops-${randomUUID()}`,
    sourceIp: source,
  };
}

/**
 * The `Date` of each answer `client` receives, in order: AWS's clock, to compare this machine's
 * with.
 */
function answerDates(client: STSClient): Date[] {
  const dates: Date[] = [];
  client.middlewareStack.add(
    (next) => async (args) => {
      const result = await next(args);
      const date = (result.response as { headers?: Record<string, string> }).headers?.date;
      if (date) dates.push(new Date(date));
      return result;
    },
    { step: "deserialize", name: "answerDates" },
  );
  return dates;
}

/** How far this machine's clock may be from AWS's when an operator's change is recorded. */
const MAX_CLOCK_SKEW_MS = 60_000;

/**
 * A record's id carries the writer's clock, and the sealer seals records by their ids' time
 * (`SEAL_MARGIN_MS` after it): a record made on a clock minutes slow would land behind a seal and
 * read as put in afterwards. So a change is not made from a machine whose clock is off AWS's.
 */
function refuseSkewedClock(aws: Date | undefined, here: Date): void {
  if (!aws || Number.isNaN(aws.getTime())) return;
  const skew = here.getTime() - aws.getTime();
  if (Math.abs(skew) <= MAX_CLOCK_SKEW_MS) return;
  throw new TargetUnavailableError(
    `This machine's clock is ${Math.round(Math.abs(skew) / 1000)} s ${skew < 0 ? "behind" : "ahead of"} AWS's: an audit record made with it would land out of order in the trail. Set the clock (NTP) and run the command again`,
  );
}

/** What `make` makes, made on first use and kept; a failed make is not kept, so the next use tries again. */
function onFirstUse<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make().catch((error: unknown) => {
      made = undefined;
      throw error;
    });
    return made;
  };
}

/** A sealer made on first use, so a command that seals nothing reaches no key. */
function lazySealer(make: () => Promise<Sealer>): Sealer {
  const get = onFirstUse(make);
  return {
    seal: async (plain, context) => (await get()).seal(plain, context),
    open: async (sealed, context) => (await get()).open(sealed, context),
  };
}

/** The apps' request buckets, found on first use, so a command that creates no app reaches no usage plan. */
function lazyLimits(make: () => Promise<AppLimits>): AppLimits {
  const get = onFirstUse(make);
  return {
    register: async (appId) => (await get()).register(appId),
    registered: async () => (await get()).registered(),
  };
}

/** The target cannot be reached or described: the runtime is not running, a stack is missing. */
export class TargetUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetUnavailableError";
  }
}

/** What `npm start` writes while it runs (local/main.ts): where each engine is, and how to reach it. */
const runtimeFile = z.object({
  environment: z.enum(ENVIRONMENTS),
  base_url: z.string(),
  /** The region and credentials the local engines take; absent from a runtime that predates them. */
  region: z.string().min(1).optional(),
  credentials: z.object({ accessKeyId: z.string().min(1), secretAccessKey: z.string().min(1) }).optional(),
  dynamodb_endpoint: z.url(),
  /** The local key service and its sealing key; absent from a runtime that predates them. */
  kms_endpoint: z.url().optional(),
  sealing_key_id: z.string().min(1).optional(),
  /** The key the audit trail's digests are signed with; absent from a runtime that predates it. */
  audit_sealing_key_id: z.string().min(1).optional(),
  /** The local usage plan's control plane and the plan; absent from a runtime that predates them. */
  apigateway_endpoint: z.url().optional(),
  usage_plan_id: z.string().min(1).optional(),
  /** The local S3 engine and its uploads bucket; absent from a runtime that predates the erase command. */
  s3_endpoint: z.url().optional(),
  uploads_bucket: z.string().min(1).optional(),
  tables: z.object({
    APPS_TABLE: z.string().min(1),
    EVENTS_TABLE: z.string().min(1).optional(),
    VERIFICATIONS_TABLE: z.string().min(1).optional(),
    AUDIT_TABLE: z.string().min(1).optional(),
    AUDIT_DIGESTS_TABLE: z.string().min(1).optional(),
  }),
  /** The e-Devlet the runtime's functions ask (its simulator, or another with LOCAL_EDEVLET=off); absent from a runtime that predates it. */
  edevlet: z.object({ url: z.url(), mobile_url: z.url() }).optional(),
  /** The local identity endpoint and its pools; absent from a runtime that predates them. */
  identity: z
    .object({
      endpoint: z.url(),
      staff_user_pool_id: z.string().min(1),
      portal_user_pool_id: z.string().min(1).optional(),
    })
    .optional(),
});

/** A user pool id starts with its region: `eu-central-1_AbC123`. */
function regionOfPool(userPoolId: string): string {
  const region = userPoolId.split("_")[0];
  if (!region || region === userPoolId) throw new TargetUnavailableError(`${userPoolId} is not a user pool id`);
  return region;
}

/** The running local runtime's description (`runtime.json` in its data folder), with its region and credentials. */
function localRuntime(options: TargetOptions, env: NodeJS.ProcessEnv) {
  const dataDir = path.resolve(options.dataDir ?? env.LOCAL_DATA_DIR ?? ".local");
  const file = path.join(dataDir, "runtime.json");
  if (!existsSync(file)) {
    throw new TargetUnavailableError(
      `The local runtime is not running (no ${file}): start it with npm start, or aim at a deployed environment with --env`,
    );
  }
  const parsed = runtimeFile.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new TargetUnavailableError(`${file} is not a runtime description`);
  const runtime = parsed.data;
  const { region, credentials } = runtime;
  if (!region || !credentials) {
    throw new TargetUnavailableError(
      `${file} names no region or credentials (a runtime started before them): restart npm start`,
    );
  }
  return { dataDir, file, runtime, region, credentials };
}

function localTarget(options: TargetOptions, env: NodeJS.ProcessEnv): Target {
  const { dataDir, file, runtime, region, credentials } = localRuntime(options, env);
  /** Where a local engine is, in the region and with the credentials every engine takes. */
  const at = (endpoint: string) => ({ endpoint, region, credentials, maxAttempts: 2 });
  const raw = new DynamoDBClient(at(runtime.dynamodb_endpoint));
  const auditTable = runtime.tables.AUDIT_TABLE;
  if (!auditTable) throw new TargetUnavailableError(`${file} names no audit table: restart npm start`);
  const audit = auditIn(raw, auditTable);
  const cognitoClients: CognitoIdentityProviderClient[] = [];
  let s3: S3Client | undefined;
  let kms: KMSClient | undefined;
  let apiGateway: APIGatewayClient | undefined;
  /** A pool of the local identity endpoint, by the id runtime.json gives it. */
  const localPool = (which: string, userPoolId: string | undefined) => {
    const identity = runtime.identity;
    if (!identity || !userPoolId) {
      throw new TargetUnavailableError(
        `${file} names no identity endpoint for the ${which} pool (a runtime started before it existed): restart npm start`,
      );
    }
    const cognito = new CognitoIdentityProviderClient({ ...at(identity.endpoint), region: regionOfPool(userPoolId) });
    cognitoClients.push(cognito);
    return [cognito, userPoolId] as const;
  };
  return {
    label: `local runtime (${runtime.environment}, ${runtime.base_url})`,
    environment: runtime.environment,
    destinations: destinationsFor(runtime.environment, "local"),
    apps: appsIn(raw, runtime.tables.APPS_TABLE, audit),
    organizations: organizationsIn(raw, runtime.tables.APPS_TABLE, audit),
    audit,
    async auditCheck() {
      const { kms_endpoint: endpoint, audit_sealing_key_id: keyId } = runtime;
      const digestsTable = runtime.tables.AUDIT_DIGESTS_TABLE;
      if (!endpoint || !keyId || !digestsTable) {
        throw new TargetUnavailableError(`${file} names no audit digests or sealing key: restart npm start`);
      }
      kms ??= new KMSClient(at(endpoint));
      const { digests, verifier } = sealingIn(raw, kms, digestsTable, keyId);
      return { prints: audit, strays: audit, digests, verifier };
    },
    async operator() {
      const user = os.userInfo().username;
      return operatorContext(`local:${user}`, user, os.hostname());
    },
    clock,
    async events() {
      const name = runtime.tables.EVENTS_TABLE;
      if (!name) throw new TargetUnavailableError(`${file} names no events table: restart npm start`);
      return eventsIn(raw, name, audit);
    },
    async erasure() {
      const table = runtime.tables.VERIFICATIONS_TABLE;
      const { s3_endpoint: endpoint, uploads_bucket: bucket } = runtime;
      if (!table || !endpoint || !bucket) {
        throw new TargetUnavailableError(`${file} names no verifications table or S3 engine: restart npm start`);
      }
      s3 = new S3Client({ ...at(endpoint), forcePathStyle: true });
      return { verifications: verificationsIn(raw, table, audit), documents: documentsIn(s3, bucket) };
    },
    sealer: lazySealer(async () => {
      const keyFile = path.join(dataDir, "secrets.key");
      if (!existsSync(keyFile)) throw new TargetUnavailableError(`No sealing key at ${keyFile}`);
      const { kms_endpoint: endpoint, sealing_key_id: keyId } = runtime;
      if (!endpoint || !keyId) throw new TargetUnavailableError(`${file} names no key service: restart npm start`);
      kms ??= new KMSClient(at(endpoint));
      const material = readFileSync(keyFile, "utf8").trim();
      return sealerOn(kms, keyId, async () => material);
    }),
    limits: lazyLimits(async () => {
      const { apigateway_endpoint: endpoint, usage_plan_id: planId } = runtime;
      if (!endpoint || !planId) throw new TargetUnavailableError(`${file} names no usage plan: restart npm start`);
      apiGateway = new APIGatewayClient(at(endpoint));
      return appLimitsOn(apiGateway, planId);
    }),
    async staff() {
      return staffOf(...localPool("staff", runtime.identity?.staff_user_pool_id));
    },
    async portalUsers() {
      return peopleOf(...localPool("portal", runtime.identity?.portal_user_pool_id));
    },
    close() {
      raw.destroy();
      s3?.destroy();
      kms?.destroy();
      apiGateway?.destroy();
      for (const cognito of cognitoClients) cognito.destroy();
    },
  };
}

/** A deployed stack's outputs, read once and only when a flag does not already give them. */
function stackOutputs(client: CloudFormationClient, name: string): () => Promise<Record<string, string>> {
  let outputs: Promise<Record<string, string>> | undefined;
  return () => {
    outputs ??= client.send(new DescribeStacksCommand({ StackName: name })).then(
      ({ Stacks }) =>
        Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((output) => [output.OutputKey, output.OutputValue])),
      (error: unknown) => {
        throw new TargetUnavailableError(
          `Cannot read the outputs of stack ${name}: ${error instanceof Error ? error.message : String(error)}`,
        );
      },
    );
    return outputs;
  };
}

async function requiredOutput(
  outputs: () => Promise<Record<string, string>>,
  key: string,
  stack: string,
  flag: string,
) {
  const value = (await outputs())[key];
  if (!value) throw new TargetUnavailableError(`Stack ${stack} has no output ${key}; pass ${flag}`);
  return value;
}

async function deployedTarget(options: TargetOptions & { env: Environment }): Promise<Target> {
  // Region and credentials come from the standard AWS chain unless --region names the region.
  const clientConfig = options.region ? { region: options.region } : {};
  const stack = options.stack ?? stackName(options.env);
  const cloudFormation = new CloudFormationClient(clientConfig);
  const outputs = stackOutputs(cloudFormation, stack);
  const table = options.appsTable ?? (await requiredOutput(outputs, "AppsTableName", stack, "--apps-table"));
  const auditTable = options.auditTable ?? (await requiredOutput(outputs, "AuditTableName", stack, "--audit-table"));
  const raw = new DynamoDBClient(clientConfig);
  const audit = auditIn(raw, auditTable);
  let sts: STSClient | undefined;
  let secretsManager: SecretsManagerClient | undefined;
  const cognitoClients: CognitoIdentityProviderClient[] = [];
  let s3: S3Client | undefined;
  let kms: KMSClient | undefined;
  let apiGateway: APIGatewayClient | undefined;
  /** A deployed pool: it lives in the region its id names, whatever the default region is. */
  const deployedPool = (userPoolId: string) => {
    const cognito = new CognitoIdentityProviderClient({ region: regionOfPool(userPoolId) });
    cognitoClients.push(cognito);
    return cognito;
  };
  return {
    label: `${options.env} (${stack}, table ${table})`,
    environment: options.env,
    destinations: destinationsFor(options.env, "deployed"),
    apps: appsIn(raw, table, audit),
    organizations: organizationsIn(raw, table, audit),
    audit,
    async auditCheck() {
      const complete = "--env with a complete stack";
      const digestsTable = await requiredOutput(outputs, "AuditDigestsTableName", stack, complete);
      const keyId = await requiredOutput(outputs, "AuditSealingKeyArn", stack, complete);
      kms ??= new KMSClient(clientConfig);
      const { digests, verifier } = sealingIn(raw, kms, digestsTable, keyId);
      return { prints: audit, strays: audit, digests, verifier };
    },
    async operator() {
      sts ??= new STSClient(clientConfig);
      const answered = answerDates(sts);
      const { Arn, UserId } = await sts.send(new GetCallerIdentityCommand({}));
      refuseSkewedClock(answered.at(-1), clock.now());
      if (!Arn) throw new TargetUnavailableError("The AWS credentials name no principal");
      // An assumed role's session name (the person, with the operator role) ends the ARN.
      return operatorContext(Arn, Arn.split("/").at(-1) ?? UserId ?? Arn, "aws");
    },
    clock,
    async events() {
      const name = options.eventsTable ?? (await requiredOutput(outputs, "EventsTableName", stack, "--events-table"));
      return eventsIn(raw, name, audit);
    },
    async erasure() {
      const table = await requiredOutput(outputs, "VerificationsTableName", stack, "--env with a complete stack");
      const bucket = await requiredOutput(outputs, "UploadsBucketName", stack, "--env with a complete stack");
      s3 = new S3Client(clientConfig);
      return { verifications: verificationsIn(raw, table, audit), documents: documentsIn(s3, bucket) };
    },
    sealer: lazySealer(async () => {
      const keyId = options.sealingKeyId ?? (await requiredOutput(outputs, "SealingKeyArn", stack, "--sealing-key-id"));
      kms ??= new KMSClient(clientConfig);
      // Values sealed before KMS still open, with the retired key material, until they are resealed.
      return sealerOn(kms, keyId, async () => {
        const arn =
          options.secretsKeyArn ?? (await requiredOutput(outputs, "SecretsKeyArn", stack, "--secrets-key-arn"));
        secretsManager = new SecretsManagerClient(clientConfig);
        return secretIn(secretsManager, arn);
      });
    }),
    limits: lazyLimits(async () => {
      const planId = options.usagePlanId ?? (await requiredOutput(outputs, "UsagePlanId", stack, "--usage-plan-id"));
      apiGateway = new APIGatewayClient(clientConfig);
      return appLimitsOn(apiGateway, planId);
    }),
    async staff() {
      const userPoolId =
        options.staffUserPoolId ?? (await requiredOutput(outputs, "StaffUserPoolId", stack, "--staff-user-pool-id"));
      return staffOf(deployedPool(userPoolId), userPoolId);
    },
    async portalUsers() {
      const userPoolId =
        options.portalUserPoolId ?? (await requiredOutput(outputs, "PortalUserPoolId", stack, "--portal-user-pool-id"));
      return peopleOf(deployedPool(userPoolId), userPoolId);
    },
    close() {
      raw.destroy();
      cloudFormation.destroy();
      secretsManager?.destroy();
      s3?.destroy();
      kms?.destroy();
      apiGateway?.destroy();
      sts?.destroy();
      for (const cognito of cognitoClients) cognito.destroy();
    },
  };
}

/** The e-Devlet addresses the local runtime's functions ask, from the `runtime.json` that `npm start` writes. */
export function localEdevlet(options: TargetOptions, env: NodeJS.ProcessEnv): { url: string; mobile_url: string } {
  const dataDir = path.resolve(options.dataDir ?? env.LOCAL_DATA_DIR ?? ".local");
  const file = path.join(dataDir, "runtime.json");
  if (!existsSync(file)) {
    throw new TargetUnavailableError(
      `The local runtime is not running (no ${file}): start it with npm start, or name e-Devlet with --url`,
    );
  }
  const edevlet = runtimeFile.safeParse(JSON.parse(readFileSync(file, "utf8"))).data?.edevlet;
  if (!edevlet) throw new TargetUnavailableError(`${file} names no e-Devlet: restart npm start, or name it with --url`);
  return edevlet;
}

export async function resolveTarget(options: TargetOptions, env: NodeJS.ProcessEnv): Promise<Target> {
  if (options.env) return deployedTarget({ ...options, env: options.env });
  return localTarget(options, env);
}
