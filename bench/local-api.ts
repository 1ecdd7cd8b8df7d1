/**
 * The local runtime for the bench, in this process: DynamoDB Local and the S3 engine in
 * memory on loopback ports, fresh tables, the deployed handler modules behind the local
 * gateway, and a counter of every SDK request the shared clients send.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { mkdtemp } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { powertoolsLog } from "#shared/adapters/logger";
import type { Throttle } from "#shared/declarations/routes";
import { APPS_TABLE, IDEMPOTENCY_TABLE, VERIFICATIONS_TABLE } from "#shared/declarations/tables";
import { destinationsFor } from "#shared/domain/environments";
import type { EdevletProtocol } from "#shared/domain/issuer";
import { issuerMessageOf } from "#shared/domain/issuer";
import type { StaffGroup } from "#shared/domain/staff";
import { createApp, type NewApp } from "#shared/use-cases/accounts/apps";
import { addMembership, createOrganization } from "#shared/use-cases/accounts/organizations";
import { dynamoClients, s3Client } from "#shared/wiring/clients";
import { clock } from "#shared/wiring/config";
import { newKeyMaterial } from "#shared/wiring/sealer";
import { appsIn } from "#shared/wiring/stores/apps";
import { organizationsIn } from "#shared/wiring/stores/organizations";
import { type SimulatorHandler, startEdevletSimulator } from "../local/edevlet.ts";
import { freePort, LOCAL_BUCKET, LOCAL_REGION, newLocalCredentials, startDynamoDb, startS3 } from "../local/engines.ts";
import { createGateway } from "../local/gateway.ts";
import { type Handlers, loadHandlers } from "../local/handlers.ts";
import { startIdentity } from "../local/identity.ts";
import { localSealer, startKms } from "../local/kms.ts";
import { type Pipeline, startPipeline } from "../local/pipeline.ts";
import {
  ensureTables,
  LOCAL_POOLS,
  LOCAL_PORTAL_POOL,
  LOCAL_STAFF_POOL,
  localSettings,
  PUBLISHED_CERTIFICATES,
  tableName,
} from "../local/resources.ts";
import { startQueues } from "../local/sqs.ts";
import { localAppLimits, startUsagePlans } from "../local/usage-plans.ts";
import { type StaffUser, signedInUser } from "../test/support/pool-users.ts";
import { buildWeb } from "../web/build.ts";
import type { Send } from "./customer.ts";
import { inProcess } from "./in-process.ts";

const PREFIX = "bench-";

/** The longest a function behind the gateway may run: its Lambda timeout and the gateway's, 29 s. */
const HANDLER_TIMEOUT_MS = 29_000;

/** Every SDK request the functions' shared clients send, by operation, and the function that sent it. */
export class RoundTrips {
  private calls: { call: string; by: string | undefined }[] = [];
  private readonly running = new AsyncLocalStorage<string>();

  /** A middleware for the deserialize step: inside the retry loop, so each attempt on the wire counts. */
  middleware(service: string) {
    return <Args, Output>(next: (args: Args) => Promise<Output>, context: { commandName?: string }) =>
      async (args: Args): Promise<Output> => {
        this.calls.push({
          call: `${service}.${String(context.commandName).replace(/Command$/, "")}`,
          by: this.running.getStore(),
        });
        return next(args);
      };
  }

  /** Runs `work` as function `name`: the requests it sends are that function's. */
  as<T>(name: string, work: () => T): T {
    return this.running.run(name, work);
  }

  /** The calls `work` makes, or only those function `by` sends (nothing else may run meanwhile). */
  async during(work: () => Promise<unknown>, by?: string): Promise<string[]> {
    const from = this.calls.length;
    await work();
    return this.calls
      .slice(from)
      .filter((call) => by === undefined || call.by === by)
      .map((call) => call.call);
  }
}

/** Of one verification: how long each of its messages waited in the issuer queue for a reader, and each lookup took (ms). */
export interface IssuerTimes {
  waited: number[];
  asked: number[];
}

