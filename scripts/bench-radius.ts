/**
 * npm run bench:radius — how fast one appliance brings sessions up through a real FreeRADIUS, and how many
 * accounting records it sustains: Debian's freeradius 3.2 on loopback over TCP (the e2e rig, configured as
 * docs/radius.md shows, every subscriber accepted), one appliance of the default profile (20,000 sessions) on a
 * manual clock, radius.requestsPerSecond at its ceiling (10,000) so the pacing is not what is measured.
 *
 * - Sessions per second: from a reseed (the data plane empty) to 95 % of the RADIUS subscribers online, the clock
 *   stepped 10 s at a time as fast as the API answers (each step applies the answers delivered so far), divided
 *   into the sessions up.
 * - Accounting records per second: a 30-minute advance (every session's Interim-Updates, and the Starts and Stops
 *   of its churn), records counted in FreeRADIUS's detail file until it stops growing for 2 s.
 * Wall-clock figures on a shared machine: the figure is the machine's, not a constant of the code.
 */
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fetchJson, freePortBase, launchFleet } from "./harness/fleet-process.ts";
import { startFreeRadius } from "./harness/freeradius.ts";

const PORT_BASE = await freePortBase(3);
const AUTH_PORT = PORT_BASE + 1;
const ACCT_PORT = PORT_BASE + 2;
const TOKEN = "bngtok_sry7GTQmxMhegnD7Rd7pg4aHvtB8Ci4ZEvLL";
const SECRET = "bench-radius-secret";
const PASSWORD = "cpe-password";

const radius = await startFreeRadius({
  authPort: AUTH_PORT,
  acctPort: ACCT_PORT,
  secret: SECRET,
  users: `DEFAULT	Cleartext-Password := "${PASSWORD}"\n`,
});
const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-bench-radius-"));
const fleetFile = path.join(dir, "fleet.json");
const appliance = {
  name: "edge-1",
  seed: 1,
  profile: "default",
  webUi: { listener: { address: "127.0.0.1", port: PORT_BASE } },
};
await writeFile(fleetFile, JSON.stringify({ portBase: PORT_BASE, appliances: [appliance] }));
const fleet = await launchFleet(
  { BNG_FLEET: fleetFile, BNG_BOOTSTRAP_TOKEN: TOKEN, BNG_FRESH: "1", BNG_CLOCK: "manual" },
  [PORT_BASE],
  undefined,
  120_000,
);
const api = (url: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${url}`, {
    insecure: true,
    headers: { authorization: `Bearer ${TOKEN}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });
const scenario = async (action: Record<string, unknown>) => {
  const done = await api("/twin/v1/scenario", action, "POST");
  if (done.status !== 200) throw new Error(`${JSON.stringify(action)}: ${done.status} ${done.text}`);
};
const online = async () => (await api("/api/v1/sessions?limit=1")).json<{ total: number }>().total;

try {
  const keys = (await api("/api/v1/config"))
    .json<{ lists: Record<string, { key: string }[]> }>()
    .lists["radius.servers"]!.map((i) => i.key);
  const server = `127.0.0.1:${AUTH_PORT}`;
  const put = await api(
    "/api/v1/config",
    {
      fields: { "radius.subscriberPassword": PASSWORD, "radius.requestsPerSecond": "10000" },
      listOps: [
        ...keys.map((key) => ({ listPath: "radius.servers", key, delete: true })),
        {
          listPath: "radius.servers",
          key: server,
          fields: { transport: "tcp", secret: SECRET, accountingPort: String(ACCT_PORT) },
        },
      ],
    },
    "PUT",
  );
  if (put.status !== 200) throw new Error(`config: ${put.status} ${put.text}`);

  await scenario({ action: "reseed", seed: 1 });
  const target = Math.floor(20_000 * 0.95);
  const began = performance.now();
  let steps = 0;
  while ((await online()) < target) {
    await scenario({ action: "advance-clock", seconds: 10 });
    steps++;
    if (performance.now() - began > 300_000) throw new Error(`only ${await online()} sessions after 300 s`);
  }
  const upSeconds = (performance.now() - began) / 1000;
  const up = await online();
  console.log(
    `sessions: ${up} up through FreeRADIUS in ${upSeconds.toFixed(1)} s (${steps} ` +
      `steps): ${(up / upSeconds).toFixed(0)} sessions/s`,
  );

  // Let the Starts of the bring-up land, then time a 30-minute advance's accounting.
  await settle();
  const before = await written();
  const started = performance.now();
  await scenario({ action: "advance-clock", seconds: 1800 });
  const { count, lastMs } = await settle();
  const records = count - before;
  const seconds = (lastMs - started) / 1000;
  console.log(
    `accounting: ${records} records written by FreeRADIUS in ${seconds.toFixed(1)} ` +
      `s: ${(records / seconds).toFixed(0)} records/s`,
  );
  const pool = (await api("/api/v1/radius/servers")).json<unknown>();
  console.log(JSON.stringify(pool));
} finally {
  await fleet.stop();
  await radius.stop();
}

/** Records in FreeRADIUS's detail file (one Acct-Status-Type line each), counted without parsing them. */
async function written(): Promise<number> {
  const text = await readFile(path.join(radius.dir, "radacct", "detail"), "utf8").catch(() => "");
  return text.split("\tAcct-Status-Type = ").length - 1;
}

/** Waits until FreeRADIUS's detail file stops growing for 2 s: its record count and when it last grew. */
async function settle(): Promise<{ count: number; lastMs: number }> {
  let count = await written();
  let lastMs = performance.now();
  while (performance.now() - lastMs < 2000) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = await written();
    if (now !== count) {
      count = now;
      lastMs = performance.now();
    }
  }
  return { count, lastMs };
}
