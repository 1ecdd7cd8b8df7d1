/** BENCHMARKS.md from one run's results: tables, targets, method, machine and command. */

import { ISSUER_QUEUE } from "#shared/declarations/queues";
import type { UnderLoad } from "../test/support/audited-load.ts";
import type { ApartLoad, BenchAuditedLoad } from "./audited-load.ts";
import { COLD_START_TARGET, type ColdStartRow } from "./cold-start.ts";
import type { DocumentsResult } from "./documents.ts";
import type { FlowResult } from "./flow.ts";
import type { IsolationResult } from "./isolation.ts";
import type { LoadResult } from "./load.ts";
import { type Percentiles, percentiles } from "./stats.ts";
import { IN_PROCESS_TARGET_MS, type RoundTripRow, WARM_TARGET, type WarmRow } from "./warm.ts";

export interface Machine {
  nproc: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  os: string;
  loadAverage: number[];
}

export interface BenchSettings {
  /** Processes per bundle in each round of the cold start, and its rounds. */
  coldStartRuns: number;
  coldStartRounds: number;
  warmSamples: number;
  authorizerSamples: number;
  warmup: number;
  loadSeconds: number;
  loadConnections: number;
  loadUploads: number;
  loadReplayKeys: number;
  documentSamples: number;
  isolationSamplesPerSide: number;
  isolationBlocks: number;
  isolationSlowAnswerMs: number;
  isolationSlowVerificationsPerBlock: number;
  flowSeconds: number;
  flowRatePerSecond: number;
  flowEventTimeoutMs: number;
  /** The e-Devlet simulator's wait before each answer, as e-Devlet takes its time. */
  issuerLatencyMs: number;
  /** Audited reads under load: the reviewer's decisions alone, and as many during the load. */
  auditedDecisions: number;
  auditedReadsAtOnce: number;
  auditedLoadSeconds: number;
}

export interface BenchResults {
  command: string;
  startedAt: string;
  finishedAt: string;
  machine: Machine;
  settings: BenchSettings;
  coldStart: ColdStartRow[];
  warm: WarmRow[];
  /** A request the gateway answers itself: the HTTP hop alone. */
  httpHop: Percentiles;
  roundTrips: RoundTripRow[];
  load: LoadResult;
  documents: DocumentsResult;
  isolation: IsolationResult;
  /** The whole flow, once per way into e-Devlet. */
  flows: FlowResult[];
  auditedLoad: BenchAuditedLoad;
}

/** What the whole flow may add to the decision beyond the time it waits on the issuer (ms, p50). */
export const BEYOND_ISSUER_TARGET_MS = 150;

/** Another app's slow endpoint may cost the measured app's confirm-to-webhook latency at most this ratio. */
export const ISOLATION_TARGET = 1.2;

/** An organisation's audited reads may cost a reviewer's decision at most this ratio (p99, during against alone). */
export const AUDITED_LOAD_TARGET = 1.2;

/** The processing functions' memory (infra/api-function.ts, MEMORY_MB): a read must stay well inside it. */
export const FUNCTION_MEMORY_MIB = 512;

export interface TargetCheck {
  name: string;
  target: string;
  result: string;
  met: boolean;
  /** Why, for a missed target, from the run's own numbers. */
  why?: string;
}

const ms = (value: number) => value.toFixed(2);
const table = (head: string[], rows: (string | number)[][]) =>
  [
    `| ${head.join(" | ")} |`,
    `|${head.map(() => "---").join("|")}|`,
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ].join("\n");
const verdict = (met: boolean) => (met ? "met" : "**missed**");

/** What each route's handler does besides its SDK calls (read from its use case). */
const ROUTE_WORK: Record<string, string> = {
  "GET /v1/verifications/{id}": "presigning a fresh upload URL (the fetched verification awaits its upload)",
  "POST /v1/verifications":
    "parsing and validating the body, Powertools hashing the key and the body for the idempotency record, and presigning the upload URL",
  "POST /v1/verifications/{id}/upload-complete":
    "sniffing the first bytes, judging the owner's item and building the conditional transition",
};

/** The three routes: the authorizer rows compare a whole 404 GET and are read as a difference. */
const ROUTE_ROWS = new Set(Object.keys(ROUTE_WORK));

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [
    ...coldStartChecks(results),
    ...warmChecks(results),
    ...roundTripChecks(results),
    ...loadChecks(results),
    ...flowChecks(results),
    ...auditedLoadChecks(results.auditedLoad),
    ...documentChecks(results),
  ];
  return checks.map(({ why, ...check }) => (check.met ? check : { ...check, why }));
}

