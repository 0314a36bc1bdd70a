import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { RoutingConfig } from "../../src/schemas/routing-config.ts";
import type { CommitResult, ConfigCommitResult } from "../../src/schemas/commit.ts";
import type {
  BgpNeighbor as Neighbor,
  BgpSummary as Summary,
  IgpStatus,
  RoutePage,
} from "../../src/schemas/routing.ts";
import type { SessionList } from "../../src/schemas/sessions.ts";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import { admin, commit, getConfig, history, pointersOf, rejection } from "./config-client.ts";
import { advance, get, scenario } from "./helpers.ts";

type Config = z.output<typeof RoutingConfig>;

const base = "/api/v1/routing";
const summary = () => get<Summary>(`${base}/bgp/summary`);
const neighbor = (address: string) => get<Neighbor>(`${base}/bgp/neighbor/${address}`);
const routes = (address: string, query = "") => get<RoutePage>(`${base}/bgp/neighbor/${address}/routes${query}`);
const vrfRoutes = (vrf: string, query = "") => get<RoutePage>(`${base}/vrfs/${vrf}/routes${query}`);
const send = (method: string, path: string, body?: unknown, headers = admin) =>
  call(`${base}${path}`, body === undefined ? { method, headers } : json(method, body, headers));
/**
 * A write's commit result: CommitResult for a neighbor, ConfigCommitResult for the settings and the static route table.
 */
const ok = async <T extends CommitResult | ConfigCommitResult = CommitResult>(response: Response) => {
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<T>();
};
const RESIDENTIAL = "198.18.0.0/22 announce\n198.18.4.0/23 announce";

describe("a fresh appliance", () => {
  it("peers with its two route reflectors, which reach Established as the clock advances", async () => {
    const before = await summary();
    expect(before).toMatchObject({ reachable: true, localAs: 64500, routerId: "10.0.0.2" });
    expect(before.peers.map((p) => `${p.peer} ${p.afiSafi}`)).toEqual([
      "10.0.255.1 ipv4Unicast",
      "10.0.255.1 ipv6Unicast",
      "10.0.255.1 ipv4Vpn",
      "10.0.255.2 ipv4Unicast",
      "10.0.255.2 ipv6Unicast",
      "10.0.255.2 ipv4Vpn",
    ]);
    await advance(120);
    expect((await summary()).peers.every((p) => p.state === "Established" && p.uptimeSeconds! > 0)).toBe(true);
  });
});

describe("a neighbor added through the configuration", () => {
  it("starts Idle and reaches Established after the clock advances; the commit is in the history", async () => {
    const result = await ok(
      await send("POST", "/config/bgp/neighbors", {
        address: "192.0.2.254",
        remoteAs: 64511,
        description: "transit",
        comment: "new upstream",
      }),
    );
    expect(result).toMatchObject({ status: "committed", name: "192.0.2.254", restartRequired: false });
    expect(await neighbor("192.0.2.254")).toMatchObject({ reachable: true, state: "Idle", uptimeSeconds: null });
    await advance(60);
    const up = await neighbor("192.0.2.254");
    expect(up).toMatchObject({
      reachable: true,
      state: "Established",
      addressFamilies: [expect.objectContaining({ afiSafi: "ipv4Unicast" })],
    });
    expect(up.uptimeSeconds).toBeGreaterThan(0);
    expect((await history()).items[0]).toMatchObject({
      operation: "bgp-neighbor",
      comment: "new upstream",
      actor: "token:bootstrap",
    });
  });

  it("is refused with 409 when it exists, 404 when replacing or deleting an unknown one", async () => {
    expect((await send("POST", "/config/bgp/neighbors", { address: "10.0.255.1", remoteAs: 64500 })).status).toBe(409);
    expect((await send("PUT", "/config/bgp/neighbors/192.0.2.99", { remoteAs: 64500 })).status).toBe(404);
    const missing = await send("DELETE", "/config/bgp/neighbors/192.0.2.99");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
  });

  it("answers 422 listing every rejected value, committing nothing", async () => {
    const errors = await rejection(
      await send("POST", "/config/bgp/neighbors", {
        address: "192.0.2.254",
        remoteAs: 0,
        holdTime: 2,
        addressFamilies: ["ipv4Unicast"],
      }),
    );
    expect(pointersOf(errors)).toEqual([
      "#/lists/bgp.neighbors/192.0.2.254/holdTime",
      "#/lists/bgp.neighbors/192.0.2.254/remoteAs",
    ]);
    expect(
      pointersOf(
        await rejection(
          await send("POST", "/config/bgp/neighbors", {
            address: "192.0.2.254",
            remoteAs: 64511,
            holdTime: 30,
            keepAlive: 30,
          }),
        ),
      ),
    ).toEqual(["#/lists/bgp.neighbors/192.0.2.254/keepAlive"]);
    expect(
      pointersOf(
        await rejection(await send("POST", "/config/bgp/neighbors", { address: "not-an-address", remoteAs: 64511 })),
      ),
    ).toEqual(["#/lists/bgp.neighbors/not-an-address"]);
    expect((await send("POST", "/config/bgp/neighbors", { address: "192.0.2.254", remoteAs: "64511" })).status).toBe(
      400,
    );
    expect((await summary()).peers.some((p) => p.peer === "192.0.2.254")).toBe(false);
  });

  it("is held Idle (Admin) when shut down, and is gone once deleted", async () => {
    await ok(await send("PUT", "/config/bgp/neighbors/10.0.255.2", { remoteAs: 64500, shutdown: true }));
    await advance(60);
    expect((await neighbor("10.0.255.2")).state).toBe("Idle (Admin)");
    await ok(await send("DELETE", "/config/bgp/neighbors/10.0.255.2?comment=decommissioned"));
    expect(await neighbor("10.0.255.2")).toMatchObject({ reachable: false, state: "Unknown" });
  });
});

