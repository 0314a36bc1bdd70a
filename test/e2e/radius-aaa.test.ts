/**
 * Real AAA through the launcher against Debian's FreeRADIUS 3.2 on loopback over TCP (RFC 6613), configured as
 * docs/radius.md shows: the appliance brings sessions up only for the subscribers FreeRADIUS accepts (the even
 * ones), and the others are rejected, counted and logged; FreeRADIUS's detail file holds an Accounting-On, a
 * Start for every RADIUS session the API shows, Interim-Updates at the interval and a Stop equal to the API's
 * session at the instant it ended; a FreeRADIUS stopped is a dead server in GET /radius/servers with its alarm,
 * started again it is alive; a wrong shared secret is found out and said.
 * The clock is manual (BNG_CLOCK=manual), so an instant the API shows stays put while the test reads it.
 * Expected values come from FreeRADIUS's users file, its detail file and log, and from the API.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { detailSeconds, startFreeRadius, type FreeRadius } from "../../scripts/harness/freeradius.ts";

const PORT_BASE = await freePortBase(3);
const AUTH_PORT = PORT_BASE + 1;
const ACCT_PORT = PORT_BASE + 2;
const BOOTSTRAP = "bngtok_sry7GTQmxMhegnD7Rd7pg4aHvtB8Ci4ZEvLL";
const SECRET = "fleet-radius-secret";
const CPE_PASSWORD = "cpe-password-1";
const SERVER = `127.0.0.1:${AUTH_PORT}`;
/** The even subscribers are FreeRADIUS's; the odd ones are refused with a Reply-Message. */
const USERS = `DEFAULT	User-Name =~ "^sub[0-9]*[02468]@", Cleartext-Password := "${CPE_PASSWORD}"
DEFAULT	Auth-Type := Reject
	Reply-Message = "not a subscriber here"
`;
const GIGAWORD = 2 ** 32;

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
  servers: {
    host: string;
    port: number;
    isDead: boolean;
    requestsSent: number;
    requestsByResult: { accept: number; reject: number; timeout: number };
    transport: string;
    lastFailureReason: string | null;
    accounting: {
      port: number;
      requestsByType: { start: number; interimUpdate: number; stop: number };
      responses: number;
    };
  }[];
  pacing: { requestsPerSecond: number; queued: number; notSentInTime: number } | null;
}
interface SessionRow {
  id: number;
  username: string;
  ipv4: string;
}
interface SessionDetail extends SessionRow {
  aaa: { method: string; server: string | null };
  uptimeSeconds: number;
  counters: { rxBytes: number; txBytes: number; rxPackets: number; txPackets: number };
}

const pool = async () => (await api("/api/v1/radius/servers")).json<Pool>();
const sessions = async (): Promise<SessionRow[]> => {
  const rows: SessionRow[] = [];
  for (;;) {
    const page = (await api(`/api/v1/sessions?limit=500&offset=${rows.length}`)).json<{
      total: number;
      items: SessionRow[];
    }>();
    rows.push(...page.items);
    if (rows.length >= page.total || page.items.length === 0) return rows;
  }
};
const logs = async (msgId: string) =>
  (await api("/api/v1/logs/tail?count=1000"))
    .json<{ entries: { msgId: string; fields: Record<string, unknown> }[] }>()
    .entries.filter((e) => e.msgId === msgId);
const activeAlarms = async () =>
  (await api("/api/v1/alarms")).json<{ active: { id: string; instance: string | null }[] }>().active;
const isEven = (username: string) => /^sub\d*[02468]@/.test(username);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Moves the manual clock: the answers delivered since the last step are applied, new setups ask. */
async function advance(seconds: number) {
  const done = await api("/twin/v1/scenario", { action: "advance-clock", seconds }, "POST");
  expect(done.status, done.text).toBe(200);
}

