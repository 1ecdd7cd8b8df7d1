/**
 * Builds the web pages the backoffice and portal APIs serve: each page's script bundled and
 * minified by esbuild, its page copied and its styles (web/common/base.css, then its own) and the
 * shared icon (web/common/favicon.svg) beside it, into `<outDir>/<page>/`
 * (`backoffice/`: the review console; `portal/`: the customer portal). The stack's bundling runs
 * it as a script (`node --import tsx web/build.ts <outDir>`); the local runtime and the tests
 * call `buildWeb`.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { build } from "esbuild";

/** The icon both pages show, beside each page's script. */
const FAVICON = "favicon.svg";

/** Each page: its folder under web/ and under the output, its entry script and its styles. */
const PAGES = [
  { folder: "backoffice", script: "console", styles: "console.css" },
  { folder: "portal", script: "portal", styles: "portal.css" },
] as const;

async function buildPage(outDir: string, page: (typeof PAGES)[number]): Promise<void> {
  const source = path.join(__dirname, page.folder);
  const target = path.join(outDir, page.folder);
  await mkdir(target, { recursive: true });
  await build({
    entryPoints: [path.join(source, `${page.script}.ts`)],
    outfile: path.join(target, `${page.script}.js`),
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  // One stylesheet per page: what the pages share first, then the page's own.
  const styles = await Promise.all(
    [path.join(__dirname, "common", "base.css"), path.join(source, page.styles)].map((file) => readFile(file, "utf8")),
  );
  await Promise.all([
    copyFile(path.join(source, "index.html"), path.join(target, "index.html")),
    copyFile(path.join(__dirname, "common", FAVICON), path.join(target, FAVICON)),
    writeFile(path.join(target, page.styles), styles.join("\n")),
  ]);
}

export async function buildWeb(outDir: string): Promise<void> {
  await Promise.all(PAGES.map((page) => buildPage(outDir, page)));
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
