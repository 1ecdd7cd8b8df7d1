/**
 * `npm run bench`: cold start, warm cost per request, round trips, load, webhook isolation and reading documents, measured in one run
 * on this machine; writes BENCHMARKS.md and bench-results.json at the project root.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { EDEVLET_PROTOCOLS } from "#shared/domain/issuer";
import type { Apart } from "./apart.ts";
import type { BenchAuditedLoad } from "./audited-load.ts";
import { measureColdStart } from "./cold-start.ts";
import { measureDocuments } from "./documents.ts";
import type { FlowResult } from "./flow.ts";
import { measureIsolation } from "./isolation.ts";
import { runLoad } from "./load.ts";
import { startBenchApi } from "./local-api.ts";
import { type BenchResults, type BenchSettings, checkTargets, renderReport } from "./report.ts";
import { measureWarm } from "./warm.ts";

const ROOT = path.resolve(__dirname, "..");

const SETTINGS: BenchSettings = {
  coldStartRuns: 11,
  coldStartRounds: 3,
  warmSamples: 300,
  authorizerSamples: 50,
  warmup: 30,
  loadSeconds: 20,
  loadConnections: 10,
  loadUploads: 3000,
  loadReplayKeys: 50,
  documentSamples: 30,
  isolationSamplesPerSide: 40,
  isolationBlocks: 4,
  isolationSlowAnswerMs: 15_000,
  isolationSlowVerificationsPerBlock: 5,
  flowSeconds: 60,
  flowRatePerSecond: 5,
  flowEventTimeoutMs: 60_000,
  issuerLatencyMs: 150,
  auditedDecisions: 20,
  auditedReadsAtOnce: 20,
  auditedLoadSeconds: 20,
};

const log = (line: string) => process.stdout.write(`${line}\n`);

/** A section on a fresh runtime, in a process of its own (bench/apart.ts); what it measured. */
function apart<T>({ section, options }: Apart): T {
  const folder = mkdtempSync(path.join(os.tmpdir(), "verification-bench-apart-"));
  const resultFile = path.join(folder, "result.json");
  try {
    execFileSync(
      process.execPath,
      ["--import", "tsx", path.join(__dirname, "apart.ts"), section, JSON.stringify(options), resultFile],
      // What the functions log is theirs, not the bench's: the section's own failure still reaches stderr.
      { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, POWERTOOLS_LOG_LEVEL: "ERROR" } },
    );
    return JSON.parse(readFileSync(resultFile, "utf8")) as T;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const machine = {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg(),
  };

  log(`1/7 cold start: ${SETTINGS.coldStartRounds} rounds of ${SETTINGS.coldStartRuns} fresh processes per bundle`);
  const coldStart = await measureColdStart(SETTINGS.coldStartRuns, SETTINGS.coldStartRounds);
  const { warm, load, isolation } = await measureOnOneRuntime();
  const flows = measureFlows();
  const auditedLoad = measureAuditedLoad();

  log(`7/7 documents: ${SETTINGS.documentSamples} warm reads per kind, and a 10 MiB PDF in a process of its own`);
  const documents = await measureDocuments(SETTINGS.documentSamples);

  writeResults({
    command: "npm run bench",
    startedAt,
    finishedAt: new Date().toISOString(),
    machine,
    settings: SETTINGS,
    coldStart,
    warm: warm.warm,
    httpHop: warm.httpHop,
    roundTrips: warm.roundTrips,
    load,
    documents,
    isolation,
    flows,
    auditedLoad,
  });
}

