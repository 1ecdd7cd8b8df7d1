import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    reporters: ["default", "./test/support/summary-reporter.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: {
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "SILENT",
    },
    projects: [
      // Pure rules and every use case against in-memory fakes: no engines, and no shared state,
      // so one worker runs them all without reloading modules per file (about 2 s).
      { extends: true, test: { name: "unit", include: ["test/unit/**/*.test.ts"], pool: "threads", isolate: false } },
      {
        extends: true,
        test: {
          name: "engines",
          include: ["test/**/*.test.ts"],
          exclude: ["test/unit/**"],
          // One DynamoDB Local and one S3 engine for the whole run; files isolate by table prefix.
          globalSetup: ["test/support/global-setup.ts"],
        },
      },
    ],
  },
});