/** Steps 10 s at a time, a moment apart (the client's requests answered meanwhile), until `check` holds. */
async function stepUntil(check: () => Promise<boolean>, steps = 60) {
  for (let i = 0; i < steps; i++) {
    await advance(10);
    await sleep(700);
    if (await check()) return;
  }
  throw new Error(`not reached in ${steps} steps`);
}

/** Points the appliance at FreeRADIUS alone (the seeded simulated servers removed), with `secret`. */
async function useFreeRadius(secret: string) {
  const keys = (await api("/api/v1/config"))
    .json<{ lists: Record<string, { key: string }[]> }>()
    .lists["radius.servers"]!.map((i) => i.key);
  const put = await api(
    "/api/v1/config",
    {
      fields: { "radius.subscriberPassword": CPE_PASSWORD, "radius.requestsPerSecond": "1000" },
      listOps: [
        ...keys.filter((k) => k !== SERVER).map((key) => ({ listPath: "radius.servers", key, delete: true })),
        {
          listPath: "radius.servers",
          key: SERVER,
          fields: { transport: "tcp", secret, accountingPort: String(ACCT_PORT) },
        },
      ],
    },
    "PUT",
  );
  expect(put.status, put.text).toBe(200);
}

/** FreeRADIUS's accounting records of one Acct-Status-Type, by Acct-Session-Id (the last one written). */
async function accounting(status: string): Promise<Map<string, Record<string, string>>> {
  return new Map(
    (await radius.records()).filter((r) => r["Acct-Status-Type"] === status).map((r) => [r["Acct-Session-Id"]!, r]),
  );
}