export interface BenchApi {
  baseUrl: string;
  tables: { apps: string; verifications: string; idempotency: string };
  bucket: string;
  roundTrips: RoundTrips;
  /** The public API's requests handed to the deployed handlers in this process, with no socket or gateway between. */
  inProcess: Send;
  /** A new app with its key (and `webhookUrl` as its destination), written with a client of its own so the counter never sees it. */
  newApp(webhookUrl?: string): Promise<NewApp>;
  /** The portal API's and the backoffice API's base URLs, on the same handlers. */
  portalUrl: string;
  backofficeUrl: string;
  /** A new organisation's owner, signed in to the local portal pool. */
  newOwner(): Promise<StaffUser>;
  /** A new staff user in `groups`, signed in to the local staff pool. */
  newStaffUser(groups: readonly StaffGroup[]): Promise<StaffUser>;
  /** Another gateway on the same handlers, holding the stage and each app to these rates as deployed; its base URL. */
  throttledGateway(limits: { stage: Throttle; app: Throttle }): Promise<string>;
  /** Starts what follows a change: the stream's consumer and the queues' readers, until stopped. */
  startPipeline(): Promise<Pipeline>;
  /** Per verification id, the time its checks spent waiting on the issuer: the queue, and the lookups. */
  issuerTimes: Map<string, IssuerTimes>;
  stop(): Promise<void>;
}

/**
 * The bench's runtime; its e-Devlet simulator takes `issuerLatencyMs` for each step's answer, as
 * e-Devlet takes its time, and processing asks it by `protocol` (the web form by default), or
 * asks no issuer at all with `issuer: false` (every certificate then waits in review).
 */
interface BenchOptions {
  issuerLatencyMs: number;
  protocol?: EdevletProtocol;
  issuer?: false;
}

export async function startBenchApi(options: BenchOptions): Promise<BenchApi> {
  const services = await startServices();
  await configureFunctions(options, services);
  const { kms, usagePlans, queues, simulator, identity, credentials } = services;
  const cognito = new CognitoIdentityProviderClient({ region: LOCAL_REGION, credentials, endpoint: identity.url });
  const stops: (() => Promise<void>)[] = [
    () => identity.stop(),
    async () => cognito.destroy(),
    () => kms.stop(),
    () => usagePlans.stop(),
    () => queues.stop(),
    () => simulator.stop(),
  ];
  try {
    const engines = await startEngines(services, stops);
    const sealer = localSealer(kms.url, services.secretsKey);
    const limits = localAppLimits(usagePlans.url);
    const roundTrips = countedRoundTrips();

    // Each app's key is checked in the usage plan, as deployed; no bucket throttles the load.
    const handlers = await loadHandlers();
    // The authorizer's own requests are told apart from the route's that follows it.
    const authorizer = handlers.authorizer;
    handlers.authorizer = (event) => roundTrips.as("authorizer", () => authorizer(event));
    const { issuerTimes, timedAskIssuer } = timedIssuer(handlers);
    services.useSimulator(handlers["edevlet-simulator"]);
    const gateway = gatewaysOver(handlers, usagePlans, stops);
    const { organizations, apps, dynamo } = engines;

    return {
      baseUrl: await gateway(),
      tables: {
        apps: tableName(PREFIX, APPS_TABLE),
        verifications: tableName(PREFIX, VERIFICATIONS_TABLE),
        idempotency: tableName(PREFIX, IDEMPOTENCY_TABLE),
      },
      bucket: LOCAL_BUCKET,
      roundTrips,
      issuerTimes,
      throttledGateway: (limits) => gateway(limits),
      portalUrl: await gateway(undefined, "portal"),
      backofficeUrl: await gateway(undefined, "backoffice"),
      newOwner: () => newOwner(organizations, cognito),
      newStaffUser: (groups) => signedInUser(cognito, LOCAL_STAFF_POOL, groups),
      inProcess: inProcess(handlers, LOCAL_REGION),
      newApp: (webhookUrl) =>
        createApp(
          { apps, sealer, limits, clock, destinations: destinationsFor("sandbox", "local") },
          { name: "bench app", environment: "sandbox", webhookUrl },
        ),
      startPipeline: () =>
        startPipeline({
          endpoint: dynamo.endpoint,
          region: LOCAL_REGION,
          table: tableName(PREFIX, VERIFICATIONS_TABLE),
          consumer: handlers["on-verification-change"],
          deliveries: { queue: queues.queue("Deliveries"), reader: handlers["deliver-webhooks"] },
          lookups: { queue: queues.queue("IssuerLookups"), reader: timedAskIssuer },
          // Retries are the tick's; the bench measures first attempts only.
          tick: async () => undefined,
          // Polled often, so the poll's own interval adds little to what is measured.
          pollMs: 5,
          tickMs: 3_600_000,
        }),
      stop: () => stopAll(stops),
    };
  } catch (error) {
    await stopAll(stops);
    throw error;
  }
}

