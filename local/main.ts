/**
 * `npm start`: the whole API on this machine. DynamoDB Local and the S3 engine start, the
 * tables and bucket are created, a dev app is seeded on first run, and the gateway serves
 * the deployed handler modules. Ctrl-C or SIGTERM stops every engine.
 */

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import os from "node:os";
import path from "node:path";
import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { z } from "zod";
import { edgeLimits } from "#shared/declarations/edge";
import { ISSUER_QUEUE } from "#shared/declarations/queues";
import { APP_THROTTLING, STAGE_THROTTLING } from "#shared/declarations/routes";
import { readSettings } from "#shared/declarations/settings";
import { TABLES } from "#shared/declarations/tables";
import { SEAL_INTERVAL_MINUTES } from "#shared/domain/audit-digests";
import { EDEVLET_DEFAULT_MOBILE_URL, EDEVLET_DEFAULT_URL } from "#shared/domain/edevlet";
import { destinationsFor, ENVIRONMENTS } from "#shared/domain/environments";
import { ISSUERS } from "#shared/domain/issuer";
import { syncAppLimits } from "#shared/use-cases/accounts/apps";
import { clock } from "#shared/wiring/config";
import { newKeyMaterial } from "#shared/wiring/sealer";
import { appsIn } from "#shared/wiring/stores/apps";
import { organizationsIn } from "#shared/wiring/stores/organizations";
import { buildWeb } from "../web/build.ts";
import { writeDataFile } from "./data-file.ts";
import { devAppPath, ensureDevApp, SEEDED_NAMES } from "./dev-app.ts";
import { devLoginsPath, ensureDevLogins } from "./dev-logins.ts";
import { type SimulatorHandler, startEdevletSimulator } from "./edevlet.ts";
import {
  LOCAL_REGION,
  type LocalCredentials,
  localClient,
  localCredentialsIn,
  newLocalCredentials,
  startDynamoDb,
  startS3,
} from "./engines.ts";
import { createGateway } from "./gateway.ts";
import { type Handlers, loadHandlers } from "./handlers.ts";
import { startIdentity } from "./identity.ts";
import { localSealer, startKms } from "./kms.ts";
import { startPipeline } from "./pipeline.ts";
import {
  ensureTables,
  ISSUER_SETTINGS,
  LOCAL_POOLS,
  LOCAL_PORTAL_POOL,
  LOCAL_STAFF_POOL,
  localSettings,
  PUBLISHED_CERTIFICATES,
} from "./resources.ts";
import { startQueues } from "./sqs.ts";
import { localAppLimits, startUsagePlans } from "./usage-plans.ts";

const started = Date.now();

