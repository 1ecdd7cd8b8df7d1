/**
 * The functions of TypeScript files longer than a given number of lines, as the TypeScript
 * compiler's own parser reads them (its API over `tsc`'s native build), the files parsed as one
 * program of those files alone: nothing resolved, nothing type-checked. A function is every
 * function declaration and expression, arrow function, method, accessor and constructor with a
 * body, measured from its first token (its comments left out) to its last, both lines counted.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Node, SourceFile } from "typescript/unstable/ast";
import { SyntaxKind } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.FunctionExpression,
  SyntaxKind.ArrowFunction,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);

/**
 * Whether the function is a suite's body: a callback handed to vitest's `describe` (or
 * `describe.each(...)`, `describe.sequential`, ...). A suite is a list of cases, each its own
 * `it` callback (which counts); it grows with the cases as a table grows with its rows.
 */
function isSuite(node: FunctionLike, file: SourceFile): boolean {
  const parent = node.parent as Node & { expression?: Node };
  if (parent.kind !== SyntaxKind.CallExpression || !parent.expression) return false;
  return /^describe\b/.test(nameText(parent.expression, file) ?? "");
}

interface FunctionLike {
  kind: SyntaxKind;
  name?: Node;
  body?: Node;
  parent: Node;
}

/** The text of a name, a property or a callee: short, on one line. */
function nameText(node: Node | undefined, file: SourceFile): string | undefined {
  if (!node) return undefined;
  const text = file.text.slice(node.getStart(file), node.end).replace(/\s+/g, " ");
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** What a reader calls the function: its own name, what it is assigned to, or the call it is handed to. */
function nameOf(node: FunctionLike, file: SourceFile): string {
  const parent = node.parent as Node & { name?: Node; expression?: Node; arguments?: readonly Node[] };
  const owner = parent.kind === SyntaxKind.ClassDeclaration ? nameText(parent.name, file) : undefined;
  if (node.kind === SyntaxKind.Constructor) return `${owner ?? "class"} constructor`;
  const own = nameText(node.name, file);
  if (own) return owner ? `${owner}.${own}` : own;
  if (parent.kind === SyntaxKind.VariableDeclaration || parent.kind === SyntaxKind.PropertyAssignment) {
    return nameText(parent.name, file) ?? "(anonymous)";
  }
  if (parent.kind === SyntaxKind.CallExpression && parent.expression) {
    const first = parent.arguments?.[0];
    const label = first && first !== (node as unknown as Node) ? `(${nameText(first, file)})` : "";
    return `${nameText(parent.expression, file)}${label} callback`;
  }
  return "(anonymous)";
}

export interface Offender {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The functions of `files` longer than `max` lines, parsed as one program of those files alone. */
export function longFunctions(root: string, files: readonly string[], max: number): Offender[] {
  const folder = mkdtempSync(path.join(os.tmpdir(), "function-length-"));
  const config = path.join(folder, "tsconfig.json");
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { noResolve: true, noLib: true, types: [], noEmit: true, allowImportingTsExtensions: true },
      files: files.map((file) => path.join(root, file)),
    }),
  );
  const api = new API({ cwd: root });
  try {
    const program = api.updateSnapshot({ openProjects: [config] }).getProject(config)?.program;
    if (!program) throw new Error("the compiler opened no program");
    return files.flatMap((file) => {
      const source = program.getSourceFile(path.join(root, file));
      if (!source) throw new Error(`the compiler did not read ${file}`);
      return longFunctionsIn(source, file, max);
    });
  } finally {
    api.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

function longFunctionsIn(source: SourceFile, file: string, max: number): Offender[] {
  const found: Offender[] = [];
  const starts = [0, ...[...source.text.matchAll(/\n/g)].map((match) => (match.index ?? 0) + 1)];
  /** The 1-based line `position` is on. */
  const lineOf = (position: number) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((starts[middle] ?? 0) <= position) low = middle;
      else high = middle - 1;
    }
    return low + 1;
  };
  const visit = (node: Node): void => {
    const candidate = node as unknown as FunctionLike;
    if (FUNCTION_KINDS.has(node.kind) && candidate.body && !isSuite(candidate, source)) {
      const line = lineOf(node.getStart(source));
      const lines = lineOf(node.end) - line + 1;
      if (lines > max) found.push({ file, name: nameOf(candidate, source), line, lines });
    }
    node.forEachChild(visit);
  };
  source.forEachChild(visit);
  return found;
}