/** Each function's init against its house baseline. */
function coldStartChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const row of results.coldStart) {
    checks.push({
      name: `Cold start: ${row.function}`,
      target: `init <= ${COLD_START_TARGET}x house baseline (the median of its rounds)`,
      result: `${row.house.ratio}x (rounds ${row.house.rounds.map((ratio) => `${ratio}x`).join(", ")}; ${ms(row.initMs)} ms vs ${ms(row.house.initMs)} ms; ${row.beyondHouseKb} KB beyond it)`,
      met: row.house.ratio <= COLD_START_TARGET,
      why: `beyond what every function loads (${row.house.holds.join(", ")}) its bundle holds ${row.beyondHouse.map((part) => `${part.part} (${part.kb} KB)`).join(", ")}; what the entry imports at the top level is evaluated at init (the zod schemas of every domain module it uses are built then), and the rest (the PDF and image readers load on first use) is still read and parsed with the bundle`,
    });
  }
  return checks;
}

/** Each route's warm cost over HTTP against its bare calls, then each in-process one. */
function warmChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const row of results.warm.filter((warm) => ROUTE_ROWS.has(warm.path))) {
    checks.push({
      name: `Warm cost: ${row.path}`,
      target: `p50 <= ${WARM_TARGET}x bare calls`,
      result: `${row.ratio.p50}x (${ms(row.route.p50)} ms vs ${ms(row.bareCalls.p50)} ms)`,
      met: row.ratio.p50 <= WARM_TARGET,
      why: `the route costs ${ms(row.route.p50 - row.bareCalls.p50)} ms more at p50 than its bare calls. ${ms(results.httpHop.p50)} ms of that is the HTTP request over loopback alone (a request the gateway answers itself, without a handler); the rest is the gateway's proxy event and cached-authorizer policy check, then ${ROUTE_WORK[row.path]}, and the JSON response. The engines run on this machine, so the bare calls take only ${ms(row.bareCalls.p50)} ms together and that fixed cost is a large share of the whole`,
    });
  }
  for (const row of results.warm) {
    if (!row.inProcess) continue;
    const over = row.inProcess.p50 - row.bareCalls.p50;
    checks.push({
      name: `Warm cost in-process: ${row.path}`,
      target: `p50 <= bare calls + ${IN_PROCESS_TARGET_MS} ms`,
      result: `${over < 0 ? "" : "+"}${ms(over)} ms (${ms(row.inProcess.p50)} ms vs ${ms(row.bareCalls.p50)} ms)`,
      met: over <= IN_PROCESS_TARGET_MS,
      why: `the handler itself costs ${ms(over)} ms at p50 beyond its bare calls: ${ROUTE_WORK[row.path]}, building the JSON response, and the SDK's own work per call (middleware, signing, parsing) that the bare calls share`,
    });
  }
  return checks;
}

/** Each path's storage requests against its floor. */
function roundTripChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const row of results.roundTrips) {
    checks.push({
      name: `Round trips: ${row.path}`,
      target: `${row.floor} (the floor)`,
      result: row.min === row.max ? `${row.max}` : `${row.min} to ${row.max}`,
      met: row.max <= row.floor,
      why: `the calls were ${row.calls.join(", ") || "none"}`,
    });
  }
  return checks;
}

/** The load's unexpected responses, and the webhook isolation. */
function loadChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  checks.push({
    name: "Load: unexpected responses",
    target: "0",
    result: `${results.load.unexpected} of ${results.load.requests}`,
    met: results.load.unexpected === 0,
    why: `statuses by step: ${Object.entries(results.load.byKind)
      .map(([kind, entry]) => `${kind} ${JSON.stringify(entry.statuses)}`)
      .join("; ")}`,
  });
  const { isolation } = results;
  const isolationRatio = Math.round((isolation.contended.p50 / isolation.baseline.p50) * 100) / 100;
  checks.push({
    name: "Webhook isolation: confirm to webhook with another app's 15 s endpoint",
    target: `p50 <= ${ISOLATION_TARGET}x without it`,
    result: `${isolationRatio}x (${ms(isolation.contended.p50)} ms vs ${ms(isolation.baseline.p50)} ms)`,
    met: isolationRatio <= ISOLATION_TARGET,
    why: `at least ${isolation.slowInFlightAtLeast} of the slow app's deliveries were waiting on its endpoint during each contended sample`,
  });
  return checks;
}

/** Each whole flow's events, decision time and statuses. */
function flowChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const flow of results.flows) {
    const flowStatuses = Object.entries(flow.statuses)
      .map(([step, counts]) => `${step} ${JSON.stringify(counts)}`)
      .join("; ");
    const by = `(e-Devlet's ${flow.protocol}${flow.sent === "keys" ? ", by barcode alone" : ""})`;
    checks.push(
      {
        name: `Whole flow ${by}: events lost`,
        target: "0",
        result: `${flow.lost} of ${2 * flow.started}`,
        met: flow.lost === 0,
        why: `${flow.finished} of ${flow.started} flows ran to their fetch; statuses by step: ${flowStatuses}`,
      },
      {
        name: `Whole flow ${by}: events delivered twice`,
        target: "0",
        result: `${flow.duplicates}`,
        met: flow.duplicates === 0,
        why: "an event's id arrived again at the endpoint",
      },
      {
        name: `Whole flow ${by}: the decision's time beyond the issuer's own`,
        target: `p50 <= ${BEYOND_ISSUER_TARGET_MS} ms at ${flow.ratePerSecond} verifications a second`,
        result: `p50 ${ms(flow.issuer.beyond.p50)} ms, p99 ${ms(flow.issuer.beyond.p99)} ms (the issuer's: queue p50 ${ms(flow.issuer.queued.p50)} ms, lookup p50 ${ms(flow.issuer.asked.p50)} ms)`,
        met: flow.issuer.beyond.p50 <= BEYOND_ISSUER_TARGET_MS,
        why: "the time beyond is the decision event's less the checks' wait for an issuer queue reader and the lookup",
      },
      {
        name: `Whole flow ${by}: unexpected statuses and unsigned deliveries`,
        target: "0",
        result: `${flow.unexpected} unexpected, ${flow.unsigned} unsigned`,
        met: flow.unexpected === 0 && flow.unsigned === 0,
        why: `statuses by step: ${flowStatuses}`,
      },
    );
  }
  return checks;
}

