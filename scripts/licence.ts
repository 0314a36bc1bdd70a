/**
 * Issues licences the fleet accepts, as the vendor's licensing service would:
 * activation tokens (online mode) and signed offline leases, keyed by the
 * fleet secret (BNG_FLEET_SECRET, else <BNG_DATA_DIR>/fleet-secret as
 * `npm start` generated it). Nothing leaves the machine.
 *
 *   npm run -s licence -- token --licence LIC-1 --band S-2k --max 2000 [--contract-end <utc>] [--renewal-days 30] [--grace-days 30]
 *   npm run -s licence -- lease --appliance edge-1 --licence LIC-1 --band S-2k --max 2000 [--expires <utc>] [--contract-end <utc>] [--grace-days 30]
 *   npm run -s licence -- instance --appliance edge-1 --licence LIC-1
 *
 * Times are the appliance's simulated UTC (GET /twin/v1/scenario shows it);
 * by default a contract ends in 365 days and a lease expires in 30.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { instanceIdFor, licensingKey, mintActivationToken, signLease } from "../src/trust/licence.ts";

const DAY_MS = 86_400_000;
const usage = "usage: licence token|lease|instance --licence <id> [--appliance <name>] [--band <name>] [--max <sessions>] [--expires <utc>] [--contract-end <utc>] [--renewal-days <n>] [--grace-days <n>]";

async function fleetSecret(): Promise<string> {
  if (process.env.BNG_FLEET_SECRET) return process.env.BNG_FLEET_SECRET;
  const dataDir = process.env.BNG_DATA_DIR ? path.resolve(process.env.BNG_DATA_DIR) : path.join(import.meta.dirname, "..", ".bngfleet", "data");
  try {
    return (await readFile(path.join(dataDir, "fleet-secret"), "utf8")).trim();
  } catch {
    throw new Error(`no fleet secret: set BNG_FLEET_SECRET, or run npm start once to create ${path.join(dataDir, "fleet-secret")}`);
  }
}

async function main(): Promise<void> {
  const { positionals, values } = parseArgs({
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
    },
  });
  const command = positionals[0];
  if (!values.licence || !["token", "lease", "instance"].includes(command ?? "")) throw new Error(usage);
  const now = Date.now();
  const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  const contractEndUtc = values["contract-end"] ?? iso(now + 365 * DAY_MS);
  if (command === "instance" || command === "lease") {
    if (!values.appliance) throw new Error(`${command} needs --appliance`);
    const instanceId = await instanceIdFor(values.appliance, values.licence);
    if (command === "instance") return console.log(instanceId);
    const key = await licensingKey(await fleetSecret());
    const lease = await signLease(key, {
      licenceId: values.licence,
      instanceId,
      bandName: values.band,
      bandMax: Number(values.max),
      issuedUtc: iso(now),
      expiresAtUtc: values.expires ?? iso(Math.min(now + 30 * DAY_MS, Date.parse(contractEndUtc))),
      contractEndUtc,
      graceDays: Number(values["grace-days"]),
    });
    return console.log(JSON.stringify(lease, null, 2));
  }
  const key = await licensingKey(await fleetSecret());
  console.log(
    await mintActivationToken(key, {
      licenceId: values.licence,
      bandName: values.band,
      bandMax: Number(values.max),
      contractEndUtc,
      renewalDays: Number(values["renewal-days"]),
      graceDays: Number(values["grace-days"]),
      issuedUtc: iso(now),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
