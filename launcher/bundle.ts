/**
 * The Worker bundle as Miniflare takes it: every module `wrangler deploy --dry-run --outdir` wrote (index.js plus
 * the Text modules its [[rules]] kept apart). The package ships such a folder (dist/worker/); in the repository
 * scripts/build.ts builds one.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { ModuleDefinition } from "miniflare";
import { LaunchError } from "./config.ts";

/** One module of the bundle: its file, and its type as Miniflare names them. */
export type BundleModule = { path: string; type: ModuleDefinition["type"] };

/**
 * Every module wrangler wrote to outDir (index.js first, as Miniflare takes modules[0] as the main module, then
 * any Text/Data/Wasm modules), by file: their sources reach workerd through the launcher (module-sources.ts).
 */
export async function bundleModules(outDir: string): Promise<BundleModule[]> {
  let files: string[];
  try {
    files = (await readdir(outDir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch (error) {
    throw new LaunchError(`Cannot read bundle directory ${outDir}: ${(error as Error).message}`);
  }
  if (!files.includes("index.js"))
    throw new LaunchError(`${outDir} holds no index.js: was it built with wrangler --outdir?`);
  const names = ["index.js", ...files.filter((f) => f !== "index.js").sort()];
  return names.flatMap((name) => {
    const type = moduleType(name);
    return type ? [{ path: path.join(outDir, name), type }] : [];
  });
}

/**
 * The Miniflare type of a file in wrangler's outdir, or undefined for files
 * that are not modules (README.md, source maps, the build's JSON records).
 *
 * esbuild bundles every JS import into index.js, so any other file there is a
 * module wrangler collected by its [[rules]] and kept separate, named
 * `<sha1>-<original name>`. The dry run records no types, so they are inferred
 * from wrangler's default rules (.wasm CompiledWasm, .bin Data) and this
 * project's wrangler.toml, whose only rule is Text (swagger-ui's .js and .css).
 * A new Data rule in wrangler.toml needs a matching case here.
 */
function moduleType(name: string): ModuleDefinition["type"] | undefined {
  if (name === "index.js") return "ESModule";
  // wrangler's README, source maps, and the build's own records (its metafile and the inputs' digest, both JSON).
  if (name === "README.md" || name.endsWith(".map") || name.endsWith(".json")) return undefined;
  if (name.endsWith(".wasm")) return "CompiledWasm";
  if (name.endsWith(".bin")) return "Data";
  return "Text";
}
