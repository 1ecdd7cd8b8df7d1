/**
 * An API for one test file: fresh tables (by prefix) on the shared engines, the deployed
 * handler modules behind the local gateway, on a port of its own, called over HTTP.
 */

import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import {
  ChallengeNameType,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
} from "@aws-sdk/client-cognito-identity-provider";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { S3Client } from "@aws-sdk/client-s3";
import { DeleteCommand, type DynamoDBDocumentClient, paginateScan } from "@aws-sdk/lib-dynamodb";
import { inject } from "vitest";
import { documentClientOf } from "#shared/adapters/aws-clients";
import { DynamoDbAppStore } from "#shared/adapters/dynamodb-app-store";
import { DynamoDbOrganizationStore } from "#shared/adapters/dynamodb-organization-store";
import { sendingKey } from "#shared/adapters/dynamodb-sending-budget";
import { SecretBox } from "#shared/adapters/secret-box";
import { systemClock } from "#shared/adapters/system-clock";
import type { Throttle } from "#shared/declarations/routes";
import {
  APPS_TABLE,
  AUDIT_DIGESTS_TABLE,
  AUDIT_TABLE,
  EVENTS_TABLE,
  IDEMPOTENCY_TABLE,
  USAGE_TABLE,
  VERIFICATIONS_TABLE,
} from "#shared/declarations/tables";
import type { Environment } from "#shared/domain/environments";
import { destinationsFor } from "#shared/domain/environments";
import type { PortalRole } from "#shared/domain/organizations";
import { type StaffGroup, staffPassword } from "#shared/domain/staff";
import type { SendingKind } from "#shared/domain/tenant-limits";
import type { AppLimits } from "#shared/ports/app-limits";
import type { AppStore } from "#shared/ports/app-store";
import type { Clock } from "#shared/ports/clock";
import type { Sealer } from "#shared/ports/sealer";
import { createApp, type NewApp } from "#shared/use-cases/accounts/apps";
import { addMembership, createOrganization } from "#shared/use-cases/accounts/organizations";
import { type EdevletSimulator, type SimulatorHandler, startEdevletSimulator } from "../../local/edevlet.ts";
import { LOCAL_BUCKET, LOCAL_REGION } from "../../local/engines.ts";
import { createGateway, type GatewayOptions } from "../../local/gateway.ts";
import { type Handlers, loadHandlers } from "../../local/handlers.ts";
import { startIdentity } from "../../local/identity.ts";
import { localSealer, startKms } from "../../local/kms.ts";
import { type Pipeline, startPipeline } from "../../local/pipeline.ts";
import {
  ensureTables,
  type IssuerSetting,
  LOCAL_POOLS,
  LOCAL_PORTAL_POOL,
  LOCAL_STAFF_POOL,
  localSettings,
  PUBLISHED_CERTIFICATES,
  tableName,
} from "../../local/resources.ts";
import { type LocalQueues, startQueues } from "../../local/sqs.ts";
import { localAppLimits, startUsagePlans } from "../../local/usage-plans.ts";
import { buildWeb } from "../../web/build.ts";
import { type StaffUser, signedInUser } from "./pool-users.ts";

export type { StaffUser } from "./pool-users.ts";

/** A signed-in portal user, a member of `organizationId` with `role`. */
export interface PortalUser extends StaffUser {
  organizationId: string;
  role: PortalRole;
}