/** The documents' memory and the comparison's cost. */
function documentChecks(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const large = results.documents.largePdf;
  checks.push({
    name: "Documents: peak memory of a 10 MiB PDF",
    target: `< ${FUNCTION_MEMORY_MIB} MiB (the function's memory)`,
    result: `${large.peakRssMiB} MiB (${large.rssBeforeMiB} MiB before the read)`,
    met: large.peakRssMiB < FUNCTION_MEMORY_MIB,
    why: "the read's thread is stopped past 256 MiB of growth; a larger peak means the process was large before it",
  });
  const comparison = results.documents.comparison;
  checks.push({
    name: "Documents: comparing a 10 MiB PDF with its issuer's copy",
    target: `peak < ${FUNCTION_MEMORY_MIB} MiB; the comparison after both reads < 5 % of one read`,
    result: `peak ${comparison.peakRssMiB} MiB; ${comparison.compareMs} ms against a ${comparison.copyReadMs} ms read (${Math.round((100 * comparison.compareMs) / comparison.copyReadMs)} %)`,
    met: comparison.peakRssMiB < FUNCTION_MEMORY_MIB && comparison.compareMs < 0.05 * comparison.copyReadMs,
    why: "the second read is the cost of deciding on the issuer's copy; the comparison itself is a hash and a text join",
  });
  return checks;
}

const ratioOf = (during: number, alone: number) => Math.round((during / alone) * 100) / 100;

/** The reviewer's times alone and during each load, each load's server errors. */
function auditedLoadTimes(run: BenchAuditedLoad) {
  const alone = percentiles(run.aloneMs);
  const timed = <Load extends UnderLoad>(load: Load) => ({
    ...load,
    times: percentiles(load.decisionMs),
    serverErrors: Object.entries(load.statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, count]) => sum + count, 0),
  });
  const loads = run.loads.map(timed);
  const lookups = loads.find((load) => load.read === "lookup");
  const apps = loads.find((load) => load.read === "apps");
  if (!lookups || !apps) throw new Error("The audited reads' run lacks its lookups or its control");
  return { alone, lookups, apps, apart: run.apart.map(timed) };
}

const READ_NAMES = {
  lookup: "lookups (`GET /portal/v1/lookup`, each audited)",
  apps: "the organisation's apps (`GET /portal/v1/apps`, not audited)",
} as const;

/** A load of lookups from a process of its own, by its CPU priority. */
const apartName = (load: ApartLoad) =>
  `lookups from a process of their own at ${load.nice === 0 ? "the reviewer's CPU priority" : `the lowest CPU priority (nice ${load.nice})`}`;

type TimedLoad = ReturnType<typeof auditedLoadTimes>["lookups"];

/** A load of lookups answered no 5xx. */
const noServerErrors = (name: string, load: TimedLoad): TargetCheck => ({
  name,
  target: "0",
  result: `${load.serverErrors} of ${load.reads}`,
  met: load.serverErrors === 0,
  why: `the lookups' statuses were ${JSON.stringify(load.statuses)}`,
});

/** The reviewer's p99 `during` a load against their p99 `against` (`what` names it in the target). */
function p99Within(name: string, during: Percentiles, against: Percentiles, what: string, why: string): TargetCheck {
  const ratio = ratioOf(during.p99, against.p99);
  return {
    name,
    target: `p99 <= ${AUDITED_LOAD_TARGET}x${what}`,
    result: `${ratio}x (${ms(during.p99)} ms vs ${ms(against.p99)} ms)`,
    met: ratio <= AUDITED_LOAD_TARGET,
    why,
  };
}

const perSecond = (load: TimedLoad) => (load.reads / load.seconds).toFixed(1);

