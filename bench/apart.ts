/**
 * One run of the whole flow, in a process of its own: the functions read e-Devlet's way in at
 * their cold start, so each way in is measured by a fresh runtime. `npm run bench` runs it once
 * per way in: `node --import tsx bench/flow-run.ts <options as JSON> <result file>`.
 */
import { writeFileSync } from "node:fs";
import type { EdevletProtocol } from "#shared/domain/issuer";
import { runFlow } from "./flow.ts";
import { startBenchApi } from "./local-api.ts";

type Options = Parameters<typeof runFlow>[2];

async function main(): Promise<void> {
  const [json = "", resultFile = ""] = process.argv.slice(2);
  const options = JSON.parse(json) as Options & { protocol: EdevletProtocol };
  const api = await startBenchApi({ issuerLatencyMs: options.issuerLatencyMs, protocol: options.protocol });
  try {
    const pipeline = await api.startPipeline();
    try {
      writeFileSync(resultFile, JSON.stringify(await runFlow(api, pipeline, options)));
    } finally {
      await pipeline.stop();
    }
  } finally {
    await api.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`flow run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
