/**
 * What a Worker bundle was built from, so a launch whose inputs are unchanged
 * runs the bundle it has instead of building it again: `wrangler deploy
 * --dry-run` takes about 4 s of a 7 s start on a 2-core machine, and a fleet
 * is restarted far more often than its code changes.
 *
 * The inputs are every file esbuild read for the bundle (wrangler's metafile:
 * our sources, the fleet config and the packages, node_modules included),
 * plus what the metafile does not list but the build reads: the web UI's
 * built files and swagger-ui's, which wrangler adds as text modules by its
 * [[rules]] (swagger-ui's come with package-lock.json), and the files that
 * set how wrangler bundles. The digest is SHA-256 over each file's path and
 * content, in path order: a changed, added or removed import changes some
 * listed file's content, so the list from the last build is enough to judge
 * the next.
 */
import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** esbuild's metafile, as `wrangler deploy --metafile` writes it into the bundle's folder. */
export const METAFILE = "bundle-meta.json";
/** The digest of the inputs the bundle in the same folder was built from, written once the build succeeded. */
export const DIGEST_FILE = "bundle-digest.json";

/** What the launcher says when it runs the bundle it has (the bench reads it from the launcher's output). */
export const UNCHANGED_NOTE = "Worker bundle: its inputs are unchanged";

/** Inputs the metafile does not list (project-relative). */
const ALWAYS = [
  "wrangler.toml",
  "tsconfig.json",
  "package.json",
  "package-lock.json",
  "node_modules/wrangler/package.json",
  "ui/dist/app.js",
  "ui/dist/app.css",
];

/**
 * The digest of `files` and ALWAYS (project-relative); a file that cannot be read counts as absent, so removing one
 * changes it too.
 */
async function digestOf(projectDir: string, files: readonly string[]): Promise<string> {
  const hash = createHash("sha256");
  for (const file of [...new Set([...files, ...ALWAYS])].sort()) {
    const content = await readFile(path.join(projectDir, file)).catch(() => null);
    hash.update(`${file}\0${content === null ? "absent" : createHash("sha256").update(content).digest("hex")}\n`);
  }
  return hash.digest("hex");
}

/** The inputs the metafile in `outDir` lists; [] when there is none. */
async function metafileInputs(outDir: string): Promise<string[]> {
  try {
    const meta = JSON.parse(await readFile(path.join(outDir, METAFILE), "utf8")) as {
      inputs?: Record<string, unknown>;
    };
    return Object.keys(meta.inputs ?? {});
  } catch {
    return [];
  }
}

/** True when `outDir` holds a finished bundle whose inputs, as its build read them, are all unchanged. */
export async function bundleIsCurrent(projectDir: string, outDir: string): Promise<boolean> {
  let stamp: { digest?: unknown };
  try {
    stamp = JSON.parse(await readFile(path.join(outDir, DIGEST_FILE), "utf8")) as { digest?: unknown };
  } catch {
    return false;
  }
  const inputs = await metafileInputs(outDir);
  if (inputs.length === 0 || typeof stamp.digest !== "string") return false;
  return (await digestOf(projectDir, inputs)) === stamp.digest;
}

/** Records what the bundle just built in `outDir` was built from (its metafile must be there). */
export async function recordBundleInputs(projectDir: string, outDir: string): Promise<void> {
  const inputs = await metafileInputs(outDir);
  // Without a metafile nothing is recorded: the next launch builds again.
  if (inputs.length > 0)
    await writeFile(path.join(outDir, DIGEST_FILE), JSON.stringify({ digest: await digestOf(projectDir, inputs) }));
}