describe("the numbers", () => {
  it("agree: every summary row's counts are its neighbor's route page totals and its detail's counts", async () => {
    await send("POST", "/config/bgp/neighbors", { address: "192.0.2.254", remoteAs: 64511 });
    await advance(120);
    const rows = (await summary()).peers;
    expect(rows.every((r) => r.state === "Established")).toBe(true);
    for (const row of rows) {
      expect(
        (await routes(row.peer, `?type=received&af=${row.afiSafi}`)).total,
        `${row.peer} ${row.afiSafi} received`,
      ).toBe(row.prefixesReceived);
      expect((await routes(row.peer, `?af=${row.afiSafi}`)).total, `${row.peer} ${row.afiSafi} sent`).toBe(
        row.prefixesSent,
      );
      const af = (await neighbor(row.peer)).addressFamilies.find((a) => a.afiSafi === row.afiSafi)!;
      expect([af.received, af.advertised]).toEqual([row.prefixesReceived, row.prefixesSent]);
    }
  });
});

describe("advertised routes", () => {
  it(
    "are the announced pool subnets and the CGN public subnet, and follow a subnet " +
      "added or removed through the configuration at once",
    async () => {
      await advance(120);
      const before = await routes("10.0.255.1");
      expect(before.routes.map((r) => r.prefix)).toEqual(["192.0.2.0/26", "198.18.0.0/22", "198.18.4.0/23"]);
      expect(before.routes[1]).toMatchObject({
        nextHop: "10.0.0.2",
        protocol: "connected",
        asPath: "",
        localPref: 100,
        origin: "IGP",
        best: true,
      });
      await commit({
        listOps: [
          {
            listPath: "addressPools",
            key: "residential-v4",
            fields: { subnets: `${RESIDENTIAL}\n198.18.16.0/24 announce\n198.18.17.0/24` },
          },
        ],
      });
      const after = await routes("10.0.255.1");
      expect(after.routes.map((r) => r.prefix)).toEqual([
        "192.0.2.0/26",
        "198.18.0.0/22",
        "198.18.4.0/23",
        "198.18.16.0/24",
      ]);
      expect(
        (await summary()).peers.find((p) => p.peer === "10.0.255.1" && p.afiSafi === "ipv4Unicast")!.prefixesSent,
      ).toBe(4);
      await commit({
        listOps: [
          {
            listPath: "addressPools",
            key: "residential-v4",
            fields: { subnets: "198.18.0.0/22 announce", exclude: "198.18.0.1/32" },
          },
        ],
      });
      expect((await routes("10.0.255.1")).routes.map((r) => r.prefix)).toEqual(["192.0.2.0/26", "198.18.0.0/22"]);
    },
  );

  it("carry a VRF's RD and export route targets in ipv4Vpn once it has them", async () => {
    await advance(120);
    expect((await routes("10.0.255.1", "?af=ipv4Vpn")).total).toBe(0);
    await commit({
      listOps: [
        {
          listPath: "vrfs",
          key: "wholesale",
          fields: { rd: "64500:20", exportRt: "64500:20", importRt: "64500:20", originateDefaultRoute: "true" },
        },
      ],
    });
    await commit({
      listOps: [{ listPath: "addressPools", key: "wholesale-v4", fields: { subnets: "10.128.0.0/22 announce" } }],
    });
    const vpn = await routes("10.0.255.1", "?af=ipv4Vpn");
    expect(vpn.routes).toEqual([
      expect.objectContaining({ prefix: "0.0.0.0/0", rd: "64500:20", routeTargets: ["64500:20"] }),
      expect.objectContaining({ prefix: "10.128.0.0/22", rd: "64500:20", routeTargets: ["64500:20"] }),
    ]);
    // The route reflector now sends the remote sites of that route target, which the VRF installs.
    const received = await routes("10.0.255.1", "?type=received&af=ipv4Vpn");
    expect(received.total).toBeGreaterThan(0);
    expect((await vrfRoutes("wholesale", "?protocol=bgp&limit=500")).total).toBeGreaterThan(0);
  });
});