export interface TestApi {
  baseUrl: string;
  /** The portal API's base URL: the page at `/portal/`, the API at `/portal/v1/...`. */
  portalUrl: string;
  /** A new organisation of this environment; its id. */
  organization(name?: string): Promise<string>;
  /** A new portal user with `role` in `organizationId` (a new organisation when absent), signed in with a password. */
  portalUser(role: PortalRole, organizationId?: string): Promise<PortalUser>;
  /** A new app owned by `organizationId`, as the ops command creates one. */
  organizationApp(organizationId: string, webhookUrl?: string): Promise<NewApp>;
  /** The backoffice API's base URL: the console at `/backoffice/`, the staff API at `/backoffice/v1/...`. */
  backofficeUrl: string;
  /** The local identity endpoint serving the staff pool. */
  identity: {
    endpoint: string;
    userPoolId: string;
    clientId: string;
    cognito: CognitoIdentityProviderClient;
    /** The temporary password in the latest invitation the pools mailed `username`, if any. */
    invitationOf(username: string): { to: string; temporaryPassword: string } | undefined;
    /**
     * The portal page's first sign-in of an invited `username`: the temporary password from their
     * invitation, then a new one as the pool asks; answers their access token.
     */
    firstPortalSignIn(username: string): Promise<string>;
  };
  /** A new staff user in `groups` (none for a user in no group), signed in with a password. */
  staffUser(groups: readonly StaffGroup[]): Promise<StaffUser>;
  environment: Environment;
  tables: {
    apps: string;
    verifications: string;
    idempotency: string;
    events: string;
    audit: string;
    auditDigests: string;
    usage: string;
  };
  bucket: string;
  /** Direct access to the engines, for arranging and inspecting state: never through the proxy. */
  db: DynamoDBDocumentClient;
  /**
   * Starts the app's window of sends by hand of `kind` afresh, as if the last one had ended
   * (`SENDING_LIMITS`): for a test that sends several test events of one app in a row.
   */
  newSendingWindow(appId: string, kind: SendingKind): Promise<void>;
  s3: S3Client;
  apps: AppStore;
  newApp(environment?: Environment, webhookUrl?: string): Promise<NewApp>;
  /** A new app stored without its request bucket, as if its registration had been lost. */
  appWithoutLimits(): Promise<NewApp>;
  /** Every function's handler, as loaded for this file. */
  handlers: Handlers;
  /** The change-stream poller, when started with `pipeline: true` (the tick is left to the test). */
  pipeline: Pipeline | undefined;
  /** The e-Devlet simulator processing asks, unless the file runs with no issuer. */
  simulator: EdevletSimulator | undefined;
  /** The local queues: deliveries, and the issuer lookups. */
  queues: LocalQueues;
  /** Seals and opens with the key the functions of this file use. */
  sealer: Sealer;
  /** The apps' request buckets, in the usage plan the public gateway checks. */
  limits: AppLimits;
  clock: Clock;
  scan(table: string): Promise<Record<string, unknown>[]>;
  /** How many items `table` holds, read consistently. */
  count(table: string): Promise<number>;
  stop(): Promise<void>;
}

/** The loaded simulator handler, once the handlers load; the simulator's server starts before them. */
let simulatorHandler: SimulatorHandler | undefined;
const lazySimulator: SimulatorHandler = (event, invocation) => {
  if (!simulatorHandler) throw new Error("The handlers have not loaded yet");
  return simulatorHandler(event, invocation);
};

/** The issuer a test file's processing asks: the e-Devlet simulator (as configured), or none. */
export interface TestIssuer {
  /** The simulator's certificate folders; the published set by default. */
  documents?: string[];
  /** Further issuer settings: `EDEVLET_PROTOCOL`, `ISSUER_RETRY_WINDOW_S`, ... */
  settings?: Partial<Record<IssuerSetting, string>>;
  /** Milliseconds the simulator waits before each answer. */
  latencyMs?: number;
  /** Lookups in flight at once (the issuer queue's readers). */
  concurrency?: number;
}

/** What `startApi` takes: the engines' endpoints, the issuer, and the gateways' limits. */
interface ApiOptions {
  environment?: Environment;
  dynamoEndpoint?: string;
  /** The S3 endpoint the functions call and sign upload URLs for (a fault proxy); the shared engine by default. */
  s3Endpoint?: string;
  pipeline?: boolean;
  /** The e-Devlet simulator and how processing asks it; `false` runs with no issuer (`ISSUER=none`). */
  issuer?: TestIssuer | false;
  /** Stage throttling in the gateway, as deployed; none by default, so tests can burst. */
  throttle?: GatewayOptions["throttle"];
  /** The web ACL's rate rules in front of the gateways; none by default. */
  edge?: GatewayOptions["edge"];
  /** Each app's own bucket in the usage plan, as deployed; none by default (the plan's keys are checked regardless). */
  appThrottle?: Throttle;
}