const settings = z
  .object({
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    LOCAL_DATA_DIR: z.string().min(1).default(".local"),
    LOCAL_IN_MEMORY: z.enum(["true", "false", "1", "0"]).default("false"),
    LOCAL_ENV: z.enum(ENVIRONMENTS).default("sandbox"),
    DEV_WEBHOOK_URL: z.url().optional(),
    /** The language of the names the first run seeds (the dev app, the dev organisation), as the pages' people read them. */
    LOCAL_LANGUAGE: z.enum(["tr", "en"]).default("tr"),
    DYNAMODB_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    S3_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** How often the tick (expiry, webhook retries) runs; every minute in AWS. */
    LOCAL_TICK_SECONDS: z.coerce.number().min(1).default(10),
    /** Which issuer processing asks: e-Devlet (the simulator, or the URLs given), the lookup contract, or none. */
    ISSUER: z.enum(ISSUERS).default("edevlet"),
    /** The e-Devlet simulator; `off` asks `EDEVLET_URL` and `EDEVLET_MOBILE_URL` as given (e-Devlet's own by default). */
    LOCAL_EDEVLET: z.enum(["on", "off"]).default("on"),
    EDEVLET_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** Milliseconds each of the simulator's step answers takes (a page, the PDF, the mobile JSON), as e-Devlet takes its time. */
    SIMULATOR_LATENCY_MS: z.coerce.number().int().min(0).max(60_000).optional(),
    /** Lookups of the issuer in flight at once, as the stage's issuer queue allows in AWS. */
    ISSUER_CONCURRENCY: z.coerce.number().int().min(2).max(1000).default(ISSUER_QUEUE.maxConcurrency),
    /** The backoffice API (review console and staff API) and the identity endpoint its users sign in at. */
    BACKOFFICE_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    IDENTITY_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** The portal API (the customer portal page and its API). */
    PORTAL_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** The local key service that seals webhook secrets, as KMS does in AWS. */
    KMS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** The local delivery queue (SQS's API), which new webhook events wait in for their first attempt. */
    QUEUE_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** The local usage plan (API Gateway's control plane for the apps' request buckets). */
    USAGE_PLANS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    /** The environment's stage and per-app throttling (429 past it), as deployed; `off` for local load tests. */
    LOCAL_THROTTLE: z.enum(["on", "off"]).default("on"),
  })
  .parse(process.env);

const inMemory = process.argv.includes("--in-memory") || ["true", "1"].includes(settings.LOCAL_IN_MEMORY);
const dataDir = path.resolve(settings.LOCAL_DATA_DIR);
const dynamoPort = settings.DYNAMODB_PORT ?? settings.PORT + 1;
const s3Port = settings.S3_PORT ?? settings.PORT + 2;
const edevletPort = settings.EDEVLET_PORT ?? settings.PORT + 3;
const simulatorUrl = settings.LOCAL_EDEVLET === "on" ? `http://127.0.0.1:${edevletPort}` : undefined;
const backofficePort = settings.BACKOFFICE_PORT ?? settings.PORT + 4;
const identityPort = settings.IDENTITY_PORT ?? settings.PORT + 5;
const identityEndpoint = `http://127.0.0.1:${identityPort}`;
const backofficeUrl = `http://127.0.0.1:${backofficePort}`;
const portalPort = settings.PORTAL_PORT ?? settings.PORT + 6;
const portalUrl = `http://127.0.0.1:${portalPort}`;
const kmsPort = settings.KMS_PORT ?? settings.PORT + 7;
const usagePlansPort = settings.USAGE_PLANS_PORT ?? settings.PORT + 8;
const queuePort = settings.QUEUE_PORT ?? settings.PORT + 9;
/** Certificates added here (at any depth) while the runtime runs are served at the next lookup. */
const localCertificates = path.join(dataDir, "authority");
const baseUrl = `http://127.0.0.1:${settings.PORT}`;
const runtimeFile = path.join(dataDir, "runtime.json");

/** The key that seals webhook secrets: kept beside the data it protects, or per run in memory. */
function secretsKey(): string {
  if (inMemory) return newKeyMaterial();
  const file = path.join(dataDir, "secrets.key");
  if (!existsSync(file)) writeDataFile(file, newKeyMaterial(), { secret: true });
  return readFileSync(file, "utf8").trim();
}

/**
 * The access key the engines take and the functions and the ops command sign with: kept in the
 * data directory (made on its first start), or per run in memory.
 */
function engineCredentials(): LocalCredentials {
  return inMemory ? newLocalCredentials() : localCredentialsIn(dataDir);
}

/** The issuer settings given to `npm start` itself (`EDEVLET_URL`, the retry window, ...), passed on to the functions. */
function issuerSettings(): Record<string, string> {
  return Object.fromEntries(
    ISSUER_SETTINGS.flatMap((name) => (process.env[name] === undefined ? [] : [[name, process.env[name] as string]])),
  );
}

/** The simulator's handler, once the handlers load; its server starts before them. */
let simulatorHandler: SimulatorHandler | undefined;
const lazySimulator: SimulatorHandler = (event, invocation) => {
  if (!simulatorHandler) throw new Error("The handlers have not loaded yet");
  return simulatorHandler(event, invocation);
};

/** What the banner says of the issuer processing asks. */
function issuerLine(): string {
  if (settings.ISSUER === "none") return "none (ISSUER=none): verifications that need the issuer go to review";
  if (settings.ISSUER === "lookup")
    return `the issuer-lookup contract at ${process.env.AUTHORITY_URL ?? "(AUTHORITY_URL unset)"}`;
  const protocol = process.env.EDEVLET_PROTOCOL ?? "form";
  return simulatorUrl
    ? `e-Devlet simulator ${simulatorUrl} (${protocol}; test certificates in docs/test-documents/, and ${localCertificates}/**/<barcode>.pdf)`
    : `e-Devlet (${protocol}) at ${process.env.EDEVLET_URL ?? EDEVLET_DEFAULT_URL} / ${process.env.EDEVLET_MOBILE_URL ?? EDEVLET_DEFAULT_MOBILE_URL} (LOCAL_EDEVLET=off)`;
}

/** What has started, stopped in reverse order. */
const running: { stop(): Promise<void> }[] = [];
const gateways: Server[] = [];
let stopping = false;

async function stop(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    for (const gateway of gateways) {
      gateway.closeAllConnections();
      await new Promise((resolve) => gateway.close(resolve));
    }
    for (const part of running.reverse()) await part.stop().catch(() => undefined);
    rmSync(runtimeFile, { force: true });
  }
  process.exit(code);
}

