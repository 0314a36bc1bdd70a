/**
 * `bngfleet licence`: issues licences the fleet accepts, as the vendor's licensing service would: activation
 * tokens (online mode) and signed offline leases, keyed by the fleet secret (BNG_FLEET_SECRET, else the data dir's
 * fleet-secret, as `bngfleet start` made it). Nothing leaves the machine.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { instanceIdFor, licensingKey, mintActivationToken, signLease } from "../src/trust/licence.ts";
import { dataDirOf, UsageError, LaunchError } from "./config.ts";
import { parseCommand } from "./cli-args.ts";
import type { Product } from "./cli-args.ts";

const DAY_MS = 86_400_000;

export const LICENCE_USAGE = `Usage:
  bngfleet licence token --licence ID [--band NAME] [--max SESSIONS] [--contract-end UTC] \
[--renewal-days N] [--grace-days N]
  bngfleet licence lease --appliance NAME --licence ID [--band NAME] [--max SESSIONS] \
[--expires UTC] [--contract-end UTC] [--grace-days N]
  bngfleet licence instance --appliance NAME --licence ID

Issues what the vendor's licensing service would: an activation token (token), a signed offline lease
(lease, JSON), or an appliance's instance id (instance), keyed by the fleet secret (BNG_FLEET_SECRET, else
the data dir's fleet-secret). Times are the appliance's simulated UTC (GET /twin/v1/scenario shows it); by
default a contract ends in 365 days and a lease expires in 30.

Options:
  --data-dir DIR   the fleet's data dir (default .bngfleet/data) [BNG_DATA_DIR]
  --band NAME      the licence band (default S-2k); --max its session limit (default 2000)`;

async function fleetSecret(dataDir: string): Promise<string> {
  if (process.env.BNG_FLEET_SECRET) return process.env.BNG_FLEET_SECRET;
  const file = path.join(dataDir, "fleet-secret");
  try {
    return (await readFile(file, "utf8")).trim();
  } catch {
    throw new LaunchError(`no fleet secret: set BNG_FLEET_SECRET, or run bngfleet start once to create ${file}`);
  }
}

/** A whole number option, or a UsageError naming it. */
function count(name: string, text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`bngfleet licence: --${name} must be a whole number, not '${text}'`);
  return Number(text);
}

export async function licenceCommand(args: string[], product: Product): Promise<number> {
  const { positionals, values } = parseCommand("licence", {
    args,
    allowPositionals: true,
    options: {
      appliance: { type: "string" },
      licence: { type: "string" },
      band: { type: "string", default: "S-2k" },
      max: { type: "string", default: "2000" },
      expires: { type: "string" },
      "contract-end": { type: "string" },
      "renewal-days": { type: "string", default: "30" },
      "grace-days": { type: "string", default: "30" },
      "data-dir": { type: "string" },
    },
  });
  const command = positionals[0];
  if (positionals.length !== 1 || !["token", "lease", "instance"].includes(command ?? "")) {
    throw new UsageError("bngfleet licence: say token, lease or instance (see bngfleet licence --help)");
  }
  if (!values.licence) throw new UsageError(`bngfleet licence ${command} needs --licence`);
  const dataDir = dataDirOf(
    process.env,
    values["data-dir"] === undefined ? {} : { dataDir: values["data-dir"] },
    product.home,
  );
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  const contractEndUtc = values["contract-end"] ?? iso(now + 365 * DAY_MS);
  const bandMax = count("max", values.max);
  const graceDays = count("grace-days", values["grace-days"]);
  if (command === "instance" || command === "lease") {
    if (!values.appliance) throw new UsageError(`bngfleet licence ${command} needs --appliance`);
    const instanceId = await instanceIdFor(values.appliance, values.licence);
    if (command === "instance") return (console.log(instanceId), 0);
    const key = await licensingKey(await fleetSecret(dataDir));
    const lease = await signLease(key, {
      licenceId: values.licence,
      instanceId,
      bandName: values.band,
      bandMax,
      issuedUtc: iso(now),
      expiresAtUtc: values.expires ?? iso(Math.min(now + 30 * DAY_MS, Date.parse(contractEndUtc))),
      contractEndUtc,
      graceDays,
    });
    return (console.log(JSON.stringify(lease, null, 2)), 0);
  }
  const key = await licensingKey(await fleetSecret(dataDir));
  console.log(
    await mintActivationToken(key, {
      licenceId: values.licence,
      bandName: values.band,
      bandMax,
      contractEndUtc,
      renewalDays: count("renewal-days", values["renewal-days"]),
      graceDays,
      issuedUtc: iso(now),
    }),
  );
  return 0;
}