export async function startApi(options: ApiOptions = {}): Promise<TestApi> {
  const environment = options.environment ?? "sandbox";
  const prefix = `t${randomUUID().slice(0, 8)}-`;
  const services = await startServices(options);
  await configureFunctions(options, environment, prefix, services);
  const stores = await storesOf(prefix, services.identity.url);
  const handlers = await loadHandlers();
  simulatorHandler = handlers["edevlet-simulator"];
  const gateways = await startGateways(options, handlers, services.usagePlans);
  const pipeline = options.pipeline ? await startTestPipeline(stores.tables, handlers, services.queues) : undefined;
  const accounts = accountHelpers(environment, stores, services);
  return {
    ...gateways.urls,
    organization: accounts.newOrganization,
    portalUser: accounts.portalUser,
    organizationApp: accounts.organizationApp,
    identity: identityHelpers(services.identity.url, stores.cognito, services.mailbox),
    staffUser: (groups) => signedInUser(stores.cognito, LOCAL_STAFF_POOL, groups),
    environment,
    tables: stores.tables,
    bucket: LOCAL_BUCKET,
    db: stores.db,
    async newSendingWindow(appId, kind) {
      await stores.db.send(new DeleteCommand({ TableName: stores.tables.events, Key: sendingKey(appId, kind) }));
    },
    s3: stores.s3,
    apps: stores.apps,
    handlers,
    pipeline,
    simulator: services.simulator,
    queues: services.queues,
    sealer: services.sealer,
    limits: services.limits,
    clock: systemClock,
    newApp: accounts.newApp,
    appWithoutLimits: accounts.appWithoutLimits,
    ...tableReaders(stores.db),
    async stop() {
      await pipeline?.stop();
      await services.simulator?.stop();
      await gateways.close();
      await services.identity.stop();
      await services.kms.stop();
      await services.usagePlans.stop();
      await services.queues.stop();
      stores.cognito.destroy();
      stores.raw.destroy();
      stores.s3.destroy();
    },
  };
}

type Services = Awaited<ReturnType<typeof startServices>>;

/** The services beside the functions: KMS, the usage plans, the queues, the simulator and the identity pools. */
async function startServices(options: ApiOptions) {
  const engines = inject("engines");
  const secretsKey = SecretBox.generateKey();
  const kms = await startKms({ port: 0, keyMaterial: secretsKey });
  const sealer = localSealer(kms.url, secretsKey);
  const usagePlans = await startUsagePlans({ port: 0 });
  const issuer = options.issuer === false ? undefined : (options.issuer ?? {});
  const queues = await startQueues({
    port: 0,
    issuerConcurrency: issuer?.concurrency,
    onError: (error) => console.error("local queues:", error),
  });
  const limits = localAppLimits(usagePlans.url);
  // The simulator listens before the handlers load: processing reads e-Devlet's URLs at cold start.
  const simulator = issuer ? await startEdevletSimulator(lazySimulator, 0) : undefined;
  // The invitations the pools mail, each a file, as `npm start` keeps them.
  const mailbox = mkdtempSync(path.join(os.tmpdir(), "verification-api-mailbox-"));
  const identity = await startIdentity({ port: 0, pools: LOCAL_POOLS, credentials: engines.credentials, mailbox });
  return { secretsKey, kms, sealer, usagePlans, issuer, queues, limits, simulator, mailbox, identity };
}

/** The functions' settings in this process's environment, as the handlers read them when they load. */
async function configureFunctions(options: ApiOptions, environment: Environment, prefix: string, services: Services) {
  const engines = inject("engines");
  const { secretsKey, kms, usagePlans, queues, simulator, issuer, identity } = services;
  const webAssets = await builtWeb();
  Object.assign(
    process.env,
    localSettings({
      environment,
      tablePrefix: prefix,
      dynamoEndpoint: options.dynamoEndpoint ?? engines.dynamoEndpoint,
      s3Endpoint: options.s3Endpoint ?? engines.s3Endpoint,
      credentials: engines.credentials,
      secretsKey,
      kmsEndpoint: kms.url,
      apiGatewayEndpoint: usagePlans.url,
      queues: { deliveries: queues.queue("Deliveries").queueUrl, lookups: queues.queue("IssuerLookups").queueUrl },
      issuer: {
        settings: simulator
          ? { EDEVLET_URL: simulator.url, EDEVLET_MOBILE_URL: simulator.url, ...issuer?.settings }
          : { ISSUER: "none" },
        simulator: {
          documents: issuer?.documents ?? [PUBLISHED_CERTIFICATES],
          key: randomUUID(),
          latencyMs: issuer?.latencyMs,
        },
      },
      backoffice: { identityEndpoint: identity.url, webAssets },
    }),
  );
}