type Services = Awaited<ReturnType<typeof startServices>>;

/** The services beside the functions, the engines' ports and keys chosen: KMS, the usage plans, the queues, the simulator and the identity pools. */
async function startServices() {
  const dynamoPort = await freePort();
  const s3Port = await freePort();
  const secretsKey = newKeyMaterial();
  // The engines' access key, new for each run, as `npm start` makes one per data directory.
  const credentials = newLocalCredentials();
  const kms = await startKms({ port: 0, keyMaterial: secretsKey });
  const usagePlans = await startUsagePlans({ port: 0 });
  // Every handler loads, the change stream's consumer too, which names its queues at init.
  const queues = await startQueues({ port: 0 });
  // The simulator listens before the handlers load: processing reads e-Devlet's URLs at cold start.
  let simulatorHandler: SimulatorHandler | undefined;
  const simulator = await startEdevletSimulator((event, invocation) => {
    if (!simulatorHandler) throw new Error("The handlers have not loaded yet");
    return simulatorHandler(event, invocation);
  }, 0);
  // Every handler loads, the backoffice's and the portal's too, on the local identity endpoint.
  const identity = await startIdentity({ port: 0, pools: LOCAL_POOLS, credentials });
  return {
    dynamoPort,
    s3Port,
    secretsKey,
    credentials,
    kms,
    usagePlans,
    queues,
    simulator,
    identity,
    /** The simulator's handler, once the handlers have loaded. */
    useSimulator(handler: SimulatorHandler) {
      simulatorHandler = handler;
    },
  };
}

/** The functions' settings in this process's environment, as the handlers read them when they load. */
async function configureFunctions(options: BenchOptions, services: Services): Promise<void> {
  const { dynamoPort, s3Port, credentials, secretsKey, kms, usagePlans, queues, simulator, identity } = services;
  const webAssets = await mkdtemp(path.join(os.tmpdir(), "verification-bench-web-"));
  await buildWeb(webAssets);
  Object.assign(
    process.env,
    localSettings({
      environment: "sandbox",
      tablePrefix: PREFIX,
      dynamoEndpoint: `http://127.0.0.1:${dynamoPort}`,
      s3Endpoint: `http://127.0.0.1:${s3Port}`,
      credentials,
      secretsKey,
      kmsEndpoint: kms.url,
      apiGatewayEndpoint: usagePlans.url,
      queues: { deliveries: queues.queue("Deliveries").queueUrl, lookups: queues.queue("IssuerLookups").queueUrl },
      // The e-Devlet simulator with the published test certificates, as `npm start` runs it.
      issuer: {
        settings:
          options.issuer === false
            ? { ISSUER: "none" }
            : {
                EDEVLET_URL: simulator.url,
                EDEVLET_MOBILE_URL: simulator.url,
                EDEVLET_PROTOCOL: options.protocol ?? "form",
              },
        simulator: {
          documents: [PUBLISHED_CERTIFICATES],
          key: newKeyMaterial(),
          latencyMs: options.issuerLatencyMs,
        },
      },
      backoffice: { identityEndpoint: identity.url, webAssets },
    }),
  );
}

/** DynamoDB Local and the S3 engine on their chosen ports, the tables made, and the bench's own stores over them. */
async function startEngines({ dynamoPort, s3Port, credentials }: Services, stops: (() => Promise<void>)[]) {
  const dynamo = await startDynamoDb({ port: dynamoPort });
  stops.push(() => dynamo.stop());
  const s3 = await startS3({ port: s3Port, credentials });
  stops.push(() => s3.stop());

  const ownClient = new DynamoDBClient({
    region: LOCAL_REGION,
    credentials,
    endpoint: dynamo.endpoint,
  });
  stops.push(async () => ownClient.destroy());
  await ensureTables(ownClient, PREFIX);
  const apps = appsIn(ownClient, tableName(PREFIX, APPS_TABLE));
  const organizations = organizationsIn(ownClient, tableName(PREFIX, APPS_TABLE));
  return { dynamo, apps, organizations };
}

