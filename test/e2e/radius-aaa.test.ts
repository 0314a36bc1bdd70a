/**
 * Real AAA through the launcher against Debian's FreeRADIUS 3.2 on loopback over TCP (RFC 6613), configured as
 * docs/radius.md shows: the appliance brings sessions up only for the subscribers FreeRADIUS accepts (the even
 * ones), and the others are rejected, counted and logged; a FreeRADIUS stopped is a dead server in
 * GET /radius/servers with its alarm, started again it is alive; a wrong shared secret is found out and said.
 * Expected values come from FreeRADIUS's users file and its own log, and from the API.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "./launcher.ts";
import { startFreeRadius, type FreeRadius } from "./freeradius.ts";

const PORT_BASE = await freePortBase(3);
const AUTH_PORT = PORT_BASE + 1;
const ACCT_PORT = PORT_BASE + 2;
const BOOTSTRAP = "bngtok_sry7GTQmxMhegnD7Rd7pg4aHvtB8Ci4ZEvLL";
const SECRET = "fleet-radius-secret";
const CPE_PASSWORD = "cpe-password-1";
const SERVER = `127.0.0.1:${AUTH_PORT}`;
/** The even subscribers are FreeRADIUS's; the odd ones are refused with a Reply-Message. */
const USERS = `DEFAULT	User-Name =~ "^sub[0-9]*[02468]@", Cleartext-Password := "${CPE_PASSWORD}"
	Acct-Interim-Interval = 60
DEFAULT	Auth-Type := Reject
	Reply-Message = "not a subscriber here"
`;

let fleet: RunningFleet;
let radius: FreeRadius;

const api = (url: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${url}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });

interface Pool {
  liveServers: number;
  deadServers: number;
  servers: { host: string; port: number; isDead: boolean; requestsSent: number; requestsByResult: { accept: number; reject: number; timeout: number }; transport: string; lastFailureReason: string | null }[];
  pacing: { requestsPerSecond: number; queued: number; notSentInTime: number } | null;
}
interface SessionRow {
  id: number;
  username: string;
}

const pool = async () => (await api("/api/v1/radius/servers")).json<Pool>();
const sessions = async (): Promise<SessionRow[]> => {
  const rows: SessionRow[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = (await api(`/api/v1/sessions?limit=1000&offset=${offset}`)).json<{ total: number; items: SessionRow[] }>();
    rows.push(...page.items);
    if (rows.length >= page.total || page.items.length === 0) return rows;
  }
};
const logs = async (msgId: string) =>
  (await api("/api/v1/logs/tail?count=1000")).json<{ entries: { msgId: string; fields: Record<string, unknown> }[] }>().entries.filter((e) => e.msgId === msgId);
const activeAlarms = async () => (await api("/api/v1/alarms")).json<{ active: { id: string; instance: string | null }[] }>().active;
const isEven = (username: string) => /^sub\d*[02468]@/.test(username);

/** Points the appliance at FreeRADIUS alone (the seeded simulated servers removed), with `secret`. */
async function useFreeRadius(secret: string) {
  const keys = (await api("/api/v1/config")).json<{ lists: Record<string, { key: string }[]> }>().lists["radius.servers"]!.map((i) => i.key);
  const put = await api(
    "/api/v1/config",
    {
      fields: { "radius.subscriberPassword": CPE_PASSWORD },
      listOps: [
        ...keys.filter((k) => k !== SERVER).map((key) => ({ listPath: "radius.servers", key, delete: true })),
        { listPath: "radius.servers", key: SERVER, fields: { transport: "tcp", secret, accountingPort: String(ACCT_PORT) } },
      ],
    },
    "PUT",
  );
  expect(put.status, put.text).toBe(200);
}

