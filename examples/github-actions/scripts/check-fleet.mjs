/**
 * What an integration's own checks would do: read the fleet `bngfleet start --json` described, and ask every
 * appliance for its status with the fleet's super-user token.
 */
import { readFileSync } from "node:fs";

const { appliances, token } = JSON.parse(readFileSync(process.argv[2] ?? "fleet.json", "utf8"));
for (const { name, url } of appliances) {
  const response = await fetch(`${url}/api/v1/system/status`, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${name}: GET /system/status answered ${response.status}`);
  const status = await response.json();
  console.log(`${name}: ${status.controlPlane.state}, software ${status.softwareVersion}`);
}
