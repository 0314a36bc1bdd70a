/**
 * Bundling: the exact bundle `wrangler deploy` would upload (same esbuild
 * settings, same [[rules]]), so what runs locally is what gets deployed.
 */
import { spawn } from "node:child_process";
import { readFile, readdir, rm } from "node:fs/promises";
import path from "node:path";
import type { ModuleDefinition } from "miniflare";
import { LaunchError } from "./config.ts";
import { bundleIsCurrent, METAFILE, DIGEST_FILE, recordBundleInputs } from "./bundle-digest.ts";

/**
 * Runs `wrangler deploy --dry-run --outdir <outDir>` in projectDir, unless `outDir` holds a bundle built from the
 * same inputs (scripts/bundle-digest.ts); its output is shown only if it fails. Answers whether it built.
 */
export async function buildBundle(projectDir: string, outDir: string, signal?: AbortSignal): Promise<"built" | "unchanged"> {
  // The web UI first: the Worker bundles its output as text modules (and its files are among the bundle's inputs).
  // Imported here, not above: its contract is made from every schema, about 0.7 s of CPU for a launch that only loads a bundle.
  const { buildUi } = await import("./build-ui.ts");
  try {
    await buildUi();
  } catch (error) {
    throw new LaunchError(`Web UI build failed: ${(error as Error).message}`);
  }
  if (await bundleIsCurrent(projectDir, outDir)) return "unchanged";
  // Stale hashed modules from an earlier build would otherwise be loaded too.
  await rm(outDir, { recursive: true, force: true });
  // Run wrangler's JS entry with this very Node rather than node_modules/.bin/wrangler:
  // that shim's `#!/usr/bin/env node` may find the system Node, which is too old.
  const wrangler = path.join(projectDir, "node_modules", "wrangler", "bin", "wrangler.js");
  const args = [wrangler, "deploy", "--dry-run", "--outdir", outDir, "--metafile", path.join(outDir, METAFILE)];
  const output: Buffer[] = [];
  const code = await new Promise<number | string>((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: projectDir,
      // No telemetry: there is no network to send it to, and a local build is not a deploy.
      env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group: wrangler.js is a shim that runs the real CLI as
      // a child and does not pass signals on, so stopping the build means
      // signalling the whole group (see onAbort).
      detached: true,
    });
    const onAbort = () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // Already gone.
      }
      resolve("aborted");
    };
    if (signal?.aborted) onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    child.on("error", reject);
    child.on("close", (exitCode, exitSignal) => {
      signal?.removeEventListener("abort", onAbort);
      resolve(exitCode ?? exitSignal ?? "unknown");
    });
  });
  if (code === "aborted") throw new LaunchError("Build interrupted");
  if (code !== 0) {
    const text = Buffer.concat(output).toString("utf8").trim();
    throw new LaunchError(`Build failed (wrangler deploy --dry-run exited with ${code}):\n${text}`);
  }
  await recordBundleInputs(projectDir, outDir);
  return "built";
}

/** Loads every module wrangler wrote to outDir (index.js plus any Text/Data/Wasm modules) as Miniflare module definitions. */
export async function loadBundle(outDir: string): Promise<ModuleDefinition[]> {
  let files: string[];
  try {
    files = (await readdir(outDir, { withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch (error) {
    throw new LaunchError(`Cannot read bundle directory ${outDir}: ${(error as Error).message}`);
  }
  if (!files.includes("index.js")) throw new LaunchError(`${outDir} holds no index.js: was it built with wrangler --outdir?`);
  // The entry module must come first: Miniflare treats modules[0] as the main module.
  const names = ["index.js", ...files.filter((f) => f !== "index.js").sort()];
  const modules: ModuleDefinition[] = [];
  for (const name of names) {
    const type = moduleType(name);
    if (!type) continue;
    const file = path.join(outDir, name);
    const contents = await readFile(file);
    modules.push({ type, path: file, contents: type === "Text" || type === "ESModule" ? contents.toString("utf8") : new Uint8Array(contents) });
  }
  return modules;
}

/**
 * The Miniflare type of a file in wrangler's outdir, or undefined for files
 * that are not modules (README.md, source maps, the metafile and the inputs' digest).
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
  if (name === "README.md" || name.endsWith(".map") || name === METAFILE || name === DIGEST_FILE) return undefined;
  if (name.endsWith(".wasm")) return "CompiledWasm";
  if (name.endsWith(".bin")) return "Data";
  return "Text";
}
