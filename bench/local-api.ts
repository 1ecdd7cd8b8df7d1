/**
 * The local runtime for the bench, in this process: DynamoDB Local and the S3 engine in
 * memory on loopback ports, fresh tables, the deployed handler modules behind the local
 * gateway, and a counter of every SDK request the shared clients send.
 */

import { mkdtemp } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoDbAppStore } from "#shared/adapters/dynamodb-app-store";
import { SecretBox } from "#shared/adapters/secret-box";
import { systemClock } from "#shared/adapters/system-clock";
import type { Throttle } from "#shared/declarations/routes";
import { APPS_TABLE, IDEMPOTENCY_TABLE, VERIFICATIONS_TABLE } from "#shared/declarations/tables";
import { destinationsFor } from "#shared/domain/destinations";
import { createApp, type NewApp } from "#shared/use-cases/apps";
import { dynamoClients, s3Client } from "#shared/wiring/clients";
import { type AuthorityHandler, startAuthority } from "../local/authority.ts";
import { freePort, LOCAL_BUCKET, LOCAL_CREDENTIALS, LOCAL_REGION, startDynamoDb, startS3 } from "../local/engines.ts";
import { createGateway } from "../local/gateway.ts";
import { loadHandlers } from "../local/handlers.ts";
import { localSealer, startKms } from "../local/kms.ts";
import { type Pipeline, startPipeline } from "../local/pipeline.ts";
import { ensureTables, localSettings, PUBLISHED_CERTIFICATES, tableName } from "../local/resources.ts";
import { startQueue } from "../local/sqs.ts";
import { localAppLimits, startUsagePlans } from "../local/usage-plans.ts";
import { buildWeb } from "../web/build.ts";
import type { Send } from "./customer.ts";
import { inProcess } from "./in-process.ts";

const PREFIX = "bench-";

/** Every SDK request the functions' shared clients send, by operation. */
export class RoundTrips {
  private calls: string[] = [];

  /** A middleware for the deserialize step: inside the retry loop, so each attempt on the wire counts. */
  middleware(service: string) {
    return <Args, Output>(next: (args: Args) => Promise<Output>, context: { commandName?: string }) =>
      async (args: Args): Promise<Output> => {
        this.calls.push(`${service}.${String(context.commandName).replace(/Command$/, "")}`);
        return next(args);
      };
  }

  /** The calls `work` makes (nothing else may run meanwhile). */
  async during(work: () => Promise<unknown>): Promise<string[]> {
    const from = this.calls.length;
    await work();
    return this.calls.slice(from);
  }
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
  /** Another gateway on the same handlers, holding the stage and each app to these rates as deployed; its base URL. */
  throttledGateway(limits: { stage: Throttle; app: Throttle }): Promise<string>;
  /** Starts what follows a change: the stream's consumer and the delivery queue's reader, until stopped. */
  startPipeline(): Promise<Pipeline>;
  stop(): Promise<void>;
}

