/**
 * Builds a software package for POST /api/v1/system/upgrade/stage and writes
 * it to stdout:
 *
 *   npm run -s upgrade-package -- 0.2.0 [payload-file] [notes] > bngfleet-0.2.0.bngpkg
 *
 * Without a payload file the image is a small placeholder naming the version
 * (the twin installs no real software; the bytes only have to check out).
 */
import { readFileSync } from "node:fs";
import { Version, buildPackage } from "../src/upgrade/package.ts";

const [version, payloadFile, notes] = process.argv.slice(2);
const checked = Version.safeParse(version);
if (!checked.success) {
  console.error(`usage: make-upgrade-package.ts <version> [payload-file] [notes]\n${version ?? "(no version)"}: ${checked.error.issues[0]?.message}`);
  process.exit(2);
}
const payload = payloadFile ? new Uint8Array(readFileSync(payloadFile)) : new TextEncoder().encode(`bngfleet ${checked.data} image\n`);
process.stdout.write(await buildPackage(checked.data, payload, notes));
