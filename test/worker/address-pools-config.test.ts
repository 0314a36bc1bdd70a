import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type {
  AddressPool,
  AddressPoolAllocation,
  AddressPoolAllocationsPage,
} from "../../src/schemas/address-pools.ts";
import type { RadiusPoolStatus } from "../../src/schemas/radius.ts";
import type { AlarmsResponse } from "../../src/schemas/alarms.ts";
import type { SessionDetail, SessionList, SessionSummaryCounts } from "../../src/schemas/sessions.ts";
import { call, json } from "./client.ts";
import {
  admin,
  commit,
  getConfig,
  history,
  itemOf,
  logEntries,
  pointersOf,
  putConfig,
  rejection,
} from "./config-client.ts";
import { advance, get, scenario } from "./helpers.ts";

type Pool = z.output<typeof AddressPool>;
type Allocation = z.output<typeof AddressPoolAllocation>;
type Detail = z.output<typeof SessionDetail>;
type Radius = z.output<typeof RadiusPoolStatus>;

const LIST = "addressPools";
const V4 = "residential-v4";
const pools = () => get<Pool[]>("/api/v1/address-pools");
const poolNamed = async (name: string) => (await pools()).find((p) => p.name === name);
const setPool = (key: string, fields: Record<string, string | null>, comment?: string) => ({
  listOps: [{ listPath: LIST, key, fields }],
  ...(comment ? { comment } : {}),
});

/** Every allocation of a pool, paging through it. */
async function allocations(pool: string): Promise<Allocation[]> {
  const out: Allocation[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = await get<z.output<typeof AddressPoolAllocationsPage>>(
      `/api/v1/address-pools/${pool}/allocations?offset=${offset}&limit=1000`,
    );
    out.push(...page.items);
    if (page.items.length < 1000) return out;
  }
}

/** The pools' invariants, read through the API at one instant (the clock is manual). */
async function expectPoolsConsistent(): Promise<void> {
  for (const pool of await pools()) {
    expect(pool.used + pool.free, pool.name).toBe(pool.size);
    expect(
      pool.subnets.reduce((n, s) => n + s.size, 0),
      pool.name,
    ).toBe(pool.size);
    expect(
      pool.subnets.reduce((n, s) => n + s.used, 0),
      pool.name,
    ).toBe(pool.used);
    const page = await get<z.output<typeof AddressPoolAllocationsPage>>(
      `/api/v1/address-pools/${pool.name}/allocations?limit=1`,
    );
    expect(page.total, pool.name).toBe(pool.used);
  }
}

/** A local IPoE subscriber with a static address, written through PUT /config. */
const localLine = (framedIp: string) => ({
  listOps: [
    {
      listPath: "subscribers.local.ipoe",
      key: "1:3000:7",
      fields: { port: "1", sVlan: "3000", vlan: "7", framedIp, planName: "fibre-100" },
    },
  ],
});
const localSession = async () => get<Detail>("/api/v1/subscribers/local/ipoe/1:3000:7/session");