type Stores = Awaited<ReturnType<typeof storesOf>>;
/** This file's tables (created), and the clients a test arranges and inspects state with. */
async function storesOf(prefix: string, identityUrl: string) {
  const engines = inject("engines");
  const cognito = new CognitoIdentityProviderClient({ ...clientConfigOf(), endpoint: identityUrl });
  const clientConfig = clientConfigOf();
  const raw = new DynamoDBClient({ ...clientConfig, endpoint: engines.dynamoEndpoint });
  await ensureTables(raw, prefix);
  const db = documentClientOf(raw);
  const s3 = new S3Client({
    ...clientConfig,
    endpoint: engines.s3Endpoint,
    forcePathStyle: true,
    requestChecksumCalculation: "WHEN_REQUIRED",
  });
  const tables = {
    apps: tableName(prefix, APPS_TABLE),
    verifications: tableName(prefix, VERIFICATIONS_TABLE),
    idempotency: tableName(prefix, IDEMPOTENCY_TABLE),
    events: tableName(prefix, EVENTS_TABLE),
    audit: tableName(prefix, AUDIT_TABLE),
    auditDigests: tableName(prefix, AUDIT_DIGESTS_TABLE),
    usage: tableName(prefix, USAGE_TABLE),
  };
  const apps = new DynamoDbAppStore(db, tables.apps);
  const organizations = new DynamoDbOrganizationStore(db, tables.apps);
  return { cognito, raw, db, s3, tables, apps, organizations };
}

/** The public, backoffice and portal gateways over `handlers`, listening; their URLs, and how to close them. */
async function startGateways(options: ApiOptions, handlers: Handlers, usagePlans: Services["usagePlans"]) {
  const server = createGateway({
    handlers,
    region: LOCAL_REGION,
    throttle: options.throttle,
    edge: options.edge,
    usagePlan: { has: usagePlans.has, throttle: options.appThrottle },
  });
  const backoffice = createGateway({ api: "backoffice", handlers, region: LOCAL_REGION, throttle: options.throttle });
  const portal = createGateway({ api: "portal", handlers, region: LOCAL_REGION, throttle: options.throttle });
  const port = await listen(server);
  const backofficePort = await listen(backoffice);
  const portalPort = await listen(portal);
  return {
    urls: {
      baseUrl: `http://127.0.0.1:${port}`,
      backofficeUrl: `http://127.0.0.1:${backofficePort}`,
      portalUrl: `http://127.0.0.1:${portalPort}`,
    },
    async close() {
      for (const gateway of [server, backoffice, portal]) {
        gateway.closeAllConnections();
        await new Promise((resolve) => gateway.close(resolve));
      }
    },
  };
}

/** The change-stream poller over the verifications table, its tick left to the test. */
function startTestPipeline(tables: Stores["tables"], handlers: Handlers, queues: LocalQueues): Promise<Pipeline> {
  return startPipeline({
    endpoint: inject("engines").dynamoEndpoint,
    region: LOCAL_REGION,
    table: tables.verifications,
    consumer: handlers["on-verification-change"],
    deliveries: { queue: queues.queue("Deliveries"), reader: handlers["deliver-webhooks"] },
    lookups: { queue: queues.queue("IssuerLookups"), reader: handlers["ask-issuer"] },
    tick: async () => undefined,
    pollMs: 50,
    tickMs: 3_600_000,
    onError: (error) => console.error("change stream poller:", error),
  });
}