process.on("SIGINT", () => void stop(0));
process.on("SIGTERM", () => void stop(0));
// `npm start` runs this under a shell, and a signal npm passes on ends the shell without reaching
// this process: once its parent is gone it stops too, rather than hold its ports and engines for nobody.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stop(0);
}, 500).unref();

/** Listens on `port` of the loopback interface. */
async function listen(server: Server, port: number): Promise<void> {
  gateways.push(server);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
}

/** The services the functions call besides the engines: the key service, the usage plan, the queues, the simulator. */
async function startServices(sealingKey: string) {
  // The key service seals with material derived from the same local key, so it lasts as long as the data.
  const kms = await startKms({ port: kmsPort, keyMaterial: sealingKey });
  running.push(kms);
  const usagePlans = await startUsagePlans({
    port: usagePlansPort,
    dataFile: inMemory ? undefined : path.join(dataDir, "usage-plan.json"),
  });
  running.push(usagePlans);
  // Kept beside the data, so a lookup waiting to be retried is retried after a restart too.
  const queues = await startQueues({
    port: queuePort,
    dataFile: inMemory ? undefined : path.join(dataDir, "queues.json"),
    issuerConcurrency: settings.ISSUER_CONCURRENCY,
    onError: (error) => process.stderr.write(`queues: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  running.push(queues);
  // The simulator listens before the handlers load: processing reads e-Devlet's URLs at cold start.
  const simulator = simulatorUrl ? await startEdevletSimulator(lazySimulator, edevletPort) : undefined;
  if (simulator) running.push(simulator);
  return { kms, usagePlans, queues, simulator };
}

type Services = Awaited<ReturnType<typeof startServices>>;

/** The functions' settings, as the stack sets them in AWS, in this process's environment; the web pages built. */
async function configureFunctions(
  sealingKey: string,
  credentials: LocalCredentials,
  { kms, usagePlans, queues, simulator }: Services,
) {
  // The review console, built from its sources at each start: always the code in the tree.
  const webAssets = inMemory ? mkdtempSync(path.join(os.tmpdir(), "verification-web-")) : path.join(dataDir, "web");
  await buildWeb(webAssets);
  Object.assign(
    process.env,
    localSettings({
      environment: settings.LOCAL_ENV,
      tablePrefix: "local-",
      dynamoEndpoint: `http://127.0.0.1:${dynamoPort}`,
      s3Endpoint: `http://127.0.0.1:${s3Port}`,
      credentials,
      secretsKey: sealingKey,
      kmsEndpoint: kms.url,
      apiGatewayEndpoint: usagePlans.url,
      queues: { deliveries: queues.queue("Deliveries").queueUrl, lookups: queues.queue("IssuerLookups").queueUrl },
      issuer: {
        settings: {
          ...issuerSettings(),
          ISSUER: settings.ISSUER,
          ...(simulator ? { EDEVLET_URL: simulator.url, EDEVLET_MOBILE_URL: simulator.url } : {}),
        },
        simulator: {
          documents: [PUBLISHED_CERTIFICATES, localCertificates],
          key: randomBytes(32).toString("base64url"),
          latencyMs: settings.SIMULATOR_LATENCY_MS,
        },
      },
      backoffice: { identityEndpoint, webAssets },
    }),
  );
}

/** DynamoDB Local with its tables, the S3 engine and the identity endpoint. */
async function startEngines(credentials: LocalCredentials): Promise<DynamoDBClient> {
  const storage = inMemory ? undefined : dataDir;
  running.push(await startDynamoDb({ port: dynamoPort, dataDir: storage }));
  running.push(await startS3({ port: s3Port, credentials, dataDir: storage, readableFrom: [backofficeUrl] }));
  const dynamo = new DynamoDBClient(localClient(process.env.DYNAMODB_ENDPOINT as string, credentials));
  await ensureTables(dynamo, "local-");
  running.push(
    await startIdentity({
      port: identityPort,
      dataFile: inMemory ? undefined : path.join(dataDir, "identity.json"),
      pools: LOCAL_POOLS,
      credentials,
      // The review console and the portal page call the pools from the browser; no other page may.
      allowedOrigins: [backofficeUrl, portalUrl],
      // The invitations Cognito would mail, each a JSON file.
      mailbox: inMemory ? mkdtempSync(path.join(os.tmpdir(), "verification-mailbox-")) : path.join(dataDir, "mailbox"),
    }),
  );
  return dynamo;
}

