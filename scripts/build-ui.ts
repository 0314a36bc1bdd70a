/**
 * Builds the bundled web UI (`ui/`) into `ui/dist/`: one JavaScript and one
 * CSS file, which the Worker imports as text modules and serves at `/`
 * (src/http/web-ui.ts). Run before every Worker build, so what `npm start`
 * serves and what `wrangler deploy` uploads are the same files.
 */
import { gzipSync } from "node:zlib";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build, type Plugin } from "esbuild";
import { contract } from "../src/schemas/index.ts";
import { defaultFloor } from "../src/auth/roles.ts";

/** The budget: the UI's initial load, JavaScript and CSS gzipped together. */
export const GZIP_BUDGET_BYTES = 200 * 1024;

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** The module the UI imports as `bngfleet:contract` (declared in ui/contract.d.ts). */
export const CONTRACT_MODULE = "bngfleet:contract";

/**
 * The contract as the browser needs it: each operation's method, path,
 * role floor and fleet-proxy flag, by section and name, read from
 * src/schemas/ at build time. The UI calls `call(contract.sessions.list, …)`
 * typed by the operation's schemas, without bundling zod or the schemas.
 */
export function contractRefs(): Record<
  string,
  Record<string, { method: string; path: string; floor: string; fp: boolean }>
> {
  return Object.fromEntries(
    Object.entries(contract).map(([section, operations]) => [
      section,
      Object.fromEntries(
        Object.entries(operations).map(([name, op]) => [
          name,
          { method: op.method, path: op.path, floor: op.floor ?? defaultFloor(op.method, op.path), fp: op.fp === true },
        ]),
      ),
    ]),
  );
}

const contractPlugin: Plugin = {
  name: "bngfleet-contract",
  setup(build) {
    build.onResolve({ filter: /^bngfleet:contract$/ }, () => ({ path: CONTRACT_MODULE, namespace: "bngfleet" }));
    build.onLoad({ filter: /.*/, namespace: "bngfleet" }, () => ({
      contents: `export const contract = ${JSON.stringify(contractRefs())};`,
      loader: "js",
    }));
  },
};

/** Bundles ui/main.tsx; returns the gzipped size of what a first visit loads. Throws past the budget. */
export async function buildUi(
  options: { quiet?: boolean; say?: (line: string) => void } = {},
): Promise<{ jsBytes: number; cssBytes: number }> {
  const outdir = path.join(projectDir, "ui", "dist");
  // Asynchronous: esbuild runs plugins (the contract module) only in its asynchronous API.
  const { outputFiles } = await build({
    // Written below, each file whole: a test run or a second launcher may be reading them.
    write: false,
    absWorkingDir: projectDir,
    entryPoints: { app: "ui/main.tsx" },
    bundle: true,
    minify: true,
    format: "esm",
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    outdir,
    // Both files are served by the Worker from memory: nothing else may be emitted.
    loader: { ".css": "css" },
    logLevel: "error",
    legalComments: "none",
    plugins: [contractPlugin],
  });
  mkdirSync(outdir, { recursive: true });
  for (const file of outputFiles) {
    // Unchanged files are left as they are; a changed one replaces the old by a rename, never a rewrite in place.
    if (existsSync(file.path) && readFileSync(file.path).equals(file.contents)) continue;
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
  const output = (name: string): Uint8Array => {
    const file = outputFiles.find((f) => path.basename(f.path) === name);
    if (!file) throw new Error(`the web UI's build made no ${name}`);
    return file.contents;
  };
  const jsBytes = gzipSync(output("app.js")).length;
  const cssBytes = gzipSync(output("app.css")).length;
  const total = jsBytes + cssBytes;
  if (!options.quiet) {
    (options.say ?? console.log)(
      `Web UI: ${(jsBytes / 1024).toFixed(1)} KB JS + ${(cssBytes / 1024).toFixed(1)} ` +
        `KB CSS gzipped = ${(total / 1024).toFixed(1)} KB ` +
        `(budget ${GZIP_BUDGET_BYTES / 1024} KB)`,
    );
  }
  if (total > GZIP_BUDGET_BYTES)
    throw new Error(`Web UI initial load is ${total} bytes gzipped, over the ${GZIP_BUDGET_BYTES}-byte budget`);
  return { jsBytes, cssBytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildUi();
