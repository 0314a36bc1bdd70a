/**
 * Builds the bundled web UI (`ui/`) into `ui/dist/`: one JavaScript and one
 * CSS file, which the Worker imports as text modules and serves at `/`
 * (src/http/web-ui.ts). Run before every Worker build, so what `npm start`
 * serves and what `wrangler deploy` uploads are the same files.
 */
import { gzipSync } from "node:zlib";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

/** The budget: the UI's initial load, JavaScript and CSS gzipped together. */
export const GZIP_BUDGET_BYTES = 200 * 1024;

const projectDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Bundles ui/main.tsx; returns the gzipped size of what a first visit loads. Throws past the budget. */
export function buildUi(options: { quiet?: boolean } = {}): { jsBytes: number; cssBytes: number } {
  const outdir = path.join(projectDir, "ui", "dist");
  buildSync({
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
  });
  const jsBytes = gzipSync(readFileSync(path.join(outdir, "app.js"))).length;
  const cssBytes = gzipSync(readFileSync(path.join(outdir, "app.css"))).length;
  const total = jsBytes + cssBytes;
  if (!options.quiet) {
    console.log(`Web UI: ${(jsBytes / 1024).toFixed(1)} KB JS + ${(cssBytes / 1024).toFixed(1)} KB CSS gzipped = ${(total / 1024).toFixed(1)} KB (budget ${GZIP_BUDGET_BYTES / 1024} KB)`);
  }
  if (total > GZIP_BUDGET_BYTES) throw new Error(`Web UI initial load is ${total} bytes gzipped, over the ${GZIP_BUDGET_BYTES}-byte budget`);
  return { jsBytes, cssBytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) buildUi();
