/**
 * Cold start: each function bundled exactly as the stack bundles it, beside two baseline bundles
 * built the same way: the house baseline, what every function must load (the AWS SDK clients it
 * declares, the Powertools logger and its declared settings parsed by zod; for a web page, the
 * page served with the same logger), which the target is judged against; and the SDK-only
 * baseline, the clients alone, kept beside it for information. Each is loaded in fresh `node`
 * processes.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { build, type Metafile } from "esbuild";
import type { FunctionDefinition } from "#shared/declarations/function-definition";
import { FUNCTIONS, type FunctionName } from "#shared/declarations/functions";
import type { WebPageName } from "#shared/http/web-assets";
import { PROJECT_ROOT } from "../infra/bundling.ts";
import { esbuildOptions } from "../infra/esbuild-options.ts";
import { buildWeb } from "../web/build.ts";
import { median, round } from "./stats.ts";

const run = promisify(execFile);

/** As deployed: the functions run with `NODE_OPTIONS=--enable-source-maps` (infra/function-environment.ts). */
const NODE_FLAGS = ["--enable-source-maps"];

/** Times `require` of the bundle named by the first argument; prints milliseconds. */
const PROBE =
  "const t=process.hrtime.bigint();require(process.argv[1]);process.stdout.write(String(Number(process.hrtime.bigint()-t)/1e6))";

/** What a baseline bundle is built from, and what it holds in words. */
interface BaselineSource {
  source: string;
  holds: string[];
}

/** Source that constructs only the clients `name` declares, configured as `shared/adapters/aws-clients.ts` does. */
function sdkBaseline(name: FunctionName): BaselineSource {
  // Widened to the declaration's type, so a setting the function leaves out reads as absent.
  const { access }: FunctionDefinition = FUNCTIONS[name];
  const lines: string[] = [];
  const clients: string[] = [];
  if (Object.keys(access.tables).length > 0) {
    clients.push("DynamoDB document client");
    lines.push(
      'import { DynamoDBClient } from "@aws-sdk/client-dynamodb";',
      'import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";',
      "export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });",
    );
  }
  if (access.uploads.length > 0) {
    clients.push("S3");
    lines.push(
      'import { S3Client } from "@aws-sdk/client-s3";',
      'export const s3 = new S3Client({ requestChecksumCalculation: "WHEN_REQUIRED", responseChecksumValidation: "WHEN_REQUIRED" });',
    );
  }
  // The sealing key and the simulator's cookie key are read from Secrets Manager.
  if (access.secretsKey || access.simulator) {
    clients.push("Secrets Manager");
    lines.push(
      'import { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";',
      "export const secrets = new SecretsManagerClient({});",
    );
  }
  // Webhook secrets and identity numbers are sealed and opened with KMS; expected numbers digested.
  if (access.sealing || access.identitySealing || access.subjectDigest) {
    clients.push("KMS");
    lines.push('import { KMSClient } from "@aws-sdk/client-kms";', "export const kms = new KMSClient({});");
  }
  // New webhook events are sent to the delivery queue; checks and lookups to the issuer queue.
  if (access.deliveryQueue === "send" || access.issuer) {
    clients.push("SQS");
    lines.push('import { SQSClient } from "@aws-sdk/client-sqs";', "export const sqs = new SQSClient({});");
  }
  // New apps get their key in the usage plan through API Gateway's own API.
  if (access.appLimits) {
    clients.push("API Gateway");
    lines.push(
      'import { APIGatewayClient } from "@aws-sdk/client-api-gateway";',
      "export const apiGateway = new APIGatewayClient({});",
    );
  }
  // A user pool's GetUser checks a token; an owner's invitation creates a user in the customer pool.
  if (access.userPool || access.portalUserAdmin) {
    clients.push("Cognito");
    lines.push(
      'import { CognitoIdentityProviderClient } from "@aws-sdk/client-cognito-identity-provider";',
      "export const cognito = new CognitoIdentityProviderClient({});",
    );
  }
  return { source: lines.join("\n"), holds: clients };
}

/** Which page each web-page function serves: its folder under `WEB_ASSETS`. */
const PAGES: Partial<Record<FunctionName, WebPageName>> = {
  "backoffice-console": "backoffice",
  "portal-page": "portal",
};

/** The logger every function logs with, made by the module that makes it for them. */
const LOGGER_IMPORT = 'import { logger } from "#shared/adapters/logger";';

/**
 * Source of what every function must load before its own work: for a function that serves a
 * web page, that page's built files read at init and served with the logger; for every other,
 * the SDK-only baseline's clients, the logger and the settings it declares parsed by
 * `readSettings` (its zod schemas), as its configuration reads them at init.
 */
