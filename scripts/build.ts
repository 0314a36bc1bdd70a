/**
 * Bundling: the exact bundle `wrangler deploy` would upload (same esbuild
 * settings, same [[rules]]), so what runs locally is what gets deployed.
 */
import { spawn } from "node:child_process";
import { rm } from "node:fs/promises";
import path from "node:path";
import { LaunchError } from "../launcher/config.ts";
import { bundleIsCurrent, METAFILE, recordBundleInputs } from "./bundle-digest.ts";

/**
 * Runs `wrangler deploy --dry-run --outdir <outDir>` in projectDir, unless `outDir` holds a bundle built from the
 * same inputs (scripts/bundle-digest.ts); its output is shown only if it fails. Answers whether it built.
 */
export async function buildBundle(
  projectDir: string,
  outDir: string,
  signal?: AbortSignal,
  say: (line: string) => void = console.log,
): Promise<"built" | "unchanged"> {
  // The web UI first: the Worker bundles its output as text modules (and its files are among the bundle's inputs).
  // Imported here, not above: its contract is made from every schema, about 0.7 s of CPU for a launch that only loads a
  // bundle.
  const { buildUi } = await import("./build-ui.ts");
  try {
    await buildUi({ say });
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