describe("addressPools configuration", () => {
  it("is seeded from the profile's pools, announce written after the prefix", async () => {
    const config = await getConfig();
    expect(config.lists[LIST]?.map((i) => i.key)).toEqual((await pools()).map((p) => p.name));
    expect(itemOf(config, LIST, V4)?.values).toEqual({
      family: "ipv4",
      vrf: null,
      delegationLength: "32",
      description: "public IPv4 for residential subscribers",
      subnets: "198.18.0.0/22 announce\n198.18.4.0/23 announce",
      exclude: "198.18.0.1/32\n198.18.4.1/32",
    });
    expect(itemOf(config, LIST, "cgn-inside-v4")?.values).toMatchObject({
      vrf: "cgn-inside",
      subnets: "100.64.0.0/20",
    });
  });

  describe("growing a pool", () => {
    it(
      "adds the subnet's blocks to size and free at once, records the commit, and the " + "pool hands them out",
      async () => {
        const before = (await poolNamed(V4))!;
        const result = await commit(
          setPool(
            V4,
            { subnets: "198.18.0.0/22 announce\n198.18.4.0/23 announce\n198.18.8.0/22" },
            "more residential space",
          ),
        );
        expect(result).toMatchObject({ restartRequired: false, changedPaths: [`#/lists/${LIST}/${V4}/subnets`] });
        const grown = (await poolNamed(V4))!;
        expect(grown.size).toBe(before.size + 1024);
        expect(grown.free).toBe(before.free + 1024);
        expect(grown.subnets.at(-1)).toEqual({
          prefix: "198.18.8.0/22",
          announce: false,
          size: 1024,
          used: 0,
          free: 1024,
          offered: 0,
          quarantined: 0,
        });
        const entry = (await history()).items[0]!;
        expect(entry).toMatchObject({ operation: "config", comment: "more residential space", restartRequired: false });
        expect(entry.changes).toEqual([
          {
            pointer: `#/lists/${LIST}/${V4}/subnets`,
            before: "198.18.0.0/22 announce\n198.18.4.0/23 announce",
            after: "198.18.0.0/22 announce\n198.18.4.0/23 announce\n198.18.8.0/22",
          },
        ]);
        expect((await logEntries("pool.reconfigured")).map((e) => e.fields)).toEqual([
          { pool: V4, change: "changed", size: before.size + 1024, subnets: 3, disconnected: 0 },
        ]);
        await scenario({ action: "fill-pool", pool: V4, percent: 100 });
        expect((await allocations(V4)).some((a) => a.prefix.startsWith("198.18.8."))).toBe(true);
        await expectPoolsConsistent();
      },
    );

    it("still runs the grown pool after a restart", async () => {
      await commit(setPool(V4, { subnets: "198.18.0.0/22 announce\n198.18.4.0/23 announce\n198.18.8.0/22" }));
      await advance(600);
      await abortAllDurableObjects();
      expect((await poolNamed(V4))!.subnets.map((s) => s.prefix)).toEqual([
        "198.18.0.0/22",
        "198.18.4.0/23",
        "198.18.8.0/22",
      ]);
      await expectPoolsConsistent();
    });

    it("creates a pool that AAA hands out in its VRF", async () => {
      await commit({
        listOps: [
          {
            listPath: LIST,
            key: "wholesale-v4-b",
            fields: {
              family: "ipv4",
              vrf: "wholesale",
              subnets: "10.129.0.0/22",
              description: "second wholesale pool",
            },
          },
        ],
      });
      expect(await poolNamed("wholesale-v4-b")).toMatchObject({
        family: "ipv4",
        vrf: "wholesale",
        delegationLength: 32,
        size: 1024,
        used: 0,
        exclude: [],
      });
      await scenario({ action: "set-churn-multiplier", multiplier: 20 });
      await advance(1800);
      expect((await poolNamed("wholesale-v4-b"))!.used).toBeGreaterThan(0);
      await expectPoolsConsistent();
    });
  });

  describe("shrinking a pool", () => {
    it("disconnects the dynamic sessions of a removed subnet and keeps its static allocations", async () => {
      await advance(1800);
      await commit(localLine("198.18.3.200"));
      await advance(10);
      const local = await localSession();
      expect(local.addresses.ipv4).toEqual({
        address: "198.18.3.200",
        pool: V4,
        subnet: "198.18.0.0/22",
        cgnTranslated: false,
        learned: false,
      });
      const inFirst = (await allocations(V4)).filter((a) => a.kind === "dynamic" && Number(a.prefix.split(".")[2]) < 4);
      expect(inFirst.length).toBeGreaterThan(500);

      await commit(setPool(V4, { subnets: "198.18.4.0/23 announce", exclude: "198.18.4.1/32" }));
      const shrunk = (await poolNamed(V4))!;
      expect(shrunk.subnets.map((s) => s.prefix)).toEqual(["198.18.4.0/23"]);
      expect(shrunk.exclude).toEqual(["198.18.4.1/32"]);
      for (const { sessionId } of inFirst.slice(0, 20))
        expect((await call(`/api/v1/sessions/${sessionId}`, { headers: admin })).status).toBe(404);
      // The static allocation is kept: the same session, the same address, now outside the pools.
      const kept = await localSession();
      expect(kept.id).toBe(local.id);
      expect(kept.addresses.ipv4).toMatchObject({ address: "198.18.3.200", pool: null, subnet: null });
      expect((await allocations(V4)).filter((a) => a.static)).toEqual([]);
      expect((await logEntries("pool.reconfigured")).at(-1)?.fields).toMatchObject({
        pool: V4,
        change: "changed",
        disconnected: inFirst.length,
      });
      await expectPoolsConsistent();

      // The subscribers reconnect from the subnet left; the static address is never handed out meanwhile. No churn
      // meanwhile: a departure may pick any live session, the local one too, and the clock starts at the wall
      // clock's time, so whether it did varied with the hour the suite ran (it reconnects with a new session id).
      await scenario({ action: "set-churn-multiplier", multiplier: 0 });
      await advance(600);
      expect((await poolNamed(V4))!.used).toBeGreaterThan(400);
      await expectPoolsConsistent();
      // Put back, the subnet holds the static address again before anything is offered from it.
      await commit(
        setPool(V4, {
          subnets: "198.18.0.0/22 announce\n198.18.4.0/23 announce",
          exclude: "198.18.0.1/32\n198.18.4.1/32",
        }),
      );
      expect((await allocations(V4)).filter((a) => a.static).map((a) => [a.prefix, a.sessionId])).toEqual([
        ["198.18.0.10", 0],
        ["198.18.0.11", 0],
        ["198.18.3.200", local.id],
      ]);
      await expectPoolsConsistent();
    });

    it("disconnects a deleted pool's sessions and stops listing it", async () => {
      await advance(1800);
      const pd = (await poolNamed("residential-v6-pd"))!;
      expect(pd.used).toBeGreaterThan(0);
      await commit({ listOps: [{ listPath: LIST, key: "residential-v6-pd", delete: true }] });
      expect((await pools()).map((p) => p.name)).not.toContain("residential-v6-pd");
      expect((await call("/api/v1/address-pools/residential-v6-pd/allocations", { headers: admin })).status).toBe(404);
      expect((await logEntries("pool.reconfigured")).at(-1)?.fields).toMatchObject({
        pool: "residential-v6-pd",
        change: "removed",
        size: 0,
        disconnected: pd.used,
      });
      await expectPoolsConsistent();
    });
  });

  it("leaves a VRF without an IPv4 pool when its last one is deleted: its subscribers cannot come up", async () => {
    await advance(1800);
    const held = (await poolNamed("wholesale-v4"))!.used;
    await commit({ listOps: [{ listPath: LIST, key: "wholesale-v4", delete: true }] });
    // The LNS-terminated sessions held its addresses; a LAC's come from their LNS and stay up.
    expect((await get<SessionList>("/api/v1/sessions?vrf=wholesale&encap=l2tp&limit=1")).total).toBe(0);
    expect((await get<SessionSummaryCounts>("/api/v1/sessions/summary")).byVrf.wholesale ?? 0).toBeGreaterThan(0);
    expect((await logEntries("pool.reconfigured")).at(-1)?.fields).toMatchObject({
      pool: "wholesale-v4",
      change: "removed",
      disconnected: held,
    });
    await advance(60);
    const failed = (await logEntries("session.setup-failed")).map((e) => e.fields.reason);
    expect(failed).toContain("no-pool");
    await expectPoolsConsistent();
  });

  describe("validation", () => {
    it("answers 422 listing every rejected field, and changes nothing", async () => {
      const before = await pools();
      const errors = await rejection(
        await putConfig({
          listOps: [
            {
              listPath: LIST,
              key: V4,
              fields: { family: "ipv6-pd", exclude: "198.18.0.1/32\n198.18.4.1/32\n203.0.113.1" },
            },
            {
              listPath: LIST,
              key: "residential-v6-wan",
              fields: { subnets: "2001:db8:100::/48 announce\n2001:db8:4000::/48" },
            },
            { listPath: LIST, key: "cgn-v6-pd", fields: { delegationLength: "40" } },
            { listPath: LIST, key: "wholesale-v4", fields: { subnets: "10.128.0.0/22 announced" } },
            { listPath: LIST, key: "new-wan", fields: { family: "ipv6-wan", subnets: "198.51.100.0/24" } },
            { listPath: LIST, key: "new-pd", fields: { family: "ipv6-pd", subnets: "2001:db8:7000::/44" } },
          ],
        }),
      );
      expect(pointersOf(errors)).toEqual([
        `#/lists/${LIST}/cgn-v6-pd/delegationLength`,
        `#/lists/${LIST}/new-pd/delegationLength`,
        `#/lists/${LIST}/new-wan/subnets`,
        `#/lists/${LIST}/residential-v4/exclude`,
        `#/lists/${LIST}/residential-v4/family`,
        `#/lists/${LIST}/residential-v6-wan/subnets`,
        `#/lists/${LIST}/wholesale-v4/subnets`,
      ]);
      const detail = (pointer: string) => errors.find((e) => e.pointer === `#/lists/${LIST}/${pointer}`)?.detail;
      expect(detail("residential-v4/family")).toContain("fixed once the pool exists (it is ipv4)");
      expect(detail("residential-v4/exclude")).toContain("203.0.113.1 lies outside every subnet of the pool");
      expect(detail("residential-v6-wan/subnets")).toContain("overlaps 2001:db8:4000::/44 of pool 'residential-v6-pd'");
      expect(detail("cgn-v6-pd/delegationLength")).toContain("does not suit family ipv6-pd");
      expect(detail("wholesale-v4/subnets")).toContain("optionally followed by ' announce'");
      expect(detail("new-wan/subnets")).toContain("not an IPv6 prefix");
      expect(detail("new-pd/delegationLength")).toContain("required for an ipv6-pd pool");
      expect(await pools()).toEqual(before);
      expect((await history()).total).toBe(1);
    });

    it("refuses a subnet longer than the delegation, and one overlapping another subnet of the pool", async () => {
      const errors = await rejection(
        await putConfig(setPool("residential-v6-pd", { subnets: "2001:db8:4000::/44 announce\n2001:db8:9000::/60" })),
      );
      expect(errors).toEqual([
        {
          in: "config",
          pointer: `#/lists/${LIST}/residential-v6-pd/subnets`,
          detail: "2001:db8:9000::/60 is longer than delegationLength (/56): a subnet holds whole blocks",
        },
      ]);
      const overlap = await rejection(
        await putConfig(setPool(V4, { subnets: "198.18.0.0/22\n198.18.4.0/23\n198.18.2.0/24" })),
      );
      expect(overlap).toEqual([
        {
          in: "config",
          pointer: `#/lists/${LIST}/${V4}/subnets`,
          detail: "198.18.2.0/24 overlaps 198.18.0.0/22, another subnet of the pool",
        },
      ]);
    });

    it("refuses an exclude over a local subscriber's static address, naming the subscriber", async () => {
      await commit(localLine("198.18.5.20"));
      const errors = await rejection(
        await putConfig(setPool(V4, { exclude: "198.18.0.1/32\n198.18.4.1/32\n198.18.5.0/24" })),
      );
      expect(errors).toEqual([
        {
          in: "config",
          pointer: `#/lists/${LIST}/${V4}/exclude`,
          detail: expect.stringMatching(
            new RegExp(
              String.raw`^framedIp 198\.18\.5\.20 of subscribers\.local\.ipoe '1:3000:7' ` +
                String.raw`is excluded from pool 'residential-v4' \(198\.18\.5\.0\/24\)`,
            ),
          ),
        },
      ]);
      // In the same change as the subscriber's move, it is accepted.
      await commit({
        listOps: [
          ...localLine("198.18.6.20").listOps,
          ...setPool(V4, { exclude: "198.18.0.1/32\n198.18.4.1/32\n198.18.5.0/24" }).listOps,
        ],
      });
    });

    it("refuses to delete a VRF a pool is placed in", async () => {
      const vrf = await rejection(await putConfig({ listOps: [{ listPath: "vrfs", key: "wholesale", delete: true }] }));
      expect(vrf).toEqual([
        {
          in: "config",
          pointer: "#/lists/vrfs/wholesale",
          detail: expect.stringContaining(`still referenced by ${LIST} 'wholesale-v4' (vrf)`),
        },
      ]);
      // Both in one change: accepted.
      await commit({
        listOps: [
          { listPath: LIST, key: "wholesale-v4", delete: true },
          { listPath: "vrfs", key: "wholesale", delete: true },
        ],
      });
    });

    it("refuses public or announced space in a CGN-translated pool", async () => {
      const errors = await rejection(
        await putConfig(setPool("cgn-inside-v4", { subnets: "100.64.0.0/20\n203.0.113.0/24 announce" })),
      );
      expect(pointersOf(errors)).toEqual([
        `#/lists/${LIST}/cgn-inside-v4/subnets`,
        `#/lists/${LIST}/cgn-inside-v4/subnets`,
      ]);
      expect(errors.map((e) => e.detail).join()).toMatch(/RFC 1918.*never announced/);
    });
  });

  it("rolls back to the pool as it was", async () => {
    const original = (await poolNamed(V4))!;
    const grown = await commit(
      setPool(V4, { subnets: "198.18.0.0/22 announce\n198.18.4.0/23 announce\n198.18.8.0/22", description: "grown" }),
    );
    expect((await poolNamed(V4))!.size).toBe(original.size + 1024);
    const response = await call(
      "/api/v1/config/rollback",
      json("POST", { version: grown.version - 1, comment: "undo the growth" }, admin),
    );
    expect(response.status, await response.clone().text()).toBe(200);
    const back = (await poolNamed(V4))!;
    expect(back).toEqual(original);
    expect((await history()).items[0]).toMatchObject({
      operation: "rollback",
      rollbackTo: grown.version - 1,
      changedPaths: [`#/lists/${LIST}/${V4}/description`, `#/lists/${LIST}/${V4}/subnets`],
    });
    await expectPoolsConsistent();
  });
});

