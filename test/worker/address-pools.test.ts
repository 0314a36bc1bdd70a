import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { AddressPool, AddressPoolAllocationsPage } from "../../src/schemas/address-pools.ts";
import type { SessionDetail } from "../../src/schemas/sessions.ts";
import { call } from "./client.ts";
import { admin, advance, get, scenario, sum } from "./helpers.ts";

type Pool = z.output<typeof AddressPool>;
type Page = z.output<typeof AddressPoolAllocationsPage>;

describe("address pools", () => {
  it("lists every configured pool with its subnets, and keeps used + free = size", async () => {
    await advance(900);
    const pools = await get<Pool[]>("/api/v1/address-pools");
    expect(pools.map((p) => p.name)).toEqual([
      "residential-v4",
      "cgn-inside-v4",
      "wholesale-v4",
      "residential-v6-wan",
      "residential-v6-pd",
      "cgn-v6-wan",
      "cgn-v6-pd",
    ]);
    const residential = pools[0]!;
    expect(residential).toMatchObject({
      family: "ipv4",
      vrf: null,
      cgnTranslated: false,
      exclude: ["198.18.0.1/32", "198.18.4.1/32"],
    });
    expect(residential.subnets.map((s) => s.prefix)).toEqual(["198.18.0.0/22", "198.18.4.0/23"]);
    // /22 + /23 of /32s, less the two exclusions.
    expect(residential.size).toBe(1024 + 512 - 2);
    expect(pools.find((p) => p.name === "cgn-inside-v4")!.cgnTranslated).toBe(true);
    for (const pool of pools) {
      expect(pool.used + pool.free, pool.name).toBe(pool.size);
      expect(sum(pool.subnets.map((s) => s.used)), pool.name).toBe(pool.used);
      for (const s of pool.subnets) expect(s.used + s.free).toBe(s.size);
    }
    expect(residential.used).toBeGreaterThan(2);
  });

  it("pages a pool's allocations by prefix, total equal to the pool's used", async () => {
    await advance(900);
    const pool = (await get<Pool[]>("/api/v1/address-pools")).find((p) => p.name === "residential-v4")!;
    const page = await get<Page>("/api/v1/address-pools/residential-v4/allocations");
    expect(page).toMatchObject({ total: pool.used, offset: 0, limit: 100 });
    expect(page.items).toHaveLength(Math.min(100, pool.used));
    const statics = page.items.filter((a) => a.static);
    expect(statics.map((a) => [a.prefix, a.username, a.kind])).toEqual([
      ["198.18.0.10", "noc-probe@isp.example", "static"],
      ["198.18.0.11", "sla-monitor@isp.example", "static"],
    ]);
    const dynamic = page.items.find((a) => a.kind === "dynamic")!;
    expect(dynamic.sessionId).toBeGreaterThan(0);
    const session = await get<SessionDetail>(`/api/v1/sessions/${dynamic.sessionId}`);
    // A /32 block is written as the bare address, as the session shows it.
    expect(session.ipv4).toBe(dynamic.prefix);
    expect(session.username).toBe(dynamic.username);

    const next = await get<Page>("/api/v1/address-pools/residential-v4/allocations?offset=50&limit=10");
    expect(next.items.map((a) => a.prefix)).toEqual(page.items.slice(50, 60).map((a) => a.prefix));
  });

  it("clamps limit into 1-1000 rather than refusing it", async () => {
    await advance(900);
    const used = (await get<Pool[]>("/api/v1/address-pools")).find((p) => p.name === "residential-v4")!.used;
    expect(used).toBeGreaterThan(1000);
    expect(await get<Page>("/api/v1/address-pools/residential-v4/allocations?limit=0")).toMatchObject({
      limit: 1,
      items: [expect.anything()],
    });
    const big = await get<Page>("/api/v1/address-pools/residential-v4/allocations?limit=5000");
    expect(big.limit).toBe(1000);
    expect(big.items).toHaveLength(1000);
  });

  it("answers 404 for an unknown pool and 400 for a malformed offset", async () => {
    expect((await call("/api/v1/address-pools/no-such-pool/allocations", { headers: admin })).status).toBe(404);
    expect((await call("/api/v1/address-pools/residential-v4/allocations?offset=-1", { headers: admin })).status).toBe(
      400,
    );
  });

  it("shows a fill as used blocks and failed allocations once the pool is exhausted", async () => {
    await advance(600);
    // Only LNS-terminated sessions take a wholesale address (a LAC's come from their LNS), and they live for days:
    // their subscribers dial again at once into the filled pool.
    await scenario({ action: "disconnect-sessions", share: 1, filter: { vrf: "wholesale" } });
    await scenario({ action: "fill-pool", pool: "wholesale-v4", percent: 100 });
    const [pool] = (await get<Pool[]>("/api/v1/address-pools")).filter((p) => p.name === "wholesale-v4");
    expect(pool!.free).toBe(0);
    expect(pool!.utilisationPercent).toBe(100);
    const page = await get<Page>("/api/v1/address-pools/wholesale-v4/allocations?limit=1000");
    expect(page.total).toBe(pool!.used);
    expect(page.items.some((a) => a.kind === "reserved")).toBe(true);
    await advance(60);
    expect(
      (await get<Pool[]>("/api/v1/address-pools")).find((p) => p.name === "wholesale-v4")!.allocationFailures,
    ).toBeGreaterThan(0);
  });

  it("is readable through the fleet proxy", async () => {
    await advance(300, "edge-2");
    const proxied = await get<Pool[]>("/api/v1/fleet/edge-2/address-pools");
    expect(proxied.map((p) => p.used)).toEqual(
      (await get<Pool[]>("/api/v1/address-pools", "edge-2")).map((p) => p.used),
    );
  });
});
