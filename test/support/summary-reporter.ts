import type { Reporter, TestModule } from "vitest/node";

/** How many of the slowest files the run's end lists. */
const SLOWEST_FILES = 15;

/** A file's own time: collecting it (its imports) and running its tests and hooks. */
const fileSeconds = (module: TestModule) => {
  const { collectDuration, setupDuration, duration } = module.diagnostic();
  return (collectDuration + setupDuration + duration) / 1000;
};

/**
 * Ends the run with its slowest files (where the suite's time goes) and then the plain line
 * `N passed, N failed` that CI reads, last.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failed += 1;
        else skipped += 1;
      }
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed += 1;
    }
    const slowest = [...testModules].sort((a, b) => fileSeconds(b) - fileSeconds(a)).slice(0, SLOWEST_FILES);
    if (slowest.length > 1) {
      const lines = slowest.map(
        (module) => `  ${fileSeconds(module).toFixed(1).padStart(7)} s  ${module.relativeModuleId}`,
      );
      process.stdout.write(`\nThe ${slowest.length} slowest files:\n${lines.join("\n")}\n`);
    }
    process.stdout.write(`\n${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}\n`);
  }
}