/** The three APIs behind their gateways, with the stage's throttling as deployed unless it is off. */
async function serveApis(handlers: Handlers, usagePlans: Services["usagePlans"]): Promise<void> {
  const throttle = settings.LOCAL_THROTTLE === "on" ? STAGE_THROTTLING[settings.LOCAL_ENV] : undefined;
  // The web ACL's rate rules and each app's own rate come with the stage's throttling, as deployed.
  const edge = throttle ? edgeLimits(settings.LOCAL_ENV) : undefined;
  const usagePlan = { has: usagePlans.has, throttle: throttle ? APP_THROTTLING[settings.LOCAL_ENV] : undefined };
  await listen(
    createGateway({ handlers, region: LOCAL_REGION, accessLog: true, throttle, edge, usagePlan }),
    settings.PORT,
  );
  for (const [api, port] of [
    ["backoffice", backofficePort],
    ["portal", portalPort],
  ] as const) {
    await listen(createGateway({ api, handlers, region: LOCAL_REGION, accessLog: true, throttle, edge }), port);
  }
}

/** The change stream's consumer, the queues' readers and the tick. */
async function startProcessing(handlers: Handlers, queues: Services["queues"]): Promise<void> {
  const pipeline = await startPipeline({
    endpoint: process.env.DYNAMODB_ENDPOINT as string,
    region: LOCAL_REGION,
    table: readSettings(["VERIFICATIONS_TABLE"]).VERIFICATIONS_TABLE,
    consumer: handlers["on-verification-change"],
    deliveries: { queue: queues.queue("Deliveries"), reader: handlers["deliver-webhooks"] },
    lookups: { queue: queues.queue("IssuerLookups"), reader: handlers["ask-issuer"] },
    tick: () => handlers.tick(),
    // As the deployed schedules run them: the e-Devlet canary every 15 minutes, the audit sealer every 5.
    schedules: [
      { run: () => handlers.tick({ canary: true }), everyMs: 15 * 60_000 },
      { run: () => handlers["seal-audit"](), everyMs: SEAL_INTERVAL_MINUTES * 60_000 },
    ],
    checkpointFile: inMemory ? undefined : path.join(dataDir, "stream-checkpoint.json"),
    tickMs: settings.LOCAL_TICK_SECONDS * 1000,
    onError: (error) => process.stderr.write(`pipeline: ${error instanceof Error ? error.message : String(error)}\n`),
  });
  running.push(pipeline);
}

/** What the ops command needs to reach this runtime's engines and tables; removed again on stop. */
function writeRuntimeFile(credentials: LocalCredentials, { kms, usagePlans }: Services): void {
  const { UPLOADS_BUCKET, SEALING_KEY_ID, AUDIT_SEALING_KEY_ID, USAGE_PLAN_ID } = readSettings([
    "UPLOADS_BUCKET",
    "SEALING_KEY_ID",
    "AUDIT_SEALING_KEY_ID",
    "USAGE_PLAN_ID",
  ]);
  const runtime = {
    environment: settings.LOCAL_ENV,
    base_url: baseUrl,
    region: LOCAL_REGION,
    // The two fields alone: an SDK client marks the object it was given with where its credentials came from.
    credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
    dynamodb_endpoint: process.env.DYNAMODB_ENDPOINT,
    kms_endpoint: kms.url,
    sealing_key_id: SEALING_KEY_ID,
    audit_sealing_key_id: AUDIT_SEALING_KEY_ID,
    apigateway_endpoint: usagePlans.url,
    usage_plan_id: USAGE_PLAN_ID,
    s3_endpoint: process.env.S3_ENDPOINT,
    uploads_bucket: UPLOADS_BUCKET,
    tables: Object.fromEntries(TABLES.map((table) => [table.setting, process.env[table.setting]])),
    edevlet: {
      url: simulatorUrl ?? process.env.EDEVLET_URL ?? EDEVLET_DEFAULT_URL,
      mobile_url: simulatorUrl ?? process.env.EDEVLET_MOBILE_URL ?? EDEVLET_DEFAULT_MOBILE_URL,
    },
    identity: {
      endpoint: identityEndpoint,
      staff_user_pool_id: LOCAL_STAFF_POOL.id,
      portal_user_pool_id: LOCAL_PORTAL_POOL.id,
    },
  };
  // It carries the access key: readable by its owner only, as credentials.json is.
  writeDataFile(runtimeFile, `${JSON.stringify(runtime, null, 2)}\n`, { secret: true });
}