describe("radius.servers hot-apply", () => {
  const radius = () => get<Radius>("/api/v1/radius/servers");
  const servers = (fields: Record<string, Record<string, string>>, deleted: string[] = []) => ({
    listOps: [
      ...Object.entries(fields).map(([key, f]) => ({ listPath: "radius.servers", key, fields: f })),
      ...deleted.map((key) => ({ listPath: "radius.servers", key, delete: true })),
    ],
  });

  it("sends an added server requests at once, by weight, keeping the others' counters", async () => {
    await advance(600);
    const before = await radius();
    await commit(servers({ "radius-3.isp.example:1812": { weight: "200" } }));
    const after = await radius();
    expect(after.totalServers).toBe(3);
    expect(after.servers.slice(0, 2)).toEqual(before.servers);
    expect(after.servers[2]).toMatchObject({
      host: "radius-3.isp.example",
      port: 1812,
      weight: 200,
      requestsSent: 0,
      isDead: false,
    });
    await scenario({ action: "set-churn-multiplier", multiplier: 1000 });
    await advance(1800);
    expect((await radius()).servers[2]!.requestsSent).toBeGreaterThan(100);
  });

  it("changes a weight at once and stops using a removed server, clearing its alarm", async () => {
    await scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    await scenario({ action: "set-churn-multiplier", multiplier: 20 });
    const alarmed = async () =>
      (await get<AlarmsResponse>("/api/v1/alarms")).active
        .filter((a) => a.id === "radius.server.dead")
        .map((a) => a.instance);
    // The failed server is revived every dead time and marked dead again: step until it is dead.
    await advance(300);
    for (let i = 0; i < 30 && (await alarmed()).length === 0; i++) await advance(10);
    expect(await alarmed()).toEqual(["radius-1.isp.example:1812"]);
    await commit(servers({ "radius-2.isp.example:1812": { weight: "500" } }, ["radius-1.isp.example:1812"]));
    const now = await radius();
    expect(now.servers.map((s) => [s.host, s.weight])).toEqual([["radius-2.isp.example", 500]]);
    expect(await alarmed()).toEqual([]);
    // Read now: ten busy minutes later the entry has left the newest thousand of the ring.
    expect((await logEntries("radius.servers")).map((e) => e.fields)).toEqual([
      { servers: 1, added: 0, removed: 1, changed: 1 },
    ]);
    const sent = now.servers[0]!.requestsSent;
    await advance(600);
    expect((await radius()).servers[0]!.requestsSent).toBeGreaterThan(sent);
    // And after a restart, the configured list still runs.
    await abortAllDurableObjects();
    expect((await radius()).servers.map((s) => s.host)).toEqual(["radius-2.isp.example"]);
  });
});
