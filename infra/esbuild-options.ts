/**
 * The stack's bundling options as esbuild's own, for what bundles a function outside CDK (the
 * benchmark, the reader's bundle test): a bundling option nobody maps fails to compile.
 */
import type { BuildOptions } from "esbuild";
import { BUNDLING, PROJECT_ROOT } from "./bundling.ts";

export function esbuildOptions(): BuildOptions {
  const {
    minify,
    sourceMap,
    sourcesContent,
    target,
    format,
    bundleAwsSDK,
    mainFields,
    forceDockerBundling,
    ...unmapped
  } = BUNDLING;
  const none: Record<string, never> = unmapped;
  if (forceDockerBundling || Object.keys(none).length > 0) throw new Error("The stack bundles locally");
  return {
    bundle: true,
    platform: "node",
    minify,
    sourcemap: sourceMap,
    sourcesContent,
    target,
    format: format === "cjs" ? "cjs" : "esm",
    mainFields: [...mainFields],
    // Bundling the SDK means nothing is external; otherwise NodejsFunction leaves out @aws-sdk/*.
    external: bundleAwsSDK ? [] : ["@aws-sdk/*"],
    absWorkingDir: PROJECT_ROOT,
    logLevel: "error",
  };
}