function auditedLoadChecks(run: BenchAuditedLoad): TargetCheck[] {
  const { alone, lookups, apps, apart } = auditedLoadTimes(run);
  const shared = `${run.readsAtOnce} requests at once share this machine's CPUs with the reviewer's: the gateway, the authorizers and every handler run in one Node.js process beside DynamoDB Local`;
  return [
    noServerErrors(`Audited reads: ${run.readsAtOnce} lookups at once from one organisation, answers 5xx`, lookups),
    p99Within(
      "Audited reads: a reviewer's claim and decision during them, against alone",
      lookups.times,
      alone,
      " alone",
      `${shared}; during as many unaudited reads at once the same decisions took ${ratioOf(apps.times.p99, alone.p99)}x their time alone at p99, so the slowdown is the load's, not its audit records'`,
    ),
    p99Within(
      "Audited reads: a reviewer's claim and decision during them, against unaudited reads at once",
      lookups.times,
      apps.times,
      "",
      `the lookups answered ${perSecond(lookups)} a second and the apps' reads ${perSecond(apps)}; a lookup does more than a read of the apps (a search and a transaction), so it takes more of the machine beside its record`,
    ),
    ...apart.flatMap((load) => [
      noServerErrors(`Audited reads: ${run.readsAtOnce} ${apartName(load)}, answers 5xx`, load),
      p99Within(
        `Audited reads: a reviewer's claim and decision during ${run.readsAtOnce} ${apartName(load)}, against alone`,
        load.times,
        alone,
        " alone",
        load.nice === 0
          ? `the organisation's gateway and functions ran in a process of their own, sharing this machine's CPUs evenly with the reviewer's and with DynamoDB Local (${perSecond(load)} lookups a second)`
          : `the organisation's functions took only the CPU the reviewer's left them (${perSecond(load)} lookups a second), so what remains is what the two share as in AWS: the storage (DynamoDB Local, which takes CPU of its own here)`,
      ),
    ]),
  ];
}

function renderAuditedLoad(run: BenchAuditedLoad, settings: BenchSettings): string {
  const { alone, lookups, apps, apart } = auditedLoadTimes(run);
  const row = (name: string, times: Percentiles) => [
    name,
    times.n,
    ms(times.p50),
    ms(times.p95),
    ms(times.p99),
    `${ratioOf(times.p99, alone.p99)}x`,
  ];
  return `## 8. Audited reads under load

A reviewer claims and decides reviews one after another (\`POST /backoffice/v1/reviews/{id}/claim\`,
then \`/decision\`, each writing its audit record): ${settings.auditedDecisions} alone, then ${settings.auditedDecisions} while an
organisation's owner reads its apps ${run.readsAtOnce} at once (no audit record: the control), then ${settings.auditedDecisions}
while the owner looks up ${run.readsAtOnce} at once, each lookup writing its record in the transaction of its read.
Each load lasts at least ${settings.auditedLoadSeconds} s and until its last decision. A fresh runtime in a process of its
own (\`bench/apart.ts\`), with the local identity endpoint and no issuer, so each certificate waits in
review; \`test/portal/audit-load.test.ts\` holds the same lookups to no 5xx.

Up to there the gateway, the authorizers and every function run in one Node.js process, the
reviewer's requests queued behind the organisation's on one event loop and the machine's two CPUs.
In Lambda each invocation has a CPU of its own and only the storage is shared. So ${settings.auditedDecisions} more
decisions each during the same lookups sent from a process of their own (\`bench/reads-apart.ts\`:
its own portal gateway over the same functions, engines and tables), first at the reviewer's CPU
priority, then at the lowest (\`nice\` 19), where the reviewer's functions take the CPU they need
first and what the two still share is DynamoDB Local, as they share DynamoDB in AWS.

${table(
  ["load", "requests", "a second", "statuses"],
  [
    ...[apps, lookups].map((load) => ({ ...load, name: READ_NAMES[load.read] })),
    ...apart.map((load) => ({ ...load, name: apartName(load) })),
  ].map((load) => [load.name, load.reads, perSecond(load), JSON.stringify(load.statuses)]),
)}

${table(
  ["a reviewer's claim and decision", "n", "p50 (ms)", "p95 (ms)", "p99 (ms)", "p99 against alone"],
  [
    row("alone", alone),
    row(`during ${READ_NAMES.apps}`, apps.times),
    row(`during ${READ_NAMES.lookup}`, lookups.times),
    ...apart.map((load) => row(`during ${apartName(load)}`, load.times)),
  ],
)}
`;
}

