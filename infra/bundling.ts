/**
 * How every function is bundled: the shared esbuild options, and after bundling the files a
 * bundle needs beside it (the e-Devlet simulator's certificates, the web pages, the document
 * reader's thread and WebAssembly). The benchmark and the reader's bundle test build with the
 * same options (`esbuild-options.ts`).
 */
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Runtime } from "aws-cdk-lib/aws-lambda";
import { type BundlingOptions, OutputFormat } from "aws-cdk-lib/aws-lambda-nodejs";
import { QR_DECODER_WASM_FILE, QR_DECODER_WASM_PACKAGE_PATH } from "#shared/adapters/documents/qr";
import { READER_THREAD_FILE } from "#shared/adapters/documents/reader";
import type { FunctionDefinition } from "#shared/declarations/function-definition";

/** The repository root: esbuild resolves `#shared/*` and the lockfile from here. */
export const PROJECT_ROOT = path.resolve(__dirname, "..");

/** Lambda's Node.js runtime; the bundle targets the same version. */
export const RUNTIME = Runtime.NODEJS_24_X;
const ESBUILD_TARGET = "node24";

/** How every function is bundled; the benchmark builds its bundles with exactly these. */
export const BUNDLING = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: ESBUILD_TARGET,
  format: OutputFormat.CJS,
  bundleAwsSDK: true,
  // The ES module builds first: esbuild drops the SDK commands and package parts a function never
  // imports, which CommonJS builds keep whole (a third off most bundles and their init). And
  // package.json's `sideEffects` names the only project files whose loading does something
  // (zod's messages, the reader's thread), so a module none of whose exports a function uses is
  // left out with its schemas, though the wiring imports it.
  mainFields: ["module", "main"],
  forceDockerBundling: false,
} as const satisfies BundlingOptions;

/** The published test certificates the sandbox's e-Devlet simulator holds, copied into its bundle. */
const SIMULATOR_DOCUMENTS_SOURCE = "docs/test-documents/issuer";
/** Where the simulator's bundle holds them, so where it reads them (`SIMULATOR_DOCUMENTS`). */
export const SIMULATOR_DOCUMENTS_FOLDER = "issuer";

/** The web pages' build script: `buildWeb(outDir)`, also run as `web/build.ts <outDir>`. */
const WEB_BUILD_SCRIPT = "web/build.ts";
/** Where a bundle holds the built pages, so where its function reads them (`WEB_ASSETS`). */
export const WEB_ASSETS_FOLDER = "web";

/** `file`, a path under the project root, as the bundling sees it under `inputDir`. */
function inInput(inputDir: string, file: string): string {
  return path.join(inputDir, path.relative(PROJECT_ROOT, file));
}

/** The command that copies the simulator's certificates beside its bundle. */
function simulatorDocumentFiles(inputDir: string, outputDir: string): string[] {
  return [
    `cp -R "${path.join(inputDir, SIMULATOR_DOCUMENTS_SOURCE)}" "${path.join(outputDir, SIMULATOR_DOCUMENTS_FOLDER)}"`,
  ];
}

/**
 * The command that builds the web pages into a bundle's folder, for a function that serves
 * them. The build script is TypeScript, so Node runs it with the project's own tsx loader,
 * named by path as the reader's esbuild is: the command runs in a shell, not in this process.
 */
function webAssetFiles(inputDir: string, outputDir: string): string[] {
  const loader = pathToFileURL(inInput(inputDir, createRequire(__filename).resolve("tsx"))).href;
  const script = path.join(inputDir, WEB_BUILD_SCRIPT);
  return [`node --import "${loader}" "${script}" "${path.join(outputDir, WEB_ASSETS_FOLDER)}"`];
}

/**
 * The commands that put beside a bundle what its document reader needs: the reader's thread,
 * bundled with the functions' own options (it runs in a worker thread, so its code is a file of
 * its own; see shared/adapters/documents/reader.ts), and the QR decoder's WebAssembly binary,
 * which the thread reads from beside its code. A file rather than bytes inside the bundle:
 * unbundled (tsx, the tests, the local runtime) the same code reads it from its package. A
 * bundle names the thread's file exactly when it holds the reader; the others get nothing.
 */
export function documentReaderFiles(inputDir: string, outputDir: string): string[] {
  const resolve = createRequire(__filename).resolve;
  const esbuild = inInput(inputDir, path.join(PROJECT_ROOT, "node_modules", ".bin", "esbuild"));
  const entry = inInput(inputDir, resolve("#shared/adapters/documents/thread"));
  const wasm = inInput(inputDir, resolve(QR_DECODER_WASM_PACKAGE_PATH));
  const options = [
    "--bundle",
    "--platform=node",
    `--format=${BUNDLING.format}`,
    `--target=${BUNDLING.target}`,
    `--main-fields=${BUNDLING.mainFields.join(",")}`,
    ...(BUNDLING.minify ? ["--minify"] : []),
    ...(BUNDLING.sourceMap ? ["--sourcemap"] : []),
    `--sources-content=${BUNDLING.sourcesContent}`,
    "--log-level=warning",
    `--outfile="${path.join(outputDir, READER_THREAD_FILE)}"`,
  ];
  const build = `"${esbuild}" "${entry}" ${options.join(" ")}`;
  const copy = `cp "${wasm}" "${path.join(outputDir, QR_DECODER_WASM_FILE)}"`;
  return [`if grep -q "${READER_THREAD_FILE}" "${path.join(outputDir, "index.js")}"; then ${build} && ${copy}; fi`];
}

/**
 * How the function `definition` declares is bundled: the shared options and, after bundling,
 * the files its bundle needs beside it: the simulator's certificates, the web pages of a
 * function that serves them (it reads `WEB_ASSETS`), and the document reader's when the bundle
 * holds it.
 */
export function functionBundling(definition: FunctionDefinition): BundlingOptions {
  return {
    ...BUNDLING,
    commandHooks: {
      beforeBundling: () => [],
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => [
        ...(definition.access.simulator ? simulatorDocumentFiles(inputDir, outputDir) : []),
        ...(definition.settings.includes("WEB_ASSETS") ? webAssetFiles(inputDir, outputDir) : []),
        ...documentReaderFiles(inputDir, outputDir),
      ],
    },
  };
}
