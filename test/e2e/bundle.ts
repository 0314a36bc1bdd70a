/**
 * The e2e project's global setup: the Worker bundle is built once (the exact
 * `wrangler deploy --dry-run` build the launcher makes) and every fleet a test
 * launches runs it through BNG_BUNDLE_DIR, rather than each launch building
 * its own (about 5 s each on a 2-core machine).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle } from "../../scripts/build.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-bundle-"));
  await buildBundle(process.cwd(), dir);
  // Inherited by the test workers, which start after global setup, and so by every launcher they spawn.
  process.env.BNG_BUNDLE_DIR = dir;
  return () => rm(dir, { recursive: true, force: true });
}