/** One run of the whole flow: what it did, its steps, and how its decisions' time divides. */
function renderFlow(flow: FlowResult, cpus: number): string {
  const way =
    flow.protocol === "form" ? "web form (five steps, each answered in" : "mobile endpoint (one GET, answered in";
  const keys = flow.sent === "keys";
  return `### Asking e-Devlet by its ${flow.protocol === "form" ? "web form" : "mobile endpoint"}${keys ? ", by barcode alone" : ""}

For ${flow.durationSeconds} s, a new verification started every ${Math.round(1000 / flow.ratePerSecond)} ms (${flow.ratePerSecond} a second), whether
or not the earlier ones had finished, through a gateway holding the stage to ${flow.throttle.stage.rateLimit} requests a
second (burst ${flow.throttle.stage.burstLimit}) and the app to ${flow.throttle.app.rateLimit} (burst ${flow.throttle.app.burstLimit}), production's rates. Each
one: ${keys ? "create with `docs/test-documents/yok-active.pdf`'s barcode and identity number (`document_keys`), nothing uploaded; the change" : "create; `PUT` of `docs/test-documents/yok-active.pdf` to its upload URL; confirm; the change"}
stream sends its checks to the issuer queue, whose reader (at most ${ISSUER_QUEUE.maxConcurrency} at once) reads it and asks the
e-Devlet simulator (\`local/edevlet.ts\`, the published test certificates) by its ${way}
${flow.issuer.latencyMs} ms, as e-Devlet takes its time); the app's endpoint receives \`verification.processing\` and
\`verification.completed\` (each signature verified with the app's secret); then a fetch, which must read
\`completed\`/\`verified\`. A fresh runtime, in a process of its own.
Each event is timed from the ${keys ? "create's" : "confirm's"} answer to its arrival. ${flow.started} verifications started
and ${flow.finished} ran to their fetch; ${flow.lost} events were lost, ${flow.duplicates} arrived twice, ${flow.unsigned} failed their
signature, and ${flow.unexpected} responses were not what their step expects. The load generator,
the functions, the pipeline and the S3 engine share this machine's ${cpus} CPUs.

${table(
  ["step", "n", "p50 (ms)", "p95 (ms)", "p99 (ms)"],
  Object.entries(flow.steps).map(([step, values]) => [step, values.n, ms(values.p50), ms(values.p95), ms(values.p99)]),
)}

How the decision event's time divides, per verification: its checks' wait in the issuer queue for a
free reader, the lookup itself, and the rest (the stream, reading the document, the writes, the
webhook). ${Math.round(flow.issuer.share * 100)} % of the decision events' time was spent waiting on the issuer;
${flow.issuer.lookupsPerVerification.toFixed(2)} lookups were made per verification (at most ${flow.issuer.mostLookups} for one).

${table(
  ["part", "n", "p50 (ms)", "p95 (ms)", "p99 (ms)"],
  (
    [
      ["waiting for an issuer queue reader", flow.issuer.queued],
      ["the lookup", flow.issuer.asked],
      ["beyond the issuer's own", flow.issuer.beyond],
    ] as const
  ).map(([part, values]) => [part, values.n, ms(values.p50), ms(values.p95), ms(values.p99)]),
)}
`;
}

export function renderReport(results: BenchResults): string {
  return [
    reportHeading(results),
    machineSection(results),
    targetsSection(results),
    coldStartSection(results),
    warmSection(results),
    roundTripSection(results),
    loadSection(results),
    documentsSection(results),
    isolationSection(results),
    flowSection(results),
    settingsSection(results),
  ].join("");
}

/** The title, and how the run was made. */
function reportHeading(results: BenchResults): string {
  return `# Benchmarks

Written by \`${results.command}\` from one run, started ${results.startedAt} and finished ${results.finishedAt}.
Every figure below comes from that run; the raw results are in [\`bench-results.json\`](bench-results.json).
Each comparison is a ratio of two things measured in the same run on the same machine, interleaved,
so a busy shared machine slows both sides alike. To reproduce: \`npm ci && ${results.command}\`
(it needs Java 17+ for DynamoDB Local, uses only loopback and stops by itself).

`;
}

/** The machine the run was made on. */
function machineSection(results: BenchResults): string {
  const { machine } = results;
  return `## Machine

${table(
  ["what", "value"],
  [
    ["CPUs (`nproc`)", machine.nproc],
    ["CPU model", machine.cpu],
    ["memory", `${machine.memoryGiB} GiB`],
    ["Node.js", machine.node],
    ["OS", machine.os],
    ["load average at start (1, 5, 15 min)", machine.loadAverage.map((value) => value.toFixed(2)).join(", ")],
  ],
)}

The machine is shared with other work; the load average above says how busy it was. A ratio
close to its target can land on either side of it from one run to the next: these figures are one
run, as measured, not the best of several.

`;
}

/** The targets, met or missed, and why each missed one is. */
function targetsSection(results: BenchResults): string {
  const checks = checkTargets(results);
  const missed = checks.filter((check) => !check.met);
  return `## Targets

${table(
  ["benchmark", "target", "result", ""],
  checks.map((check) => [check.name, check.target, check.result, verdict(check.met)]),
)}

${
  missed.length === 0
    ? "Every target is met."
    : `${missed.length} of ${checks.length} targets are missed:\n\n${missed.map((check) => `- **${check.name}**: ${check.result}, over the target (${check.target}). Why: ${check.why}.`).join("\n")}`
}

`;
}

/** Section 1: each function's init against its baselines. */
/**
 * How far the method strays by chance: each function's house baseline against itself (its odd
 * processes against its even ones), over every function. A ratio within that of the target
 * cannot be told from it in this run.
 */