beforeAll(async () => {
  radius = await startFreeRadius({ authPort: AUTH_PORT, acctPort: ACCT_PORT, secret: SECRET, users: USERS });
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-radius-"));
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(
    fleetFile,
    JSON.stringify({ portBase: PORT_BASE, appliances: [{ name: "edge-1", seed: 1001, profile: "small", webUi: { listener: { address: "127.0.0.1", port: PORT_BASE } } }] }),
  );
  fleet = await launchFleet({ BNG_FLEET: fleetFile, BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" }, [PORT_BASE]);
  await useFreeRadius(SECRET);
  // The data plane starts again, empty: every RADIUS subscriber now comes up through FreeRADIUS.
  const reseed = await api("/twin/v1/scenario", { action: "reseed", seed: 1001 }, "POST");
  expect(reseed.status, reseed.text).toBe(200);
}, 120_000);

afterAll(async () => {
  await radius?.stop();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("sessions through FreeRADIUS", () => {
  it("come up for the subscribers it accepts, and only for them", async () => {
    await expect.poll(async () => (await sessions()).filter((s) => isEven(s.username)).length, { timeout: 60_000, interval: 2000 }).toBeGreaterThan(500);
    const rows = await sessions();
    const detail = (await api(`/api/v1/sessions/${rows.find((s) => isEven(s.username))!.id}`)).json<{ aaa: { method: string; server: string } }>();
    expect(detail.aaa).toEqual({ method: "radius", server: SERVER });
    // The odd ones online are the locally authenticated (no RADIUS request).
    for (const row of rows.filter((s) => !isEven(s.username))) {
      expect((await api(`/api/v1/sessions/${row.id}`)).json<{ aaa: { method: string } }>().aaa.method).toBe("local");
    }
  }, 90_000);

  it("refuses the others: counted by the pool as rejects, logged as access-reject, and in FreeRADIUS's log", async () => {
    const status = await pool();
    expect(status.servers).toHaveLength(1);
    expect(status.servers[0]).toMatchObject({ host: "127.0.0.1", port: AUTH_PORT, transport: "tcp", isDead: false });
    expect(status.servers[0]!.requestsByResult.reject).toBeGreaterThan(100);
    expect(status.servers[0]!.requestsByResult.accept).toBeGreaterThan(500);
    const rejects = await logs("aaa.reject");
    expect(rejects.length).toBeGreaterThan(0);
    expect(rejects.every((e) => e.fields.reason === "access-reject" && e.fields.server === SERVER && !isEven(String(e.fields.username)))).toBe(true);
    const log = await radius.log();
    expect(log).toMatch(/Login incorrect.*\[sub\d*[13579]@/);
    expect(log).toMatch(/Login OK: \[sub\d*[02468]@/);
  });

  it("marks the server dead when FreeRADIUS stops, with its alarm, and alive when it is back", async () => {
    await radius.stop();
    await expect.poll(async () => (await pool()).servers[0]?.isDead, { timeout: 60_000, interval: 1000 }).toBe(true);
    const dead = await pool();
    expect(dead).toMatchObject({ liveServers: 0, deadServers: 1 });
    expect(dead.servers[0]!.lastFailureReason).toMatch(/connect-failed|closed/);
    await expect.poll(async () => (await activeAlarms()).map((a) => `${a.id} ${a.instance}`), { timeout: 30_000, interval: 1000 }).toContain(`radius.server.dead ${SERVER}`);
    await radius.start();
    await expect.poll(async () => (await pool()).servers[0]?.isDead, { timeout: 60_000, interval: 1000 }).toBe(false);
    expect((await logs("radius.server.alive")).some((e) => e.fields.server === SERVER)).toBe(true);
  }, 150_000);

  it("finds out a wrong shared secret: FreeRADIUS drops what it signed, and the server reads so", async () => {
    await useFreeRadius("not-the-fleet-secret");
    await expect.poll(async () => (await pool()).servers[0]?.isDead, { timeout: 60_000, interval: 1000 }).toBe(true);
    const status = await pool();
    expect(status.servers[0]!.lastFailureReason).toBe("timeout");
    await expect.poll(() => radius.log(), { timeout: 10_000 }).toMatch(/invalid Message-Authenticator!\s+\(Shared secret is incorrect\.\)/);
    const dead = (await logs("radius.server.dead")).at(-1);
    expect(dead?.fields).toMatchObject({ server: SERVER, reason: "timeout" });
  }, 90_000);
});