/** The functions' requests to DynamoDB and S3, counted. */
function countedRoundTrips(): RoundTrips {
  const roundTrips = new RoundTrips();
  // The document client sends through its raw client's stack; Powertools uses the raw client.
  const counter = { step: "deserialize", name: "benchRoundTripCounter" } as const;
  dynamoClients().raw.middlewareStack.add(roundTrips.middleware("DynamoDB"), counter);
  s3Client().middlewareStack.add(roundTrips.middleware("S3"), counter);
  return roundTrips;
}

/** Each verification's time on the issuer: its lookups (as the functions count them), and its checks' wait in the issuer queue, read by `timedAskIssuer`. */
function timedIssuer(handlers: Handlers) {
  const issuerTimes = new Map<string, IssuerTimes>();
  const timesOf = (id: string) => {
    const times = issuerTimes.get(id) ?? { waited: [], asked: [] };
    issuerTimes.set(id, times);
    return times;
  };
  // Each lookup's own time, as the functions count it (the metric line's latency).
  const lookup = powertoolsLog.lookup;
  powertoolsLog.lookup = (environment, outcome, milliseconds, verificationId) => {
    timesOf(verificationId).asked.push(milliseconds);
    lookup(environment, outcome, milliseconds, verificationId);
  };
  // How long each message waited for one of the issuer queue's readers.
  const askIssuer = handlers["ask-issuer"];
  const timedAskIssuer: typeof askIssuer = (event) => {
    for (const record of event.Records) {
      const message = issuerMessageOf(record.body);
      if (message) timesOf(message.verification_id).waited.push(Date.now() - Number(record.attributes.SentTimestamp));
    }
    return askIssuer(event);
  };
  return { issuerTimes, timedAskIssuer };
}

/**
 * Starts gateways over `handlers`: the public one (with the stage's and each app's limits, if
 * given) or the portal's or backoffice's; answers its URL, its stop pushed onto `stops`.
 */
function gatewaysOver(handlers: Handlers, usagePlans: Services["usagePlans"], stops: (() => Promise<void>)[]) {
  // A load tool stops at its deadline with requests still in the handlers, and closes their
  // sockets: the handlers run on, so they are waited for themselves (not their responses)
  // before the engines go, or they fail against a closed port.
  const running = new Set<Promise<unknown>>();
  const tracked = Object.fromEntries(
    Object.entries(handlers).map(([name, handler]) => [
      name,
      (...args: unknown[]) => {
        const run = (handler as (...input: unknown[]) => Promise<unknown>)(...args);
        running.add(run);
        const done = () => running.delete(run);
        run.then(done, done);
        return run;
      },
    ]),
  ) as unknown as typeof handlers;
  return async (limits?: { stage: Throttle; app: Throttle }, api?: "portal" | "backoffice"): Promise<string> => {
    const server = api
      ? createGateway({ api, handlers: tracked, region: LOCAL_REGION })
      : createGateway({
          handlers: tracked,
          region: LOCAL_REGION,
          throttle: limits?.stage,
          usagePlan: { has: usagePlans.has, throttle: limits?.app },
        });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stops.push(async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      // No longer than a function behind the gateway may run (29 s); one that starts meanwhile is waited for too.
      const deadline = Date.now() + HANDLER_TIMEOUT_MS;
      while (running.size > 0 && Date.now() < deadline) await settledBy([...running], deadline);
      server.closeAllConnections();
      await closed;
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
}

/** A new organisation, and a portal user signed in as its owner. */
async function newOwner(
  organizations: ReturnType<typeof organizationsIn>,
  cognito: CognitoIdentityProviderClient,
): Promise<StaffUser> {
  const organization = await createOrganization(
    { organizations, clock },
    { name: `bench organisation ${Date.now()}`, environment: "sandbox" },
  );
  const user = await signedInUser(cognito, LOCAL_PORTAL_POOL, []);
  await addMembership(
    { organizations, clock },
    { organizationId: organization.organization_id, sub: user.sub, username: user.username, role: "owner" },
  );
  return user;
}

/** Waits until every one of `runs` has settled, or until `deadline` (epoch ms), whichever is first. */
async function settledBy(runs: Promise<unknown>[], deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.allSettled(runs),
    new Promise((resolve) => {
      timer = setTimeout(resolve, deadline - Date.now());
    }),
  ]);
  clearTimeout(timer);
}

async function stopAll(stops: (() => Promise<void>)[]): Promise<void> {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  dynamoClients().raw.destroy();
  s3Client().destroy();
}