function selfComparison(rows: ColdStartRow[]): string {
  const strays = rows.map((row) => Math.abs(row.houseSelf - 1)).sort((a, b) => a - b);
  if (strays.length === 0) return "";
  const at = (share: number) =>
    (strays[Math.min(strays.length - 1, Math.floor(share * strays.length))] ?? 0).toFixed(2);
  return `**The method's own spread.** The last column loads each house baseline against itself (in
each round its odd-numbered processes against its even-numbered ones, the median of the rounds):
the same bundle on both sides, so any distance from 1x is chance. Across the ${rows.length} functions
it strayed from 1x by ${at(0.5)} at the median, ${at(0.9)} at p90 and ${(strays.at(-1) ?? 0).toFixed(2)} at most. A
function's ratio within that distance of the ${COLD_START_TARGET}x target is on either side of it by chance in this run.`;
}

function coldStartSection(results: BenchResults): string {
  const { settings } = results;
  return `## 1. Cold start

Each function bundled exactly as the stack bundles it (esbuild with the stack's own \`BUNDLING\`
options from \`infra/bundling.ts\`: minified, source map, Node 24 target, CommonJS, AWS SDK
bundled, dependencies' ES module builds first, project modules without side effects left out when unused),
beside two baseline bundles built with the same options:

- the **house baseline**, what every function must load before its own work, which the target
  is judged against: the SDK-only baseline's clients, the Powertools logger made by
  \`shared/adapters/logger.ts\`, and the settings the function declares parsed by \`readSettings\`
  (\`shared/declarations/settings.ts\`, its zod schemas). For the two web-page functions
  (\`backoffice-console\`, \`portal-page\`) it is a function that reads its page's built files at
  init and serves them, with the same logger.
- the **SDK-only baseline**, kept for information: it only constructs the AWS SDK clients the
  function declares in \`shared/declarations/functions/<name>.ts\` (DynamoDB document client for table access,
  S3 for bucket access, Secrets Manager for the retired sealing key or the issuer's bearer secret, KMS for sealing,
  SQS for the delivery queue, API Gateway for the usage plan, Cognito for a user pool), configured as
  \`shared/adapters/aws-clients.ts\` does; empty for a web page.

Module init is the time \`require()\` of the bundle takes in a fresh \`node --enable-source-maps\`
process (the deployed functions run with that flag), with every setting the function reads set to a
dummy value, so nothing reaches the network. ${settings.coldStartRounds} rounds, each of ${settings.coldStartRuns} processes per bundle,
the function and its two baselines taking turns, every function in one round before the next round starts
(so a busy spell on the shared machine lands in one round of a function, not all of them). A round's
ratio is the function's init p50 over its baseline's in that round; the target is judged on the median
of the rounds' ratios; the init columns are the p50 of every round's processes. "Project files" counts the project's own source
files in the bundle (the wiring gives each function only the stores and adapters its handler asks for).

${selfComparison(results.coldStart)}

${table(
  [
    "function",
    "bundle (KB)",
    "project files",
    "source map (KB)",
    "init p50 (ms)",
    "house baseline (KB)",
    "beyond it (KB)",
    "house init p50 (ms)",
    "rounds' ratios",
    "ratio (median)",
    "target",
    "house vs itself",
    "SDK clients",
    "SDK-only (KB)",
    "SDK-only init p50 (ms)",
    "ratio to SDK only",
  ],
  results.coldStart.map((row) => [
    row.function,
    row.bundleKb,
    row.projectFiles,
    row.sourceMapKb,
    ms(row.initMs),
    row.house.kb,
    row.beyondHouseKb,
    ms(row.house.initMs),
    row.house.rounds.map((ratio) => `${ratio}x`).join(", "),
    `${row.house.ratio}x`,
    verdict(row.house.ratio <= COLD_START_TARGET),
    `${row.houseSelf}x`,
    row.sdkOnly.holds.join(", "),
    row.sdkOnly.kb,
    ms(row.sdkOnly.initMs),
    `${row.sdkOnly.ratio}x`,
  ]),
)}

What each bundle holds beyond its house baseline (largest parts, KB in the output):

${table(
  ["function", "beyond the house baseline"],
  results.coldStart.map((row) => [row.function, row.beyondHouse.map((part) => `${part.part} ${part.kb}`).join(", ")]),
)}

`;
}

