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
import type { SettingName } from "#shared/declarations/settings";
import type { WebPageName } from "#shared/http/web-assets";
import { PROJECT_ROOT } from "../infra/bundling.ts";
import { esbuildOptions } from "../infra/esbuild-options.ts";
import { STAND_IN_SETTINGS } from "../test/support/stand-in-settings.ts";
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

function initEnvironment(name: FunctionName, webAssets: string): NodeJS.ProcessEnv {
  // The console reads its built files at init, so they are real.
  const dummies: Partial<Record<SettingName, string>> = { ...STAND_IN_SETTINGS, WEB_ASSETS: webAssets };
  return {
    PATH: process.env.PATH,
    ...Object.fromEntries(
      FUNCTIONS[name].settings.flatMap((setting) => {
        const value = dummies[setting];
        return value === undefined ? [] : [[setting, value]];
      }),
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
  /** The baseline's init p50 over every round's samples. */
  initMs: number;
  /** The median of the rounds' ratios (each round: the function's init p50 over the baseline's). */
  ratio: number;
  /** Each round's ratio, in the order the rounds ran. */
  rounds: number[];
}

export interface ColdStartRow {
  function: FunctionName;
  bundleKb: number;
  sourceMapKb: number;
  /** The project's own files in the bundle (the rest come from packages). */
  projectFiles: number;
  /** The function's init p50 over every round's samples. */
  initMs: number;
  /** Processes per bundle in each round. */
  samples: number;
  /** What every function must load: the target is judged against it. */
  house: BaselineResult;
  /** The AWS SDK clients the function declares, and nothing else: for information. */
  sdkOnly: BaselineResult;
  /**
   * The house baseline against itself: in each round its odd-numbered processes' p50 over its
   * even-numbered ones', the median of the rounds. The same bundle both sides, so how far a
   * ratio strays by chance alone on this machine.
   */
  houseSelf: number;
  /** The bytes its bundle holds beyond its house baseline's (KB). */
  beyondHouseKb: number;
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

/** A function and its two baselines, built, with the environment they load in. */
interface Built {
  name: FunctionName;
  sources: { house: BaselineSource; sdkOnly: BaselineSource };
  fn: { outfile: string; metafile: Metafile };
  house: { outfile: string; metafile: Metafile };
  sdkOnly: { outfile: string; metafile: Metafile };
  env: NodeJS.ProcessEnv;
}

/** Function `name` and its two baselines, built into `dir`. */
async function buildFunction(name: FunctionName, dir: string, webAssets: string): Promise<Built> {
  const sources = { house: houseBaseline(name), sdkOnly: sdkBaseline(name) };
  return {
    name,
    sources,
    fn: await bundle(path.join(dir, name, "index.js"), { entry: path.join(PROJECT_ROOT, FUNCTIONS[name].entry) }),
    house: await bundle(path.join(dir, `${name}-house`, "index.js"), sources.house),
    sdkOnly: await bundle(path.join(dir, `${name}-sdk`, "index.js"), sources.sdkOnly),
    env: initEnvironment(name, webAssets),
  };
}

type Samples = { fn: number[]; house: number[]; sdkOnly: number[] };

/** One round: each of the three loaded `runs` times, taking turns. */
async function sampleRound(built: Built, runs: number): Promise<Samples> {
  const times: Samples = { fn: [], house: [], sdkOnly: [] };
  // Taking turns keeps a burst of load on the shared machine from landing on one side only.
  for (let i = 0; i < runs; i++) {
    times.fn.push(await initMs(built.fn.outfile, built.env));
    times.house.push(await initMs(built.house.outfile, built.env));
    times.sdkOnly.push(await initMs(built.sdkOnly.outfile, built.env));
  }
  return times;
}

/** A function's row from its rounds: each round's ratio, judged by their median. */
async function rowOf(built: Built, rounds: Samples[], runs: number): Promise<ColdStartRow> {
  const all = (side: keyof Samples) => rounds.flatMap((round) => round[side]);
  const against = async (side: "house" | "sdkOnly") => {
    const ratios = rounds.map((sample) => round(median(sample.fn) / median(sample[side])));
    return {
      holds: built.sources[side].holds,
      kb: await kb(built[side].outfile),
      initMs: round(median(all(side))),
      ratio: median(ratios),
      rounds: ratios,
    };
  };
  const bundleKb = await kb(built.fn.outfile);
  const house = await against("house");
  const halves = rounds.map(({ house: times }) => {
    const odd = times.filter((_, i) => i % 2 === 0);
    const even = times.filter((_, i) => i % 2 === 1);
    return round(median(odd) / median(even));
  });
  return {
    function: built.name,
    bundleKb,
    sourceMapKb: await kb(`${built.fn.outfile}.map`),
    projectFiles: Object.keys(built.fn.metafile.inputs).filter((input) => !input.includes("node_modules/")).length,
    initMs: round(median(all("fn"))),
    samples: runs,
    house,
    sdkOnly: await against("sdkOnly"),
    houseSelf: median(halves),
    beyondHouseKb: round(bundleKb - house.kb, 1),
    beyondHouse: beyond(packageBytes(built.fn.metafile), packageBytes(built.house.metafile)),
  };
}

/**
 * Every function and its baselines, built once, then loaded in `rounds` rounds of `runs`
 * processes per bundle (every function in each round before the next), so a busy spell on the
 * shared machine lands in one round of a function, not all of them.
 */
export async function measureColdStart(runs: number, rounds: number): Promise<ColdStartRow[]> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "verification-api-bench-"));
  const webAssets = path.join(dir, "web");
  await buildWeb(webAssets);
  try {
    const built: Built[] = [];
    for (const name of Object.keys(FUNCTIONS) as FunctionName[]) built.push(await buildFunction(name, dir, webAssets));
    const samples = new Map<FunctionName, Samples[]>();
    for (let n = 1; n <= rounds; n++) {
      for (const one of built) samples.set(one.name, [...(samples.get(one.name) ?? []), await sampleRound(one, runs)]);
      process.stdout.write(`cold start  round ${n} of ${rounds} done\n`);
    }
    const rows: ColdStartRow[] = [];
    for (const one of built) {
      const row = await rowOf(one, samples.get(one.name) ?? [], runs);
      rows.push(row);
      process.stdout.write(
        `cold start  ${row.function.padEnd(24)} ${row.initMs.toFixed(1)} ms: ${row.house.ratio}x house baseline (rounds ${row.house.rounds.join(", ")}; ${row.house.initMs.toFixed(1)} ms; ${row.beyondHouseKb} KB beyond it), ${row.sdkOnly.ratio}x SDK only\n`,
      );
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
