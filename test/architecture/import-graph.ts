/**
 * The repository's import graph, read with the TypeScript compiler's parser
 * (not regular expressions, so multi-line and re-exporting statements count
 * too). Each edge says whether the import survives compilation: under
 * `verbatimModuleSyntax` (tsconfig.json) only `import type …` and
 * `export type …` vanish; `import { type A } from "x"` still loads `x` at run
 * time (it compiles to `import {} from "x"`), so it counts as a run-time edge.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The repository root (two levels above this file). */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The folders whose TypeScript makes up the tree (`ui/dist` and `node_modules` are build output and packages). */
const FOLDERS = ["src", "durable-objects", "simulator", "fleet-config", "launcher", "scripts", "ui", "test"];
const SKIP = new Set(["node_modules", "dist"]);

export interface Import {
  /** The importing file, relative to the root with `/` separators. */
  from: string;
  /** The imported file relative to the root, or the package name for a bare specifier (`zod`, `cloudflare:workers`). */
  to: string;
  /** The specifier as written. */
  specifier: string;
  /** False for imports that compilation erases (`import type`, `export type`, `typeof import("x")`). */
  runtime: boolean;
  /** True for `import("x")` expressions: loaded when first called, so they close no evaluation-order cycle. */
  dynamic: boolean;
  /** 1-based line of the statement, for the failure message. */
  line: number;
}

/** Every `.ts`/`.tsx` source file of the tree (declaration files excepted), relative to the root. */
export function sourceFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(path.join(ROOT, dir))) {
      if (SKIP.has(name)) continue;
      const rel = `${dir}/${name}`;
      if (statSync(path.join(ROOT, rel)).isDirectory()) walk(rel);
      else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) files.push(rel);
    }
  };
  for (const folder of FOLDERS) if (existsSync(path.join(ROOT, folder))) walk(folder);
  return files.sort();
}

/**
 * The file a relative specifier names (extension given as in this repository, or `.ts`/`.tsx`/`index.ts` added); bare
 * specifiers stay as written.
 */
function resolve(from: string, specifier: string): string {
  if (!specifier.startsWith(".")) return specifier;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`]) {
    if (existsSync(path.join(ROOT, candidate)) && statSync(path.join(ROOT, candidate)).isFile()) return candidate;
  }
  return base;
}

/** Whether an import or export clause leaves anything at run time. */
function clauseIsTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isImportDeclaration(node)) return node.importClause?.isTypeOnly ?? false;
  return node.isTypeOnly;
}

/** The imports of one file: static imports, re-exports, `import("x")` calls and `typeof import("x")` types. */
export function importsOf(file: string): Import[] {
  return importsIn(file, readFileSync(path.join(ROOT, file), "utf8"));
}

/** The imports in a file's text, as if it sat at `file` (relative to the root). */
export function importsIn(file: string, text: string): Import[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Import[] = [];
  const add = (specifier: string, node: ts.Node, runtime: boolean, dynamic: boolean): void => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ from: file, to: resolve(file, specifier), specifier, runtime, dynamic, line });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, node, !clauseIsTypeOnly(node), false);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, node, true, true);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, node, false, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

let cached: Import[] | null = null;

/** The imports of every source file (read once per test run: parsing the tree takes seconds on a loaded machine). */
export function importGraph(): Import[] {
  cached ??= sourceFiles().flatMap(importsOf);
  return cached;
}

/**
 * The strongly connected components of more than one file (or a file
 * importing itself) in the graph of static run-time imports: each is a set of
 * modules whose evaluation order depends on which is loaded first.
 */
export function runtimeCycles(imports: Import[]): string[][] {
  return cycles(imports.filter((i) => i.runtime && !i.dynamic));
}

/**
 * The same over every import, types included: files that cannot be read (or changed) one without the other, though
 * no evaluation order depends on it.
 */
export const typeCycles = (imports: Import[]): string[][] => cycles(imports.filter((i) => !i.dynamic));

function cycles(imports: Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of imports) {
    edges.set(i.from, [...(edges.get(i.from) ?? []), i.to]);
  }
  // Tarjan's algorithm, started from the files in sorted order so the answer is stable.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string): void => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of edges.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || (edges.get(file) ?? []).includes(file)) components.push(component.sort());
    }
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) connect(file);
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** Each static run-time import that lies on a cycle, as a failure line naming the file, the import and the cycle. */
export function cycleViolations(imports: Import[]): string[] {
  const found: string[] = [];
  for (const cycle of runtimeCycles(imports)) {
    const members = new Set(cycle);
    for (const i of imports) {
      if (i.runtime && !i.dynamic && members.has(i.from) && members.has(i.to)) {
        found.push(
          `${i.from}:${i.line} imports ${i.to} (at run time): closes a run-time import ` +
            `cycle through ${cycle.join(", ")} (a leaf module for what they share breaks it)`,
        );
      }
    }
  }
  return found;
}