/** The handle's organisations, portal users and apps, created as the ops commands and the portal create them. */
function accountHelpers(
  environment: Environment,
  { organizations, apps, cognito }: Stores,
  { sealer, limits }: Services,
): Pick<TestApi, "portalUser" | "organizationApp" | "newApp" | "appWithoutLimits"> & {
  newOrganization: TestApi["organization"];
} {
  const newOrganization = async (name = `test organisation ${randomUUID()}`) =>
    (await createOrganization({ organizations, clock: systemClock }, { name, environment })).organization_id;
  /** What creating an app needs here, with `appLimits` keeping (or not) its request bucket. */
  const appDeps = (appLimits: Pick<AppLimits, "register">) => ({
    apps,
    sealer,
    limits: appLimits,
    clock: systemClock,
    destinations: destinationsFor(environment, "local"),
  });
  return {
    newOrganization,
    async portalUser(role, organizationId) {
      const organization = organizationId ?? (await newOrganization());
      const user = await signedInUser(cognito, LOCAL_PORTAL_POOL, []);
      await addMembership(
        { organizations, clock: systemClock },
        { organizationId: organization, sub: user.sub, username: user.username, role },
      );
      return { ...user, organizationId: organization, role };
    },
    organizationApp: (organizationId, webhookUrl) =>
      createApp(appDeps(limits), { name: `test app ${randomUUID()}`, environment, webhookUrl, organizationId }),
    newApp: (appEnvironment = environment, webhookUrl) =>
      createApp(appDeps(limits), { name: `test app ${randomUUID()}`, environment: appEnvironment, webhookUrl }),
    // Its registration lost: stored, with no key in the usage plan.
    appWithoutLimits: () =>
      createApp(appDeps({ register: async () => undefined }), { name: `test app ${randomUUID()}`, environment }),
  };
}

/** The handle's `identity`: the staff pool's endpoint, and the invitations the pools mailed to `mailbox`. */
function identityHelpers(
  endpoint: string,
  cognito: CognitoIdentityProviderClient,
  mailbox: string,
): TestApi["identity"] {
  return {
    endpoint,
    userPoolId: LOCAL_STAFF_POOL.id,
    clientId: LOCAL_STAFF_POOL.clientId,
    cognito,
    invitationOf(username) {
      const latest = readdirSync(mailbox)
        .filter((name) => name.endsWith(`-${encodeURIComponent(username)}.json`))
        .sort()
        .at(-1);
      if (!latest) return undefined;
      const mail = JSON.parse(readFileSync(path.join(mailbox, latest), "utf8")) as { to: string; body: string };
      const temporaryPassword = /temporary password is (\S+)\.$/.exec(mail.body)?.[1];
      return temporaryPassword ? { to: mail.to, temporaryPassword } : undefined;
    },
    async firstPortalSignIn(username) {
      const invitation = this.invitationOf(username);
      if (!invitation) throw new Error(`No invitation was mailed to ${username}`);
      const first = await cognito.send(
        new InitiateAuthCommand({
          ClientId: LOCAL_PORTAL_POOL.clientId,
          AuthFlow: "USER_PASSWORD_AUTH",
          AuthParameters: { USERNAME: username, PASSWORD: invitation.temporaryPassword },
        }),
      );
      if (first.ChallengeName !== ChallengeNameType.NEW_PASSWORD_REQUIRED) {
        throw new Error(`${username}'s first sign-in asked for ${first.ChallengeName}, not a new password`);
      }
      const answered = await cognito.send(
        new RespondToAuthChallengeCommand({
          ClientId: LOCAL_PORTAL_POOL.clientId,
          ChallengeName: ChallengeNameType.NEW_PASSWORD_REQUIRED,
          Session: first.Session,
          ChallengeResponses: { USERNAME: username, NEW_PASSWORD: staffPassword() },
        }),
      );
      const token = answered.AuthenticationResult?.AccessToken;
      if (!token) throw new Error(`No access token after ${username}'s new password`);
      return token;
    },
  };
}

/** The handle's `scan` and `count`, read consistently through `db`. */
function tableReaders(db: DynamoDBDocumentClient): Pick<TestApi, "scan" | "count"> {
  return {
    async scan(table) {
      const items: Record<string, unknown>[] = [];
      for await (const page of paginateScan({ client: db }, { TableName: table, ConsistentRead: true })) {
        items.push(...(page.Items ?? []));
      }
      return items;
    },
    async count(table) {
      let count = 0;
      const pages = paginateScan({ client: db }, { TableName: table, Select: "COUNT", ConsistentRead: true });
      for await (const page of pages) count += page.Count ?? 0;
      return count;
    },
  };
}

function clientConfigOf() {
  return { region: LOCAL_REGION, credentials: inject("engines").credentials };
}

/** Listens on a free port of the loopback interface; answers the port. */
async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** The review console, built once per test file. */
let web: Promise<string> | undefined;
function builtWeb(): Promise<string> {
  web ??= (async () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), "verification-web-"));
    await buildWeb(folder);
    return folder;
  })();
  return web;
}
