/**
 * Warm cost per request: each route through HTTP and the local gateway, and the same route's
 * handler called in-process with its proxy event, beside the bare SDK calls that route must make,
 * on the same engines with the same clients, interleaved in one run. Also the SDK round trips each
 * route makes, counted by a middleware on those clients.
 */
import { randomUUID } from "node:crypto";
import { CopyObjectCommand, GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { keyPk } from "#shared/adapters/dynamodb-key-lookup";
import { hashApiKey } from "#shared/domain/credentials";
import { SNIFF_BYTES } from "#shared/domain/document-types";
import { newId } from "#shared/domain/ids";
import { IDEMPOTENCY_SECONDS } from "#shared/domain/new-verification";
import { documentKey } from "#shared/domain/verification";
import { dynamoClients, s3Client } from "#shared/wiring/clients";
import { BenchCustomer, expectResource, overHttp, type Reply } from "./customer.ts";
import type { BenchApi } from "./local-api.ts";
import { type Percentiles, percentiles, round, timed } from "./stats.ts";

export const WARM_TARGET = 1.2;

/** What a route's handler may add in-process to its bare calls, at p50, in milliseconds. */
export const IN_PROCESS_TARGET_MS = 0.3;

/** The fewest SDK round trips each path can make. */
export const FLOORS = {
  "GET /v1/verifications/{id}": 1,
  "POST /v1/verifications": 3,
  // The upload's size and first bytes, the owner's item, the evidence copy, the change of state.
  "POST /v1/verifications/{id}/upload-complete": 5,
  "authorizer, cache miss": 1,
  "authorizer, cache hit": 0,
} as const;
export type MeasuredPath = keyof typeof FLOORS;

export interface WarmRow {
  path: MeasuredPath;
  /** What the bare side does, in words. */
  bare: string;
  route: Percentiles;
  bareCalls: Percentiles;
  ratio: { p50: number; p95: number; p99: number };
  /** The handler called in-process with the proxy event (no loopback, no gateway); absent for the authorizer rows. */
  inProcess?: Percentiles;
}

export interface RoundTripRow {
  path: MeasuredPath;
  floor: number;
  /** Fewest and most round trips seen over every measured request. */
  min: number;
  max: number;
  /** The calls of one request, in order. */
  calls: string[];
}

interface Collected {
  route: number[];
  inProcess: number[];
  bare: number[];
  trips: string[][];
}

function expectStatus(reply: Reply, status: number): void {
  if (reply.status !== status)
    throw new Error(`Expected ${status}, got ${reply.status}: ${JSON.stringify(reply.json)}`);
}

function row(path: MeasuredPath, bare: string, data: Collected): WarmRow {
  const route = percentiles(data.route);
  const bareCalls = percentiles(data.bare);
  return {
    path,
    bare,
    route,
    bareCalls,
    ratio: {
      p50: round(route.p50 / bareCalls.p50),
      p95: round(route.p95 / bareCalls.p95),
      p99: round(route.p99 / bareCalls.p99),
    },
    ...(data.inProcess.length > 0 ? { inProcess: percentiles(data.inProcess) } : {}),
  };
}

function trips(path: MeasuredPath, data: Collected): RoundTripRow {
  const counts = data.trips.map((calls) => calls.length);
  return {
    path,
    floor: FLOORS[path],
    min: Math.min(...counts),
    max: Math.max(...counts),
    calls: data.trips[0] ?? [],
  };
}

const collected = (): Collected => ({ route: [], inProcess: [], bare: [], trips: [] });

type Recorders = ReturnType<typeof recorders>;

/** How one sample of each side is recorded: the route over HTTP (with its round trips), in-process, and bare. */
function recorders(api: BenchApi) {
  return {
    /** Times one route call and records the SDK calls it made, or those function `by` made for it. */
    async route(into: Collected, call: () => Promise<Reply>, status: number, by?: string): Promise<Reply> {
      let reply: Reply | undefined;
      const calls = await api.roundTrips.during(async () => {
        const { ms, value } = await timed(call);
        into.route.push(ms);
        reply = value;
      }, by);
      into.trips.push(calls);
      expectStatus(reply as Reply, status);
      return reply as Reply;
    },
    async inProcess(into: Collected, call: () => Promise<Reply>, status: number): Promise<void> {
      const reply = await call();
      expectStatus(reply, status);
      if (reply.handlerMs === undefined) throw new Error("An in-process reply carries its handler's time");
      into.inProcess.push(reply.handlerMs);
    },
    async bare(into: Collected, work: () => Promise<unknown>): Promise<void> {
      into.bare.push((await timed(work)).ms);
    },
  };
}

/** A consistent read of a verification's item, as the routes read it. */
function verificationReader(api: BenchApi): (id: string) => Promise<unknown> {
  const db = dynamoClients().doc;
  return (id) =>
    db.send(
      new GetCommand({ TableName: api.tables.verifications, Key: { verification_id: id }, ConsistentRead: true }),
    );
}

export async function measureWarm(
  api: BenchApi,
  options: { samples: number; authorizerSamples: number; warmup: number },
): Promise<{ warm: WarmRow[]; httpHop: Percentiles; roundTrips: RoundTripRow[] }> {
  const app = await api.newApp();
  const customer = new BenchCustomer(overHttp(api.baseUrl), app.api_key);
  const direct = new BenchCustomer(api.inProcess, app.api_key);
  const record = recorders(api);
  const { sample, storedItem } = await storedSample(api, customer);
  const { documents, directDocuments } = await warmUp(customer, direct, sample.verification_id, options);
  const { hop, get, create, confirm } = await measureRoutes(
    api,
    record,
    { customer, direct, sample, storedItem },
    {
      documents,
      directDocuments,
    },
  );
  const { miss, hit } = await measureAuthorizer(api, record, options.authorizerSamples);

  return {
    httpHop: percentiles(hop.route),
    warm: [
      row("GET /v1/verifications/{id}", "GetItem", get),
      row(
        "POST /v1/verifications",
        "PutItem (idempotency, its condition) + PutItem (item) + UpdateItem (idempotency, the result as a map)",
        create,
      ),
      row(
        "POST /v1/verifications/{id}/upload-complete",
        "HeadObject + ranged GetObject + GetItem + CopyObject + UpdateItem",
        confirm,
      ),
      row("authorizer, cache miss", "GetItem (key) + GetItem (unknown id): a 404 GET with a new key", miss),
      row("authorizer, cache hit", "GetItem (unknown id): the same 404 GET, key cached", hit),
    ],
    roundTrips: [
      trips("GET /v1/verifications/{id}", get),
      trips("POST /v1/verifications", create),
      trips("POST /v1/verifications/{id}/upload-complete", confirm),
      trips("authorizer, cache miss", miss),
      trips("authorizer, cache hit", hit),
    ],
  };
}

type Created = ReturnType<typeof expectResource>;

/** The shape of a real stored verification and a real first response, for the bare writes. */
async function storedSample(api: BenchApi, customer: BenchCustomer) {
  const sample = expectResource(await customer.create(), 201);
  const { Item: storedItem } = await dynamoClients().doc.send(
    new GetCommand({ TableName: api.tables.verifications, Key: { verification_id: sample.verification_id } }),
  );
  if (!storedItem) throw new Error("The created verification was not stored");
  return { sample, storedItem };
}

/** Warms both callers up, and uploads a document for each confirm: one for HTTP and one in-process per sample. */
async function warmUp(
  customer: BenchCustomer,
  direct: BenchCustomer,
  sampleId: string,
  options: { samples: number; warmup: number },
) {
  // JIT and connection pools warm up before anything is recorded.
  for (let i = 0; i < options.warmup; i++) {
    for (const caller of [customer, direct]) {
      await caller.get(sampleId);
      await caller.create();
    }
  }

  // Each confirm needs a verification of its own: one for HTTP and one in-process per sample.
  const documents = [];
  for (let i = 0; i < 2 * options.samples + options.warmup; i++) documents.push(await customer.uploaded());
  for (const [i, document] of documents.splice(0, options.warmup).entries()) {
    await (i % 2 === 0 ? customer : direct).confirm(document.verification_id);
  }
  const directDocuments = documents.splice(0, options.samples);
  return { documents, directDocuments };
}

/** The three routes, each sample over HTTP, in-process and bare, interleaved; and the HTTP hop alone. */
async function measureRoutes(
  api: BenchApi,
  { route, inProcess, bare }: Recorders,
  {
    customer,
    direct,
    sample,
    storedItem,
  }: { customer: BenchCustomer; direct: BenchCustomer; sample: Created; storedItem: Record<string, unknown> },
  {
    documents,
    directDocuments,
  }: { documents: { verification_id: string }[]; directDocuments: { verification_id: string }[] },
) {
  // A request the gateway answers itself (no route matches): the HTTP hop and nothing else.
  const hop = collected();
  const get = collected();
  const create = collected();
  const confirm = collected();
  // The result as the idempotency records keep it: a map, beside the request's fingerprint.
  const bareCreate = bareCreateOf(api, storedItem, { resource: sample });
  const readVerification = verificationReader(api);
  for (const [i, document] of documents.entries()) {
    await route(hop, () => customer.request("GET", "/v1/no-such-route"), 404);
    await route(get, () => customer.get(sample.verification_id), 200);
    await inProcess(get, () => direct.get(sample.verification_id), 200);
    await bare(get, () => readVerification(sample.verification_id));

    await route(create, () => customer.create(), 201);
    await inProcess(create, () => direct.create(), 201);
    await bare(create, bareCreate());

    await route(confirm, () => customer.confirm(document.verification_id), 200);
    const directDocument = directDocuments[i];
    if (!directDocument) throw new Error("Fewer in-process documents than samples");
    await inProcess(confirm, () => direct.confirm(directDocument.verification_id), 200);
    await bare(confirm, bareConfirmOf(api, document.verification_id));
  }
  return { hop, get, create, confirm };
}

/**
 * A create's bare calls, each of a record id of its own: the requests the idempotency records
 * make (Powertools' own expressions), then the item.
 */
function bareCreateOf(api: BenchApi, storedItem: Record<string, unknown>, responseData: { resource: Created }) {
  const db = dynamoClients().doc;
  const fingerprint = "x".repeat(44);
  return () => {
    const recordId = `bench#${randomUUID()}`;
    return async () => {
      const now = Date.now();
      const expiration = Math.floor(now / 1000) + IDEMPOTENCY_SECONDS;
      await db.send(
        new PutCommand({
          TableName: api.tables.idempotency,
          Item: {
            id: recordId,
            expiration,
            status: "INPROGRESS",
            in_progress_expiration: now + 30_000,
            validation: fingerprint,
          },
          ExpressionAttributeNames: {
            "#id": "id",
            "#expiry": "expiration",
            "#in_progress_expiry": "in_progress_expiration",
            "#status": "status",
          },
          ExpressionAttributeValues: { ":now": now / 1000, ":now_in_millis": now, ":inprogress": "INPROGRESS" },
          ConditionExpression:
            "attribute_not_exists(#id) OR #expiry < :now OR (#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      await db.send(
        new PutCommand({
          TableName: api.tables.verifications,
          Item: { ...storedItem, verification_id: newId("verification") },
          ConditionExpression: "attribute_not_exists(verification_id)",
        }),
      );
      await db.send(
        new UpdateCommand({
          TableName: api.tables.idempotency,
          Key: { id: recordId },
          UpdateExpression:
            "SET #expiry = :expiry, #status = :status, #response_data = :response_data, #validation_key = :validation_key",
          ExpressionAttributeNames: {
            "#expiry": "expiration",
            "#status": "status",
            "#response_data": "data",
            "#validation_key": "validation",
          },
          ExpressionAttributeValues: {
            ":expiry": expiration,
            ":status": "COMPLETED",
            ":response_data": responseData,
            ":validation_key": fingerprint,
          },
        }),
      );
    };
  };
}

/** A confirm's bare calls: the upload's size and first bytes, the item, the evidence copy and the change of state. */
function bareConfirmOf(api: BenchApi, verificationId: string): () => Promise<void> {
  const db = dynamoClients().doc;
  const s3 = s3Client();
  const readVerification = verificationReader(api);
  const key = documentKey(verificationId);
  return async () => {
    await s3.send(new HeadObjectCommand({ Bucket: api.bucket, Key: key }));
    const object = await s3.send(
      new GetObjectCommand({ Bucket: api.bucket, Key: key, Range: `bytes=0-${SNIFF_BYTES - 1}` }),
    );
    await object.Body?.transformToByteArray();
    await readVerification(verificationId);
    await s3.send(
      new CopyObjectCommand({ Bucket: api.bucket, CopySource: `${api.bucket}/${key}`, Key: `${key}.evidence` }),
    );
    await db.send(
      new UpdateCommand({
        TableName: api.tables.verifications,
        Key: { verification_id: verificationId },
        UpdateExpression: "SET updated_at = :now",
        ConditionExpression: "attribute_exists(verification_id)",
        ExpressionAttributeValues: { ":now": new Date().toISOString() },
        ReturnValues: "ALL_NEW",
      }),
    );
  };
}

/**
 * The authorizer: a GET of an unknown id (the route's own requests either way: its read, and
 * the refusal's record) with a key the gateway has never seen, then the same again from its
 * cache. The round trips counted are the authorizer function's alone.
 */
async function measureAuthorizer(api: BenchApi, { route, bare }: Recorders, samples: number) {
  const db = dynamoClients().doc;
  const readVerification = verificationReader(api);
  const miss = collected();
  const hit = collected();
  const unknownId = newId("verification");
  for (let i = 0; i < samples; i++) {
    const fresh = await api.newApp();
    const caller = new BenchCustomer(overHttp(api.baseUrl), fresh.api_key);
    await route(miss, () => caller.get(unknownId), 404, "authorizer");
    await route(hit, () => caller.get(unknownId), 404, "authorizer");
    const keyItem = { TableName: api.tables.apps, Key: { pk: keyPk(hashApiKey(fresh.api_key)) } };
    await bare(miss, async () => {
      await db.send(new GetCommand(keyItem));
      await readVerification(unknownId);
    });
    await bare(hit, () => readVerification(unknownId));
  }
  return { miss, hit };
}