/** Sections 2 to 4 on one runtime, started here: webhook isolation, warm cost and round trips, and load. */
async function measureOnOneRuntime() {
  log("starting DynamoDB Local and the S3 engine");
  const api = await startBenchApi({ issuerLatencyMs: SETTINGS.issuerLatencyMs });
  // Ctrl-C still stops the engines, the JVM included.
  const interrupted = () => void api.stop().finally(() => process.exit(130));
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    // First, while the stream holds only their own changes: the consumer reads it from the start.
    // Only while these run: the other measurements see no stream consumer working beside them.
    const pipeline = await api.startPipeline();
    let isolation: Awaited<ReturnType<typeof measureIsolation>>;
    try {
      log(
        `2/7 webhook isolation: ${SETTINGS.isolationSamplesPerSide} verifications each with and without another app's ${SETTINGS.isolationSlowAnswerMs / 1000} s endpoint`,
      );
      isolation = await measureIsolation(api, {
        samplesPerSide: SETTINGS.isolationSamplesPerSide,
        blocks: SETTINGS.isolationBlocks,
        slowAnswerMs: SETTINGS.isolationSlowAnswerMs,
        slowVerificationsPerBlock: SETTINGS.isolationSlowVerificationsPerBlock,
      });
    } finally {
      await pipeline.stop();
    }
    log("3/7 warm cost and round trips");
    const warm = await measureWarm(api, {
      samples: SETTINGS.warmSamples,
      authorizerSamples: SETTINGS.authorizerSamples,
      warmup: SETTINGS.warmup,
    });
    log(`4/7 load: ${SETTINGS.loadConnections} connections for ${SETTINGS.loadSeconds} s`);
    const load = await runLoad(api, {
      durationSeconds: SETTINGS.loadSeconds,
      connections: SETTINGS.loadConnections,
      uploads: SETTINGS.loadUploads,
      replayKeys: SETTINGS.loadReplayKeys,
    });
    return { warm, load, isolation };
  } finally {
    await api.stop();
    process.off("SIGINT", interrupted);
    process.off("SIGTERM", interrupted);
  }
}

/** Section 5: the whole flow by each of e-Devlet's ways, and by barcode alone, each apart. */
function measureFlows(): FlowResult[] {
  const runs = [
    ...EDEVLET_PROTOCOLS.map((protocol) => ({ protocol, sent: "upload" as const })),
    { protocol: "form" as const, sent: "keys" as const },
  ];
  return runs.map(({ protocol, sent }) => {
    log(
      `5/7 the whole flow${sent === "keys" ? " by barcode alone" : ""}, asking e-Devlet by its ${protocol}: ${SETTINGS.flowRatePerSecond} new verifications a second for ${SETTINGS.flowSeconds} s at the production throttle`,
    );
    return apart<FlowResult>({
      section: "flow",
      options: {
        protocol,
        sent,
        durationSeconds: SETTINGS.flowSeconds,
        ratePerSecond: SETTINGS.flowRatePerSecond,
        eventTimeoutMs: SETTINGS.flowEventTimeoutMs,
        issuerLatencyMs: SETTINGS.issuerLatencyMs,
      },
    });
  });
}

/** Section 6: a reviewer's decisions alone and beside many reads, apart. */
function measureAuditedLoad(): BenchAuditedLoad {
  log(
    `6/7 audited reads: a reviewer deciding ${SETTINGS.auditedDecisions} reviews alone, ${SETTINGS.auditedDecisions} during ${SETTINGS.auditedReadsAtOnce} unaudited reads at once and ${SETTINGS.auditedDecisions} during ${SETTINGS.auditedReadsAtOnce} audited lookups at once, then ${SETTINGS.auditedDecisions} during them from a process of their own at each of two CPU priorities`,
  );
  return apart<BenchAuditedLoad>({
    section: "audited-load",
    options: {
      decisions: SETTINGS.auditedDecisions,
      readsAtOnce: SETTINGS.auditedReadsAtOnce,
      minLoadSeconds: SETTINGS.auditedLoadSeconds,
    },
  });
}

/** bench-results.json (with the targets' checks) and BENCHMARKS.md at the root, and each target's verdict logged. */
function writeResults(results: BenchResults): void {
  const checks = checkTargets(results);
  const resultsFile = path.join(ROOT, "bench-results.json");
  writeFileSync(resultsFile, `${JSON.stringify({ ...results, targets: checks }, null, 2)}\n`);
  // In the project's own JSON style, so the lint that CI runs passes on the committed file.
  execFileSync(path.join(ROOT, "node_modules", ".bin", "biome"), ["format", "--write", resultsFile], {
    stdio: "ignore",
  });
  writeFileSync(path.join(ROOT, "BENCHMARKS.md"), renderReport(results));
  for (const check of checks)
    log(`${check.met ? "met   " : "MISSED"}  ${check.name}: ${check.result} (target ${check.target})`);
  log(
    `Wrote BENCHMARKS.md and bench-results.json: ${checks.filter((check) => check.met).length} of ${checks.length} targets met`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
