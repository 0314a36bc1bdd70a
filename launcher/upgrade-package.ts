/**
 * `bngfleet upgrade-package`: builds a software package for POST /api/v1/system/upgrade/stage, signed with the data
 * dir's development vendor key (the local fleet's appliances hold its public half; created on first use, as
 * `bngfleet start` does), and writes it to stdout or --out. Without a payload file the image is a small placeholder
 * naming the version (the twin installs no real software; the bytes only have to check out).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { dataDirOf, UsageError } from "./config.ts";
import { loadUpgradeSigningKey } from "./state.ts";
import { importUpgradeSigningKey, signedPackage } from "../src/trust/package-signature.ts";
import { Version } from "../src/upgrade/package.ts";
import { parseCommand } from "./cli-args.ts";
import type { Product } from "./cli-args.ts";

export const UPGRADE_PACKAGE_USAGE = `\
Usage: bngfleet upgrade-package VERSION [PAYLOAD-FILE] [NOTES] [--out FILE] [--data-dir DIR]

Makes a software package (for POST /api/v1/system/upgrade/stage) of VERSION, signed with the fleet's
development vendor key, so the fleet's appliances stage it:

  bngfleet upgrade-package 0.2.0 > bngfleet-0.2.0.bngpkg

Options:
  --out FILE       write the package here instead of stdout
  --data-dir DIR   the fleet's data dir, whose key signs (default .bngfleet/data) [BNG_DATA_DIR]
  BNG_UPGRADE_SIGNING_KEY names another Ed25519 private key (PKCS #8 PEM), e.g. a deployment's.`;

export async function upgradePackageCommand(args: string[], product: Product): Promise<number> {
  const { positionals, values } = parseCommand("upgrade-package", {
    args,
    allowPositionals: true,
    options: { out: { type: "string" }, "data-dir": { type: "string" } },
  });
  const [version, payloadFile, notes, extra] = positionals;
  if (extra !== undefined)
    throw new UsageError(`bngfleet upgrade-package takes at most VERSION, PAYLOAD-FILE and NOTES, not '${extra}'`);
  const checked = Version.safeParse(version);
  if (!checked.success)
    throw new UsageError(
      `bngfleet upgrade-package: ` +
        `VERSION ${version === undefined ? "is missing" : `'${version}'`}: ${checked.error.issues[0]?.message}`,
    );
  const payload = payloadFile
    ? new Uint8Array(readFileSync(payloadFile))
    : new TextEncoder().encode(`bngfleet ${checked.data} image\n`);
  const dataDir = dataDirOf(
    process.env,
    values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] },
    product.home,
  );
  const pem = process.env.BNG_UPGRADE_SIGNING_KEY
    ? readFileSync(process.env.BNG_UPGRADE_SIGNING_KEY, "utf8")
    : (await loadUpgradeSigningKey(dataDir)).privatePem;
  const bytes = await signedPackage(checked.data, payload, await importUpgradeSigningKey(pem), notes);
  if (values.out) writeFileSync(values.out, bytes);
  else process.stdout.write(bytes);
  return 0;
}
