/**
 * A section of the bench in a process of its own, on a fresh runtime with its pipeline running:
 * the functions read how they ask the issuer at their cold start, so each way of asking is
 * measured by a runtime of its own. `npm run bench` runs
 * `node --import tsx bench/apart.ts <section> <options as JSON> <result file>`.
 */
import { writeFileSync } from "node:fs";
import { type AuditedLoadOptions, benchAuditedLoad } from "./audited-load.ts";
import { runFlow } from "./flow.ts";
import { startBenchApi } from "./local-api.ts";

export type FlowOptions = Parameters<typeof runFlow>[2];

/** What each section runs; `npm run bench` names one with its options. */
export type Apart =
  | { section: "flow"; options: FlowOptions }
  | { section: "audited-load"; options: AuditedLoadOptions };

async function run(apart: Apart): Promise<unknown> {
  const api = await startBenchApi(
    apart.section === "flow"
      ? { issuerLatencyMs: apart.options.issuerLatencyMs, protocol: apart.options.protocol }
      : { issuerLatencyMs: 0, issuer: false },
  );
  try {
    const pipeline = await api.startPipeline();
    try {
      return apart.section === "flow"
        ? await runFlow(api, pipeline, apart.options)
        : await benchAuditedLoad(api, apart.options);
    } finally {
      await pipeline.stop();
    }
  } finally {
    await api.stop();
  }
}

async function main(): Promise<void> {
  const [section = "", json = "", resultFile = ""] = process.argv.slice(2);
  if (section !== "flow" && section !== "audited-load") throw new Error(`No bench section is called "${section}"`);
  const apart = { section, options: JSON.parse(json) } as Apart;
  writeFileSync(resultFile, JSON.stringify(await run(apart)));
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench section failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