/** Section 2: each route's warm cost, over HTTP and in-process, and the authorizer's. */
function warmSection(results: BenchResults): string {
  const { settings } = results;
  const authorizerMiss = results.warm.find((row) => row.path === "authorizer, cache miss");
  const authorizerHit = results.warm.find((row) => row.path === "authorizer, cache hit");
  return `## 2. Warm cost per request

Each route called over HTTP (fetch, keep-alive) through the local runtime (the local gateway and
the deployed handler modules in this process, DynamoDB Local and the S3 engine on loopback), one
request at a time, after ${settings.warmup} warm-up requests. After each route call, the bare SDK
calls that route must make are timed on the same shared clients against the same tables and bucket.
${settings.warmSamples} samples per route; the API key is in the authorizer's cache. The target is
judged at p50; p95 and p99 are shown with their ratios.

${table(
  ["route", "route p50 / p95 / p99 (ms)", "bare calls", "bare p50 / p95 / p99 (ms)", "ratio p50 / p95 / p99"],
  results.warm
    .filter((row) => ROUTE_ROWS.has(row.path))
    .map((row) => [
      row.path,
      `${ms(row.route.p50)} / ${ms(row.route.p95)} / ${ms(row.route.p99)}`,
      row.bare,
      `${ms(row.bareCalls.p50)} / ${ms(row.bareCalls.p95)} / ${ms(row.bareCalls.p99)}`,
      `${row.ratio.p50} / ${row.ratio.p95} / ${row.ratio.p99}`,
    ]),
)}

**In-process.** After each HTTP call of a route, the same route once more with its handler called
directly: the proxy event the local gateway builds for that request (\`local/gateway/events.ts\`), the
authorizer's cached answer, the deployed handler module in this process, on the same engines and
clients, timed from the handler's call with the built event to its response. Neither loopback nor
the gateway's emulation is in this figure; the target is what the handler may add to its bare calls
at p50.

${table(
  ["route", "in-process p50 / p95 / p99 (ms)", "bare p50 (ms)", "over the bare calls at p50 (ms)", "target"],
  results.warm.flatMap((row) =>
    row.inProcess
      ? [
          [
            row.path,
            `${ms(row.inProcess.p50)} / ${ms(row.inProcess.p95)} / ${ms(row.inProcess.p99)}`,
            ms(row.bareCalls.p50),
            ms(row.inProcess.p50 - row.bareCalls.p50),
            verdict(row.inProcess.p50 - row.bareCalls.p50 <= IN_PROCESS_TARGET_MS),
          ],
        ]
      : [],
  ),
)}

The HTTP hop alone, a request the gateway answers itself (no route matches, 404, no handler):
p50 / p95 / p99 ${ms(results.httpHop.p50)} / ${ms(results.httpHop.p95)} / ${ms(results.httpHop.p99)} ms.

**Authorizer.** ${settings.authorizerSamples} new apps; with each new key, a GET of an unknown id
(the route then reads one item and answers 404) twice: first with the key unknown to the gateway's
cache, then cached. The bare side is the same reads without HTTP.

${table(
  ["call", "p50 / p95 / p99 (ms)", "bare calls", "bare p50 / p95 / p99 (ms)"],
  [authorizerMiss, authorizerHit]
    .filter((row) => row !== undefined)
    .map((row) => [
      row.path,
      `${ms(row.route.p50)} / ${ms(row.route.p95)} / ${ms(row.route.p99)}`,
      row.bare,
      `${ms(row.bareCalls.p50)} / ${ms(row.bareCalls.p95)} / ${ms(row.bareCalls.p99)}`,
    ]),
)}

${
  authorizerMiss && authorizerHit
    ? `A cache miss costs ${ms(authorizerMiss.route.p50 - authorizerHit.route.p50)} ms at p50 over a hit; the bare key read it makes costs ${ms(authorizerMiss.bareCalls.p50 - authorizerHit.bareCalls.p50)} ms.`
    : ""
}

`;
}

/** Section 3: the storage requests of each path. */
function roundTripSection(results: BenchResults): string {
  return `## 3. Round trips

SDK requests counted by a middleware added to the functions' shared clients
(\`dynamoClients().raw\` and \`s3Client()\`) in the deserialize step, inside the SDK's retry loop, so
every request on the wire counts once. Counted over every request of section 2. For the authorizer,
only the requests the authorizer function sends are counted (each request's function is known to
the counter), not the route's own that follow it: its read of the unknown id and the refusal's record.

${table(
  ["path", "floor", "seen (min to max)", "calls of one request", "target"],
  results.roundTrips.map((row) => [
    row.path,
    row.floor,
    row.min === row.max ? row.max : `${row.min} to ${row.max}`,
    row.calls.join(", ") || "none",
    verdict(row.max <= row.floor),
  ]),
)}

`;
}

/** Section 4: the load. */
function loadSection(results: BenchResults): string {
  const { settings, load } = results;
  return `## 4. Load

autocannon 8 (programmatic API) in this process against the local runtime, ${load.connections} connections for
${settings.loadSeconds} s. Each connection cycles through four requests: a create with a fresh
Idempotency-Key, a create replaying one of ${settings.loadReplayKeys} keys whose first request finished
before the run (it must answer 201 with \`Idempotent-Replayed: true\`), a fetch of one of those
verifications, and a confirm of one of ${settings.loadUploads} documents uploaded before the run.
${load.repeatedConfirms > 0 ? `The run confirmed more than ${settings.loadUploads} times, so ${load.repeatedConfirms} confirms hit a verification already processing; they answer its current state (200), as the contract says.` : "Every confirm was a first confirm of its upload."}
The change-stream pipeline is not running, so confirmed verifications stay \`processing\`. The load
generator shares the process and its event loop with the runtime, so the throughput is a floor.

${table(
  [
    "requests",
    "throughput (req/s)",
    "latency p50 / p90 / p99 / p99.9 / max (ms)",
    "non-2xx",
    "unexpected",
    "errors",
    "timeouts",
  ],
  [
    [
      load.requests,
      load.throughputPerSecond,
      `${load.latencyMs.p50} / ${load.latencyMs.p90} / ${load.latencyMs.p99} / ${load.latencyMs.p99_9} / ${load.latencyMs.max}`,
      load.non2xx,
      load.unexpected,
      load.errors,
      load.timeouts,
    ],
  ],
)}

${table(
  ["step", "requests", "statuses", "unexpected"],
  Object.entries(load.byKind).map(([kind, entry]) => [
    kind,
    entry.requests,
    Object.entries(entry.statuses)
      .map(([status, count]) => `${status}: ${count}`)
      .join(", "),
    entry.unexpected,
  ]),
)}

`;
}