export async function startBenchApi(): Promise<BenchApi> {
  const dynamoPort = await freePort();
  const s3Port = await freePort();
  const secretsKey = SecretBox.generateKey();
  const kms = await startKms({ port: 0, keyMaterial: secretsKey });
  const usagePlans = await startUsagePlans({ port: 0 });
  // Every handler loads, the change stream's consumer too, which names its delivery queue at init.
  const deliveries = await startQueue({ port: 0 });
  // The issuer's service listens before the handlers load: processing reads its URL at cold start.
  let authorityHandler: AuthorityHandler | undefined;
  const authority = await startAuthority((event) => {
    if (!authorityHandler) throw new Error("The handlers have not loaded yet");
    return authorityHandler(event);
  }, 0);
  // Every handler loads, the backoffice's too: its console is built, its pool is never asked.
  const webAssets = await mkdtemp(path.join(os.tmpdir(), "verification-bench-web-"));
  await buildWeb(webAssets);
  Object.assign(
    process.env,
    localSettings({
      environment: "sandbox",
      tablePrefix: PREFIX,
      dynamoEndpoint: `http://127.0.0.1:${dynamoPort}`,
      s3Endpoint: `http://127.0.0.1:${s3Port}`,
      secretsKey,
      kmsEndpoint: kms.url,
      apiGatewayEndpoint: usagePlans.url,
      deliveryQueueUrl: deliveries.queueUrl,
      // The authority service with the published test certificates, as `npm start` runs it.
      authority: { documents: [PUBLISHED_CERTIFICATES], secret: SecretBox.generateKey(), url: authority.url },
      backoffice: { identityEndpoint: "http://127.0.0.1:9", webAssets },
    }),
  );
  const stops: (() => Promise<void>)[] = [
    () => kms.stop(),
    () => usagePlans.stop(),
    () => deliveries.stop(),
    () => authority.stop(),
  ];
  try {
    const dynamo = await startDynamoDb({ port: dynamoPort });
    stops.push(() => dynamo.stop());
    const s3 = await startS3({ port: s3Port });
    stops.push(() => s3.stop());

    const ownClient = new DynamoDBClient({
      region: LOCAL_REGION,
      credentials: LOCAL_CREDENTIALS,
      endpoint: dynamo.endpoint,
    });
    stops.push(async () => ownClient.destroy());
    await ensureTables(ownClient, PREFIX);
    const apps = new DynamoDbAppStore(DynamoDBDocumentClient.from(ownClient), tableName(PREFIX, APPS_TABLE));
    const sealer = localSealer(kms.url, secretsKey);
    const limits = localAppLimits(usagePlans.url);

    const roundTrips = new RoundTrips();
    // The document client sends through its raw client's stack; Powertools uses the raw client.
    const counter = { step: "deserialize", name: "benchRoundTripCounter" } as const;
    dynamoClients().raw.middlewareStack.add(roundTrips.middleware("DynamoDB"), counter);
    s3Client().middlewareStack.add(roundTrips.middleware("S3"), counter);

    // Each app's key is checked in the usage plan, as deployed; no bucket throttles the load.
    const handlers = await loadHandlers();
    authorityHandler = handlers.authority;
    const gateway = async (limits?: { stage: Throttle; app: Throttle }): Promise<string> => {
      const server = createGateway({
        handlers,
        region: LOCAL_REGION,
        throttle: limits?.stage,
        usagePlan: { has: usagePlans.has, throttle: limits?.app },
      });
      // A load tool stops at its deadline with requests still in the handlers: let them finish
      // before the engines go, or they fail against a closed port.
      let inFlight = 0;
      server.on("request", (_req, res) => {
        inFlight++;
        res.once("close", () => inFlight--);
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      stops.push(async () => {
        const closed = new Promise((resolve) => server.close(resolve));
        for (let waited = 0; inFlight > 0 && waited < 10_000; waited += 20) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        server.closeAllConnections();
        await closed;
      });
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    };

    return {
      baseUrl: await gateway(),
      tables: {
        apps: tableName(PREFIX, APPS_TABLE),
        verifications: tableName(PREFIX, VERIFICATIONS_TABLE),
        idempotency: tableName(PREFIX, IDEMPOTENCY_TABLE),
      },
      bucket: LOCAL_BUCKET,
      roundTrips,
      throttledGateway: gateway,
      inProcess: inProcess(handlers, LOCAL_REGION),
      newApp: (webhookUrl) =>
        createApp(
          { apps, sealer, limits, clock: systemClock, destinations: destinationsFor("sandbox", "local") },
          { name: "bench app", environment: "sandbox", webhookUrl },
        ),
      startPipeline: () =>
        startPipeline({
          endpoint: dynamo.endpoint,
          region: LOCAL_REGION,
          table: tableName(PREFIX, VERIFICATIONS_TABLE),
          consumer: handlers["on-verification-change"],
          deliveries: { queue: deliveries, reader: handlers["deliver-webhooks"] },
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

async function stopAll(stops: (() => Promise<void>)[]): Promise<void> {
  for (const stop of stops.reverse()) await stop().catch(() => undefined);
  dynamoClients().raw.destroy();
  s3Client().destroy();
}
