/**
 * Builds the web pages the backoffice and portal APIs serve: each page's script bundled and
 * minified by esbuild, its page copied and its styles (web/common/base.css, then its own) and the
 * shared icon (web/common/favicon.svg) beside it, with the modules it imports only when it needs
 * them (the console's pdf.js and its worker: pdfjs-dist's own minified builds, copied), into
 * `<outDir>/<page>/` (`backoffice/`: the review console; `portal/`: the customer portal). The
 * stack's bundling runs it as a script (`node --import tsx web/build.ts <outDir>`); the local
 * runtime and the tests call `buildWeb`.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "esbuild";

/** The icon both pages show, beside each page's script. */
const FAVICON = "favicon.svg";

/**
 * Each page: its folder under web/ and under the output, its entry script, its styles, and each
 * module it loads later by the package file it is copied from.
 */
const PAGES = [
  {
    folder: "backoffice",
    script: "console",
    styles: "console.css",
    modules: {
      "pdf.mjs": "pdfjs-dist/build/pdf.min.mjs",
      "pdf.worker.mjs": "pdfjs-dist/build/pdf.worker.min.mjs",
    },
  },
  { folder: "portal", script: "portal", styles: "portal.css", modules: {} },
] as const;

/** Where a package's file is installed. */
const resolve = createRequire(__filename).resolve;

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
  const modules: [string, string][] = Object.entries(page.modules);
  await Promise.all([
    copyFile(path.join(source, "index.html"), path.join(target, "index.html")),
    copyFile(path.join(__dirname, "common", FAVICON), path.join(target, FAVICON)),
    writeFile(path.join(target, page.styles), styles.join("\n")),
    ...modules.map(([file, from]) => copyFile(resolve(from), path.join(target, file))),
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
