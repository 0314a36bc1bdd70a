/**
 * The e2e project's global setup: one scratch folder for the run, and the
 * Worker bundle built once in it (the exact `wrangler deploy --dry-run`
 * build the launcher makes), which every fleet a test launches runs through
 * BNG_BUNDLE_DIR rather than each launch building its own (about 5 s each on
 * a 2-core machine).
 *
 * The scratch folder is the run's TMPDIR: every folder the tests, their
 * launchers, Chromium and the daemons they start make with `tmpdir()` goes
 * in it, and it is removed when the run ends (a run made some 25 folders of
 * fleet state, certificates and logs directly in /tmp, and none removed
 * them). Screenshots go there too unless BNG_SCREENSHOTS_DIR names a folder
 * to keep them in (`npm run screenshots` names docs/screenshots/).
 */
import { chmod, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildBundle } from "../../scripts/build.ts";

export default async function setup(): Promise<() => Promise<void>> {
  const scratch = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-run-"));
  // Traversable as /tmp is, for a daemon a test starts that runs as another user.
  await chmod(scratch, 0o755);
  const bundle = path.join(scratch, "bundle");
  await buildBundle(process.cwd(), bundle);
  // Inherited by the test workers, which start after global setup, and so by every launcher and tool they spawn.
  process.env.TMPDIR = scratch;
  process.env.BNG_BUNDLE_DIR = bundle;
  return () => rm(scratch, { recursive: true, force: true });
}