describe("neighbor reads", () => {
  it("answer 200 with reachable false for an unknown neighbor, never an error status", async () => {
    expect(await neighbor("192.0.2.99")).toMatchObject({
      reachable: false,
      peer: "192.0.2.99",
      state: "Unknown",
      addressFamilies: [],
    });
    expect(await neighbor("not-even-an-address")).toMatchObject({ reachable: false });
    expect(await routes("192.0.2.99")).toMatchObject({ reachable: false, total: 0, routes: [] });
  });

  it("page routes with limit default 50, clamped to 1-500, and refuse a bad type or family with 400", async () => {
    await advance(120);
    expect((await routes("10.0.255.1", "?type=received")).limit).toBe(50);
    const one = await routes("10.0.255.1", "?type=received&limit=0");
    expect(one).toMatchObject({ limit: 1, routes: [expect.objectContaining({ prefix: "0.0.0.0/0" })] });
    expect((await routes("10.0.255.1", "?type=received&limit=100000")).limit).toBe(500);
    const second = await routes("10.0.255.1", "?type=received&limit=1&offset=1");
    expect(second.routes[0]!.prefix).toBe((await routes("10.0.255.1", "?type=received")).routes[1]!.prefix);
    expect((await routes("10.0.255.1", "?type=received&filter=0.0.0.0/0")).total).toBe(1);
    for (const query of ["?type=sideways", "?af=ipv9Unicast", "?limit=abc"]) {
      const response = await call(`${base}/bgp/neighbor/10.0.255.1/routes${query}`, { headers: admin });
      expect(response.status, query).toBe(400);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });
});

describe("an unreachable routing daemon", () => {
  it("is not an error: every read answers 200 with reachable false until it is revived", async () => {
    await advance(120);
    await scenario({ action: "fail-daemon", daemon: "routing" });
    expect(await summary()).toMatchObject({ reachable: false, peers: [] });
    expect(await neighbor("10.0.255.1")).toMatchObject({ reachable: false, state: "Unknown" });
    expect(await routes("10.0.255.1")).toMatchObject({ reachable: false, total: 0 });
    expect(await get(`${base}/igp`)).toMatchObject({ reachable: false });
    expect(await vrfRoutes("default")).toMatchObject({ reachable: false, total: 0 });
    await scenario({ action: "revive-daemon", daemon: "routing" });
    expect((await summary()).reachable).toBe(true);
  });

  it("is what BGP reads once the last neighbor is deleted", async () => {
    await send("DELETE", "/config/bgp/neighbors/10.0.255.1");
    await send("DELETE", "/config/bgp/neighbors/10.0.255.2");
    expect(await summary()).toMatchObject({ reachable: false, peers: [] });
  });
});

describe("a VRF's route table", () => {
  it("holds the global table's connected, subscriber, CGN and BGP routes, paged like BGP routes", async () => {
    await advance(300);
    const page = await vrfRoutes("default", "?limit=500");
    expect(page).toMatchObject({ reachable: true, limit: 500 });
    const protocols = new Set(page.routes.map((r) => r.protocol));
    for (const p of ["connected", "subscriber", "cgn", "bgp", "ospf"]) expect(protocols, p).toContain(p);
    const sessions = await get<SessionList>("/api/v1/sessions?vrf=default&limit=1");
    expect((await vrfRoutes("default", "?protocol=subscriber&family=ipv4&limit=1")).total).toBe(sessions.total);
    expect((await vrfRoutes("default", "?limit=9999")).limit).toBe(500);
    expect((await vrfRoutes("cgn-inside", "?protocol=connected")).routes.map((r) => r.prefix)).toContain(
      "100.64.0.0/20",
    );
  });

  it("follows the sessions: one that comes up or is disconnected changes the table at once", async () => {
    await advance(300);
    const subscriberTotal = async () => (await vrfRoutes("default", "?protocol=subscriber&family=ipv4&limit=1")).total;
    const sessionsTotal = async () => (await get<SessionList>("/api/v1/sessions?vrf=default&limit=1")).total;
    expect(await subscriberTotal()).toBe(await sessionsTotal());
    const [session] = (await get<SessionList>("/api/v1/sessions?vrf=default&limit=1")).items;
    expect((await vrfRoutes("default", `?filter=${session!.ipv4}/32`)).total).toBe(1);
    await call(`/api/v1/sessions/${session!.id}`, { method: "DELETE", headers: admin });
    expect((await vrfRoutes("default", `?filter=${session!.ipv4}/32`)).total).toBe(0);
    await advance(60);
    expect(await subscriberTotal()).toBe(await sessionsTotal());
  });

  it("answers 404 for a VRF that is not configured", async () => {
    const response = await call(`${base}/vrfs/nowhere/routes`, { headers: admin });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});

describe("static routes", () => {
  it("replace the table as a whole, are installed at once, and announced ones are advertised", async () => {
    await advance(120);
    const result = await ok<ConfigCommitResult>(
      await send("PUT", "/config/static-routes", {
        routes: [
          { prefix: "203.0.113.0/24", nextHop: "blackhole", announce: true },
          { vrf: "wholesale", prefix: "10.200.0.0/16", nextHop: "10.128.0.254" },
        ],
        comment: "statics",
      }),
    );
    expect(result.changedPaths).toEqual(
      expect.arrayContaining(["#/lists/routing.staticRoutes/default:203.0.113.0~124"]),
    );
    expect((await vrfRoutes("default", "?protocol=static")).routes).toEqual([
      expect.objectContaining({ prefix: "203.0.113.0/24", nextHop: "", interface: "blackhole", best: true }),
    ]);
    expect((await vrfRoutes("wholesale", "?protocol=static")).routes).toEqual([
      expect.objectContaining({ prefix: "10.200.0.0/16", nextHop: "10.128.0.254" }),
    ]);
    expect((await routes("10.0.255.1")).routes.map((r) => r.prefix)).toContain("203.0.113.0/24");
    await ok(await send("PUT", "/config/static-routes", { routes: [] }));
    expect((await vrfRoutes("default", "?protocol=static")).total).toBe(0);
  });

  it("refuse a route given twice (400) and invalid values (422 at each)", async () => {
    expect(
      (
        await send("PUT", "/config/static-routes", {
          routes: [
            { prefix: "203.0.113.0/24", nextHop: "blackhole" },
            { prefix: "203.0.113.0/24", nextHop: "192.0.2.1" },
          ],
        })
      ).status,
    ).toBe(400);
    const errors = await rejection(
      await send("PUT", "/config/static-routes", {
        routes: [
          { vrf: "nowhere", prefix: "10.0.0.0/8", nextHop: "blackhole" },
          { prefix: "192.0.2.0/24", nextHop: "2001:db8::1", distance: 0 },
        ],
      }),
    );
    expect(pointersOf(errors)).toEqual([
      "#/lists/routing.staticRoutes/default:192.0.2.0~124/distance",
      "#/lists/routing.staticRoutes/default:192.0.2.0~124/nextHop",
      "#/lists/routing.staticRoutes/nowhere:10.0.0.0~18",
    ]);
  });
});

describe("the routing configuration", () => {
  it("reads as one document, never with the BGP password", async () => {
    await ok(
      await send("PUT", "/config/bgp/neighbors/10.0.255.1", {
        remoteAs: 64500,
        password: "md5-secret-value",
        addressFamilies: ["ipv4Unicast"],
      }),
    );
    const config = await get<Config>(`${base}/config`);
    expect(config).toMatchObject({ localAs: 64500, effectiveRouterId: "10.0.0.2", igp: { protocol: "ospf" } });
    expect(config.neighbors[0]).toMatchObject({
      address: "10.0.255.1",
      passwordConfigured: true,
      addressFamilies: ["ipv4Unicast"],
    });
    expect(config.neighbors[1]).toMatchObject({ passwordConfigured: false });
    // A replacement without a password keeps it; null clears it.
    await ok(await send("PUT", "/config/bgp/neighbors/10.0.255.1", { remoteAs: 64500 }));
    expect((await get<Config>(`${base}/config`)).neighbors[0]!.passwordConfigured).toBe(true);
    for (const path of [
      `${base}/config`,
      "/api/v1/config",
      "/api/v1/config/history?limit=500",
      `${base}/bgp/summary`,
      `${base}/bgp/neighbor/10.0.255.1`,
    ]) {
      expect(await (await call(path, { headers: admin })).text(), path).not.toContain("md5-secret-value");
    }
    await ok(await send("PUT", "/config/bgp/neighbors/10.0.255.1", { remoteAs: 64500, password: null }));
    expect((await get<Config>(`${base}/config`)).neighbors[0]!.passwordConfigured).toBe(false);
  });

  it("takes a merge of the global settings: local AS, router id, IGP", async () => {
    const result = await ok<ConfigCommitResult>(
      await send("PATCH", "/config", { routerId: "10.0.0.99", igp: { protocol: "isis" }, comment: "move to IS-IS" }),
    );
    expect([...result.changedPaths].sort()).toEqual(["#/fields/igp.protocol", "#/fields/routing.routerId"]);
    await advance(60);
    const igp = await get<IgpStatus>(`${base}/igp`);
    expect(igp).toMatchObject({ protocol: "isis", routerId: "10.0.0.99" });
    expect(igp.adjacencies.map((a) => a.state)).toEqual(["Up", "Up"]);
    expect((await summary()).routerId).toBe("10.0.0.99");
    await ok(await send("PATCH", "/config", { igp: { interfaces: [{ name: "uplink9", address: "10.9.9.0/31" }] } }));
    expect((await get<Config>(`${base}/config`)).igp.interfaces.map((i) => i.name)).toEqual(["uplink9"]);
    await ok(await send("PATCH", "/config", { igp: { protocol: "none" } }));
    expect(await get(`${base}/igp`)).toMatchObject({ protocol: "none", adjacencies: [] });
  });

  it("refuses bad global settings: unknown members 400, invalid values 422 each", async () => {
    expect((await send("PATCH", "/config", { neighbors: [] })).status).toBe(400);
    const errors = await rejection(
      await send("PATCH", "/config", {
        localAs: null,
        routerId: "10.0.0",
        igp: { interfaces: [{ name: "uplink0", address: "10.1.2.0/31", helloSeconds: 40, deadSeconds: 40 }] },
      }),
    );
    expect(pointersOf(errors)).toEqual([
      "#/fields/bgp.localAs",
      "#/fields/routing.routerId",
      "#/lists/igp.interfaces/uplink0/deadSeconds",
    ]);
    expect((await getConfig()).fields["bgp.localAs"]).toBe("64500");
  });
});

describe("role floors", () => {
  it("let a read-only or operator token read routing but not write its configuration (403)", async () => {
    for (const role of ["read-only", "operator"] as const) {
      const headers = bearer(await tokenWithRole(role));
      expect((await call(`${base}/bgp/summary`, { headers })).status).toBe(200);
      expect((await call(`${base}/config`, { headers })).status).toBe(200);
      expect((await send("PATCH", "/config", { localAs: 64501 }, headers)).status).toBe(403);
      expect(
        (await send("POST", "/config/bgp/neighbors", { address: "192.0.2.254", remoteAs: 64511 }, headers)).status,
      ).toBe(403);
      expect((await send("PUT", "/config/bgp/neighbors/10.0.255.1", { remoteAs: 64511 }, headers)).status).toBe(403);
      expect((await send("DELETE", "/config/bgp/neighbors/10.0.255.1", undefined, headers)).status).toBe(403);
      expect((await send("PUT", "/config/static-routes", { routes: [] }, headers)).status).toBe(403);
    }
    expect((await get<Summary>(`${base}/bgp/summary`)).localAs).toBe(64500);
  });
});