beforeAll(async () => {
  radius = await startFreeRadius({ authPort: AUTH_PORT, acctPort: ACCT_PORT, secret: SECRET, users: USERS });
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-radius-"));
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(
    fleetFile,
    JSON.stringify({
      portBase: PORT_BASE,
      appliances: [
        {
          name: "edge-1",
          seed: 1001,
          profile: "small",
          webUi: { listener: { address: "127.0.0.1", port: PORT_BASE } },
        },
      ],
    }),
  );
  fleet = await launchFleet(
    { BNG_FLEET: fleetFile, BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1", BNG_CLOCK: "manual" },
    [PORT_BASE],
  );
  await useFreeRadius(SECRET);
  // The data plane starts again, empty: every RADIUS subscriber now comes up through FreeRADIUS.
  const reseed = await api("/twin/v1/scenario", { action: "reseed", seed: 1001 }, "POST");
  expect(reseed.status, reseed.text).toBe(200);
  await stepUntil(async () => (await sessions()).filter((s) => isEven(s.username)).length > 900);
}, 180_000);

afterAll(async () => {
  await radius?.stop();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("access through FreeRADIUS", () => {
  it("brings sessions up for the subscribers it accepts, and only for them", async () => {
    const rows = await sessions();
    // An even subscriber's session is FreeRADIUS's, or local (the profile authenticates 2 % from its own table).
    const evens = await Promise.all(
      rows
        .filter((s) => isEven(s.username))
        .slice(0, 20)
        .map(async (s) => (await api(`/api/v1/sessions/${s.id}`)).json<SessionDetail>().aaa),
    );
    expect(evens.filter((aaa) => aaa.method === "radius").length).toBeGreaterThan(15);
    for (const aaa of evens)
      expect([
        { method: "radius", server: SERVER },
        { method: "local", server: null },
      ]).toContainEqual(aaa);
    // The odd ones online are the locally authenticated (no RADIUS request).
    for (const row of rows.filter((s) => !isEven(s.username))) {
      expect((await api(`/api/v1/sessions/${row.id}`)).json<SessionDetail>().aaa.method).toBe("local");
    }
  });

  it(
    "refuses the others: counted by the pool as rejects, logged as access-reject, " + "and in FreeRADIUS's log",
    async () => {
      const status = await pool();
      expect(status.servers).toHaveLength(1);
      expect(status.servers[0]).toMatchObject({ host: "127.0.0.1", port: AUTH_PORT, transport: "tcp", isDead: false });
      expect(status.pacing?.requestsPerSecond).toBe(1000);
      expect(status.servers[0]!.requestsByResult.reject).toBeGreaterThan(100);
      // The pool's counts are the client's as of the last step (a step behind the sessions listed).
      expect(status.servers[0]!.requestsByResult.accept).toBeGreaterThan(800);
      const rejects = await logs("aaa.reject");
      expect(rejects.length).toBeGreaterThan(0);
      expect(
        rejects.every(
          (e) =>
            e.fields.reason === "access-reject" && e.fields.server === SERVER && !isEven(String(e.fields.username)),
        ),
      ).toBe(true);
      const log = await radius.log();
      expect(log).toMatch(/Login incorrect.*\[sub\d*[13579]@/);
      expect(log).toMatch(/Login OK: \[sub\d*[02468]@/);
    },
  );
});

describe("accounting to FreeRADIUS", () => {
  it("says Accounting-On as the appliance starts with no session", async () => {
    const on = (await radius.records()).filter((r) => r["Acct-Status-Type"] === "Accounting-On");
    expect(on.length).toBeGreaterThanOrEqual(1);
    expect(on[0]).toMatchObject({ "NAS-Identifier": "edge-1" });
  });

  it("holds a Start for every RADIUS session the API shows, with its address, user, line and instant", async () => {
    const rows = (await sessions()).filter((s) => isEven(s.username));
    // Every one of them but the locally authenticated (which send nothing) has its Start.
    const missing = async () => {
      const starts = await accounting("Start");
      return rows.filter((s) => !starts.has(String(s.id)));
    };
    await expect
      .poll(async () => (await missing()).length <= rows.length * 0.05, { timeout: 30_000, interval: 1000 })
      .toBe(true);
    for (const row of await missing())
      expect((await api(`/api/v1/sessions/${row.id}`)).json<SessionDetail>().aaa.method).toBe("local");
    const starts = await accounting("Start");
    for (const row of rows.filter((s) => starts.has(String(s.id)))) {
      const start = starts.get(String(row.id))!;
      expect(start["User-Name"]).toBe(row.username);
      expect(start["Framed-IP-Address"]).toBe(row.ipv4);
      expect(start["NAS-Identifier"]).toBe("edge-1");
      expect(start["Acct-Authentic"]).toBe("RADIUS");
    }
    const one = (await api(`/api/v1/sessions/${rows.find((s) => starts.has(String(s.id)))!.id}`)).json<
      SessionDetail & { mac: string; startedUtc: string }
    >();
    const start = starts.get(String(one.id))!;
    // An LNS-terminated session has no MAC in the API (empty) and sends no Calling-Station-Id.
    expect(start["Calling-Station-Id"] ?? "").toBe(one.mac);
    expect(detailSeconds(start["Event-Timestamp"]!)).toBe(Date.parse(one.startedUtc) / 1000);
  }, 60_000);

  it("sends each session's Interim-Updates every 600 to 900 s (aaa.interimSeconds and its jitter)", async () => {
    const before = (await sessions()).filter((s) => isEven(s.username)).map((s) => String(s.id));
    await advance(1800);
    await sleep(1000);
    const online = new Set((await sessions()).map((s) => String(s.id)));
    // The RADIUS sessions online throughout (the locally authenticated send no accounting).
    const started = await accounting("Start");
    const kept = before.filter((id) => online.has(id) && started.has(id));
    expect(kept.length).toBeGreaterThan(500);
    const records = async () => (await radius.records()).filter((r) => r["Acct-Status-Type"] === "Interim-Update");
    await expect
      .poll(async () => new Set((await records()).map((r) => r["Acct-Session-Id"])).size, {
        timeout: 60_000,
        interval: 1000,
      })
      .toBeGreaterThanOrEqual(kept.length);
    const all = await radius.records();
    for (const id of kept.slice(0, 200)) {
      const times = all
        .filter((r) => r["Acct-Session-Id"] === id && r["Acct-Status-Type"] !== "Stop")
        .map((r) => detailSeconds(r["Event-Timestamp"]!));
      expect(times.length, `session ${id}`).toBeGreaterThanOrEqual(2);
      for (let k = 1; k < times.length; k++) {
        expect(times[k]! - times[k - 1]!, `session ${id}`).toBeGreaterThanOrEqual(600);
        expect(times[k]! - times[k - 1]!, `session ${id}`).toBeLessThanOrEqual(900);
      }
    }
  }, 120_000);

  it("ends with a Stop equal to GET /sessions/{id} at the instant of DELETE: octets " +
    "with Gigawords, packets, time, Admin-Reset", async () => {
    const rows = (await sessions()).filter((s) => isEven(s.username)).slice(0, 5);
    const seen: SessionDetail[] = [];
    for (const row of rows) {
      const detail = (await api(`/api/v1/sessions/${row.id}`)).json<SessionDetail>();
      if (detail.aaa.method !== "radius") continue;
      seen.push(detail);
      expect((await api(`/api/v1/sessions/${row.id}`, undefined, "DELETE")).status).toBe(200);
    }
    expect(seen.length).toBeGreaterThan(0);
    await expect
      .poll(
        async () => {
          const stops = await accounting("Stop");
          return seen.filter((s) => !stops.has(String(s.id))).length;
        },
        { timeout: 30_000 },
      )
      .toBe(0);
    const stops = await accounting("Stop");
    for (const session of seen) {
      const stop = stops.get(String(session.id))!;
      const octets = (name: "Input" | "Output") =>
        Number(stop[`Acct-${name}-Gigawords`] ?? 0) * GIGAWORD + Number(stop[`Acct-${name}-Octets`]);
      expect({
        user: stop["User-Name"],
        ip: stop["Framed-IP-Address"],
        input: octets("Input"),
        output: octets("Output"),
        inputPackets: Number(stop["Acct-Input-Packets"]),
        outputPackets: Number(stop["Acct-Output-Packets"]),
        time: Number(stop["Acct-Session-Time"]),
        cause: stop["Acct-Terminate-Cause"],
      }).toEqual({
        user: session.username,
        ip: session.ipv4,
        input: session.counters.rxBytes,
        output: session.counters.txBytes,
        inputPackets: session.counters.rxPackets,
        outputPackets: session.counters.txPackets,
        time: session.uptimeSeconds,
        cause: "Admin-Reset",
      });
    }
  }, 60_000);
});

describe("the server's health", () => {
  it("is dead when FreeRADIUS stops, with its alarm, and alive when it is back", async () => {
    await radius.stop();
    await stepUntil(async () => (await pool()).servers[0]?.isDead === true);
    const dead = await pool();
    expect(dead).toMatchObject({ liveServers: 0, deadServers: 1 });
    expect(dead.servers[0]!.lastFailureReason).toMatch(/connect-failed|closed/);
    await stepUntil(
      async () => (await activeAlarms()).some((a) => a.id === "radius.server.dead" && a.instance === SERVER),
      10,
    );
    await radius.start();
    await stepUntil(async () => (await pool()).servers[0]?.isDead === false);
    expect((await logs("radius.server.alive")).some((e) => e.fields.server === SERVER)).toBe(true);
  }, 180_000);

  it("finds out a wrong shared secret: FreeRADIUS drops what it signed, and the server reads so", async () => {
    await useFreeRadius("not-the-fleet-secret");
    await stepUntil(async () => (await pool()).servers[0]?.isDead === true);
    expect((await pool()).servers[0]!.lastFailureReason).toBe("secret-mismatch");
    await expect.poll(() => radius.log(), { timeout: 10_000 }).toMatch(/Shared secret is incorrect/);
    const dead = (await logs("radius.server.dead")).at(-1);
    expect(dead?.fields).toMatchObject({ server: SERVER, reason: "secret-mismatch" });
  }, 120_000);
});