/** Section 5: reading documents. */
function documentsSection(results: BenchResults): string {
  const { settings } = results;
  return `## 5. Reading documents

The processing functions' document reader (\`shared/adapters/documents/\`), in this process: for
each kind of document, a fresh reader's first read (its thread starts and loads pdf.js and the
QR decoder, as a cold function's first verification does), then ${settings.documentSamples} warm reads.
The text PDF and the photos are the published test certificates in \`docs/test-documents/\`; the
QR-only PDF is one page holding only the QR code's image. Processing's other steps are a
storage read, one issuer lookup and one conditional write.

${table(
  ["kind", "file", "bytes", "first read (ms)", "warm p50 / p95 (ms)"],
  results.documents.kinds.map((row) => [
    row.kind,
    row.file,
    row.bytes,
    ms(row.firstReadMs),
    `${ms(row.warm.p50)} / ${ms(row.warm.p95)}`,
  ]),
)}

A ${results.documents.largePdf.bytes}-byte PDF (a certificate with photos, the largest upload
accepted) read in a \`node\` process of its own (\`test/support/decode-peak.ts\`): first read
${results.documents.largePdf.readMs} ms, resident memory ${results.documents.largePdf.rssBeforeMiB} MiB before
the read and ${results.documents.largePdf.peakRssMiB} MiB at its peak, against the function's ${FUNCTION_MEMORY_MIB} MB.
The same PDF saved again by pdf-lib (${results.documents.comparison.copyBytes} bytes: other bytes, the same text), as
processing compares an upload with the issuer's copy, in one process: the upload read in
${results.documents.comparison.readMs} ms, the copy in ${results.documents.comparison.copyReadMs} ms, then compared byte for byte and by the
text of every page in ${results.documents.comparison.compareMs} ms; ${results.documents.comparison.peakRssMiB} MiB at the peak of both reads.
The reader loads nothing at init (its thread starts at the first read), so the processing
function's init against its baseline is the \`on-verification-change\` row of section 1.

`;
}

/** Section 6: webhook isolation. */
function isolationSection(results: BenchResults): string {
  const { settings, isolation } = results;
  const isolationRatio = Math.round((isolation.contended.p50 / isolation.baseline.p50) * 100) / 100;
  return `## 6. Webhook isolation

One app's confirm-to-webhook latency: from its \`upload-complete\` answer to its endpoint
receiving the final state's event, through the change stream, the consumer, the delivery
queue and its reader (\`local/sqs.ts\`, Lambda's batching and concurrency as declared in
\`shared/declarations/queues.ts\`). Measured ${isolation.samplesPerSide} times with no slow endpoint and
${isolation.samplesPerSide} times while another app's endpoint held at least ${isolation.slowInFlightAtLeast} of its deliveries
(it answers each after ${isolation.slowAnswerMs / 1000} s; ${isolation.slowVerificationsPerBlock} of its verifications are confirmed before each
contended block), in ${settings.isolationBlocks} alternating blocks of one run.

${table(
  ["", "p50 (ms)", "p95 (ms)"],
  [
    ["no slow endpoint", ms(isolation.baseline.p50), ms(isolation.baseline.p95)],
    [
      `another app's endpoint answering in ${isolation.slowAnswerMs / 1000} s`,
      ms(isolation.contended.p50),
      ms(isolation.contended.p95),
    ],
    ["ratio", `${isolationRatio}x`, `${Math.round((isolation.contended.p95 / isolation.baseline.p95) * 100) / 100}x`],
  ],
)}

`;
}

/** Section 7: the whole flow under load, and the audited load. */
function flowSection(results: BenchResults): string {
  const { machine, settings, flows } = results;
  return `## 7. The whole flow under load

${flows.map((flow) => renderFlow(flow, machine.nproc)).join("\n")}
${renderAuditedLoad(results.auditedLoad, settings)}
`;
}

/** The settings of the run. */
function settingsSection(results: BenchResults): string {
  const { settings } = results;
  return `## Settings of this run

${table(
  ["setting", "value"],
  Object.entries(settings).map(([name, value]) => [name, value]),
)}
`;
}