function houseBaseline(name: FunctionName): BaselineSource {
  const { settings }: FunctionDefinition = FUNCTIONS[name];
  if (settings.includes("WEB_ASSETS")) {
    const page = PAGES[name];
    if (!page) throw new Error(`${name} reads WEB_ASSETS, but no page of web/build.ts is named for it`);
    return {
      source: [
        'import { readdirSync, readFileSync } from "node:fs";',
        'import path from "node:path";',
        LOGGER_IMPORT,
        `const folder = path.join(process.env.WEB_ASSETS, ${JSON.stringify(page)});`,
        'const files = new Map(readdirSync(folder).map((file) => [file, readFileSync(path.join(folder, file), "utf8")]));',
        "export const handler = async (event) => {",
        '  const body = files.get(event.pathParameters?.file ?? "index.html");',
        '  if (body === undefined) logger.warn("no such file", { path: event.path });',
        '  return body === undefined ? { statusCode: 404, body: "" } : { statusCode: 200, body };',
        "};",
      ].join("\n"),
      holds: [`its page's files (${page}/)`, "Powertools logger"],
    };
  }
  const sdk = sdkBaseline(name);
  return {
    source: [
      sdk.source,
      LOGGER_IMPORT,
      'import { readSettings } from "#shared/declarations/settings";',
      "export { logger };",
      `export const settings = readSettings(${JSON.stringify(settings)});`,
    ].join("\n"),
    holds: [
      ...sdk.holds,
      "Powertools logger",
      `${settings.length} setting${settings.length === 1 ? "" : "s"} parsed by zod`,
    ],
  };
}

/** Dummy values for every setting the function reads at init: nothing at init reaches the network. */
function initEnvironment(name: FunctionName, webAssets: string): NodeJS.ProcessEnv {
  const dummies: Record<string, string> = {
    ENVIRONMENT: "sandbox",
    APPS_TABLE: "bench-apps",
    VERIFICATIONS_TABLE: "bench-verifications",
    IDEMPOTENCY_TABLE: "bench-idempotency",
    EVENTS_TABLE: "bench-events",
    UPLOADS_BUCKET: "bench-uploads",
    VERIFICATION_RETENTION_DAYS: "365",
    SECRETS_KEY_ARN: "arn:aws:secretsmanager:us-east-1:000000000000:secret:bench-key",
    SEALING_KEY_ID: "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-0000000000be",
    IDENTITY_KEY_ID: "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-0000000000bf",
    SUBJECT_KEY_ID: "arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-0000000000c0",
    SIMULATOR_DOCUMENTS: "/var/task/issuer",
    SIMULATOR_KEY_ARN: "arn:aws:secretsmanager:us-east-1:000000000000:secret:bench-simulator",
    ISSUER: "edevlet",
    ISSUER_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/000000000000/bench-lookups",
    AUDIT_TABLE: "bench-audit",
    USAGE_TABLE: "bench-usage",
    STAFF_USER_POOL_ID: "us-east-1_BenchStaff",
    STAFF_CLIENT_ID: "benchconsole",
    PORTAL_USER_POOL_ID: "us-east-1_BenchPortal",
    PORTAL_CLIENT_ID: "benchportal",
    USAGE_PLAN_ID: "benchplan",
    DELIVERY_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/000000000000/bench-deliveries",
    // The console reads its built files at init, so they are real.
    WEB_ASSETS: webAssets,
  };
  return {
    PATH: process.env.PATH,
    ...Object.fromEntries(
      FUNCTIONS[name].settings.flatMap((setting) => (dummies[setting] ? [[setting, dummies[setting]]] : [])),
    ),
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: "BENCHDUMMY",
    AWS_SECRET_ACCESS_KEY: "bench-dummy",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    POWERTOOLS_SERVICE_NAME: "verification-api",
    POWERTOOLS_LOG_LEVEL: "INFO",
  };
}

async function initMs(file: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { stdout } = await run(process.execPath, [...NODE_FLAGS, "-e", PROBE, file], { env });
  return Number(stdout);
}

const kb = async (file: string) => round((await stat(file)).size / 1024, 1);

/** One baseline beside a function: what it holds, its bundle, its init and the function's init over it. */
export interface BaselineResult {
  holds: string[];
  kb: number;
  initMs: number;
  /** The function's init p50 over the baseline's. */
  ratio: number;
}

export interface ColdStartRow {
  function: FunctionName;
  bundleKb: number;
  sourceMapKb: number;
  /** The project's own files in the bundle (the rest come from packages). */
  projectFiles: number;
  initMs: number;
  samples: number;
  /** What every function must load: the target is judged against it. */
  house: BaselineResult;
  /** The AWS SDK clients the function declares, and nothing else: for information. */
  sdkOnly: BaselineResult;
  /** What the function's bundle holds that the house baseline's does not: the largest parts, in KB. */
  beyondHouse: { part: string; kb: number }[];
}