/** The dev app (made on the first run) and the seeded staff and portal logins. */
async function seedDevData(
  dynamo: DynamoDBClient,
  sealingKey: string,
  credentials: LocalCredentials,
  { kms, usagePlans }: Services,
) {
  const { APPS_TABLE } = readSettings(["APPS_TABLE"]);
  const apps = appsIn(dynamo, APPS_TABLE);
  // Apps kept from a run before the usage plan existed get their request bucket, as `ops apps sync-limits` gives them.
  const limits = localAppLimits(usagePlans.url);
  await syncAppLimits({ apps, limits });
  const { devApp, created, webhookUrl, name } = await ensureDevApp(
    {
      apps,
      sealer: localSealer(kms.url, sealingKey),
      limits,
      clock,
      destinations: destinationsFor(settings.LOCAL_ENV, "local"),
    },
    {
      dataDir,
      environment: settings.LOCAL_ENV,
      baseUrl,
      webhookUrl: settings.DEV_WEBHOOK_URL,
      name: SEEDED_NAMES[settings.LOCAL_LANGUAGE].app,
    },
  );
  const cognito = new CognitoIdentityProviderClient(localClient(identityEndpoint, credentials));
  const logins = await ensureDevLogins(cognito, {
    dataDir,
    identityEndpoint,
    region: LOCAL_REGION,
    staff: { userPoolId: LOCAL_STAFF_POOL.id, clientId: LOCAL_STAFF_POOL.clientId, apiUrl: backofficeUrl },
    portal: {
      userPoolId: LOCAL_PORTAL_POOL.id,
      clientId: LOCAL_PORTAL_POOL.clientId,
      apiUrl: portalUrl,
      environment: settings.LOCAL_ENV,
      devAppId: devApp.app_id,
      organizationName: SEEDED_NAMES[settings.LOCAL_LANGUAGE].organization,
      organizations: organizationsIn(dynamo, APPS_TABLE),
      apps,
      clock,
    },
  });
  cognito.destroy();
  return { devApp, created, webhookUrl, name, logins };
}

/** What the runtime prints once it is ready: where everything is, and how to sign in. */
function banner({ devApp, created, webhookUrl, name, logins }: Awaited<ReturnType<typeof seedDevData>>): string {
  const staffLogins = logins.staff.users.map(
    (user) => `${user.username} / ${user.password} (${user.groups.join(", ")})`,
  );
  const portalLogins = logins.portal.users.map((user) => `${user.username} / ${user.password} (${user.role})`);
  return [
    `Verification API (${settings.LOCAL_ENV}${inMemory ? ", in memory" : ""}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    `  base URL        ${baseUrl}`,
    `  app             ${name}`,
    `  app id          ${devApp.app_id}${created ? " (new)" : ""}`,
    `  API key         ${devApp.api_key}`,
    `  webhook secret  ${devApp.webhook_secret}`,
    `  webhooks to     ${webhookUrl ?? "none yet (DEV_WEBHOOK_URL=http://127.0.0.1:4000/webhooks npm start sets one; npm run webhooks:listen shows what arrives there)"}`,
    `  saved to        ${devAppPath(dataDir)}`,
    `  issuer          ${issuerLine()}`,
    `  backoffice API  ${backofficeUrl}`,
    `  review console  ${backofficeUrl}/backoffice/`,
    `  staff logins    ${staffLogins.join("; ")}`,
    `  portal API      ${portalUrl}`,
    `  portal          ${portalUrl}/portal/`,
    `  portal logins   ${portalLogins.join("; ")}`,
    `  saved to        ${devLoginsPath(dataDir)}`,
    `  data            ${dataDir}${inMemory ? " (the engines' data in memory: gone when it stops)" : ""}`,
    "Ctrl-C stops the API and its engines.",
  ].join("\n");
}

async function main(): Promise<void> {
  mkdirSync(localCertificates, { recursive: true });
  const sealingKey = secretsKey();
  const credentials = engineCredentials();
  const services = await startServices(sealingKey);
  await configureFunctions(sealingKey, credentials, services);
  const dynamo = await startEngines(credentials);
  const handlers = await loadHandlers();
  simulatorHandler = handlers["edevlet-simulator"];
  await serveApis(handlers, services.usagePlans);
  await startProcessing(handlers, services.queues);
  writeRuntimeFile(credentials, services);
  const seeded = await seedDevData(dynamo, sealingKey, credentials, services);
  process.stdout.write(`${banner(seeded)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`Could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
