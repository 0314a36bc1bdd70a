/**
 * Builds a software package for POST /api/v1/system/upgrade/stage, signed with
 * the data dir's development vendor key (the local fleet's appliances hold its
 * public half; created on first use, like the launcher does), and writes it to
 * stdout:
 *
 *   npm run -s upgrade-package -- 0.2.0 [payload-file] [notes] > bngfleet-0.2.0.bngpkg
 *
 * BNG_DATA_DIR picks the data dir as for `npm start`; BNG_UPGRADE_SIGNING_KEY
 * names another Ed25519 private key (PKCS #8 PEM), e.g. a deployment's.
 * Without a payload file the image is a small placeholder naming the version
 * (the twin installs no real software; the bytes only have to check out).
 */
import { readFileSync } from "node:fs";
import { dataDirOf } from "./config.ts";
import { loadUpgradeSigningKey } from "./state.ts";
import { importUpgradeSigningKey, signedPackage } from "../src/trust/package-signature.ts";
import { Version } from "../src/upgrade/package.ts";

const [version, payloadFile, notes] = process.argv.slice(2);
const checked = Version.safeParse(version);
if (!checked.success) {
  console.error(`usage: make-upgrade-package.ts <version> [payload-file] [notes]\n${version ?? "(no version)"}: ${checked.error.issues[0]?.message}`);
  process.exit(2);
}
const payload = payloadFile ? new Uint8Array(readFileSync(payloadFile)) : new TextEncoder().encode(`bngfleet ${checked.data} image\n`);
const pem = process.env.BNG_UPGRADE_SIGNING_KEY ? readFileSync(process.env.BNG_UPGRADE_SIGNING_KEY, "utf8") : (await loadUpgradeSigningKey(dataDirOf())).privatePem;
process.stdout.write(await signedPackage(checked.data, payload, await importUpgradeSigningKey(pem), notes));