/** A function's init p50 may be at most this times its house baseline's. */
export const COLD_START_TARGET = 1.15;

/** Bytes in the output per package (`node_modules/<name>`), or `project code` for the rest. */
function packageBytes(metafile: Metafile): Map<string, number> {
  const bytes = new Map<string, number>();
  for (const output of Object.values(metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      // The innermost package, so a copy nested under another package counts as itself.
      const inPackage = input.includes("node_modules/") ? input.split("node_modules/").at(-1) : undefined;
      const part = inPackage ? (/^(@[^/]+\/[^/]+|[^/]+)/.exec(inPackage)?.[1] ?? inPackage) : "project code";
      bytes.set(part, (bytes.get(part) ?? 0) + bytesInOutput);
    }
  }
  return bytes;
}

function beyond(fn: Map<string, number>, baseline: Map<string, number>): { part: string; kb: number }[] {
  return [...fn]
    .map(([part, bytes]) => ({ part, kb: round((bytes - (baseline.get(part) ?? 0)) / 1024, 1) }))
    .filter((entry) => entry.kb >= 10)
    .sort((a, b) => b.kb - a.kb)
    .slice(0, 5);
}

/** A bundle built with the stack's options, from an entry file or from source. */
async function bundle(
  outfile: string,
  from: { entry: string } | { source: string },
): Promise<{ outfile: string; metafile: Metafile }> {
  const input =
    "entry" in from
      ? { entryPoints: [from.entry] }
      : {
          stdin: { contents: from.source, resolveDir: PROJECT_ROOT, loader: "js" as const, sourcefile: "baseline.js" },
        };
  const { metafile } = await build({ ...esbuildOptions(), ...input, outfile, metafile: true });
  return { outfile, metafile };
}

/** Function `name` and its two baselines, built into `dir` and loaded `runs` times each, taking turns. */
async function measureFunction(
  name: FunctionName,
  dir: string,
  webAssets: string,
  runs: number,
): Promise<ColdStartRow> {
  const sources = { house: houseBaseline(name), sdkOnly: sdkBaseline(name) };
  const fn = await bundle(path.join(dir, name, "index.js"), { entry: path.join(PROJECT_ROOT, FUNCTIONS[name].entry) });
  const house = await bundle(path.join(dir, `${name}-house`, "index.js"), sources.house);
  const sdkOnly = await bundle(path.join(dir, `${name}-sdk`, "index.js"), sources.sdkOnly);
  const env = initEnvironment(name, webAssets);
  const times = { fn: [] as number[], house: [] as number[], sdkOnly: [] as number[] };
  // Taking turns keeps a burst of load on the shared machine from landing on one side only.
  for (let i = 0; i < runs; i++) {
    times.fn.push(await initMs(fn.outfile, env));
    times.house.push(await initMs(house.outfile, env));
    times.sdkOnly.push(await initMs(sdkOnly.outfile, env));
  }
  const initMedian = median(times.fn);
  const against = async (built: { outfile: string }, source: BaselineSource, samples: number[]) => ({
    holds: source.holds,
    kb: await kb(built.outfile),
    initMs: round(median(samples)),
    ratio: round(initMedian / median(samples)),
  });
  return {
    function: name,
    bundleKb: await kb(fn.outfile),
    sourceMapKb: await kb(`${fn.outfile}.map`),
    projectFiles: Object.keys(fn.metafile.inputs).filter((input) => !input.includes("node_modules/")).length,
    initMs: round(initMedian),
    samples: runs,
    house: await against(house, sources.house, times.house),
    sdkOnly: await against(sdkOnly, sources.sdkOnly, times.sdkOnly),
    beyondHouse: beyond(packageBytes(fn.metafile), packageBytes(house.metafile)),
  };
}

export async function measureColdStart(runs: number): Promise<ColdStartRow[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "verification-api-bench-"));
  const rows: ColdStartRow[] = [];
  const webAssets = path.join(dir, "web");
  await buildWeb(webAssets);
  try {
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) {
      const row = await measureFunction(name, dir, webAssets, runs);
      rows.push(row);
      process.stdout.write(
        `cold start  ${name.padEnd(24)} ${row.initMs.toFixed(1)} ms: ${row.house.ratio}x house baseline (${row.house.initMs.toFixed(1)} ms), ${row.sdkOnly.ratio}x SDK only (${row.sdkOnly.initMs.toFixed(1)} ms)\n`,
      );
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
