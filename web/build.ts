/**
 * Builds the web pages the backoffice API serves: the review console's script bundled and
 * minified by esbuild, its page and styles copied beside it, into `<outDir>/backoffice/`.
 * The stack's bundling runs it as a script (`node --import tsx web/build.ts <outDir>`); the
 * local runtime and the tests call `buildWeb`.
 */
import { copyFile, mkdir } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

const SOURCE = path.join(__dirname, "backoffice");

export async function buildWeb(outDir: string): Promise<void> {
  const target = path.join(outDir, "backoffice");
  await mkdir(target, { recursive: true });
  await build({
    entryPoints: [path.join(SOURCE, "console.ts")],
    outfile: path.join(target, "console.js"),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  await Promise.all(
    ["index.html", "console.css"].map((file) => copyFile(path.join(SOURCE, file), path.join(target, file))),
  );
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === __filename) {
  const outDir = process.argv[2];
  if (!outDir) {
    process.stderr.write("usage: node --import tsx web/build.ts <outDir>\n");
    process.exit(2);
  }
  buildWeb(path.resolve(outDir)).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
