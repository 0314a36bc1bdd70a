/**
 * The demo fleet (issue #24): the local fleet `npm start` runs (fleet-config/fleet.json, the small
 * profile, BNG_LOCAL_FLEET) shows every section of the web UI populated, as a box in service would be.
 * Captures (none until one is started) and alarms (none on a healthy box) are the exceptions.
 */
import { describe, expect, it } from "vitest";
import type { GreStatus } from "../../src/schemas/gre-circuits.ts";
import type { IpsecStatus } from "../../src/schemas/ipsec.ts";
import { advance, get, send } from "../worker/helpers.ts";

type Body = Record<string, unknown>;
const list = (key: string) => (body: Body) => body[key] as unknown[];
const itself = (body: Body) => body as unknown as unknown[];

/** Each page's main reads (ui/pages/catalogue.ts, the dashboard, the sessions page) and where their rows are. */
const SECTIONS: [string, (body: Body) => unknown[]][] = [
  ["/api/v1/sessions", list("items")],
  ["/api/v1/address-pools", itself],
  ["/api/v1/cgn/groups", itself],
  ["/api/v1/cgn/bindings", list("items")],
  ["/api/v1/routing/bgp/summary", list("peers")],
  ["/api/v1/routing/igp", list("adjacencies")],
  ["/api/v1/routing/vrfs/default/routes", list("routes")],
  ["/api/v1/routing/config", list("staticRoutes")],
  ["/api/v1/routing/bgp/neighbor/10.0.255.1/routes?type=received&af=ipv4Vpn", list("routes")],
  ["/api/v1/l2tp/tunnels", list("tunnels")],
  ["/api/v1/ipsec", list("peers")],
  ["/api/v1/gre-circuits/status", list("circuits")],
  ["/api/v1/gre-circuits/listeners", itself],
  ["/api/v1/gre-circuits", itself],
  ["/api/v1/vrfs", itself],
  ["/api/v1/source-vrf-rules", itself],
  ["/api/v1/subscribers/local", list("items")],
  ["/api/v1/radius/servers", list("servers")],
  ["/api/v1/auth/users", list("items")],
];

describe.each(["edge-1", "edge-2", "edge-3"])("the demo fleet's %s, two minutes after a fresh start", (appliance) => {
  it("answers at least one row in every section the web UI has a page for", async () => {
    await advance(120, appliance);
    const empty: string[] = [];
    for (const [path, rows] of SECTIONS) if (rows(await get<Body>(path, appliance)).length === 0) empty.push(path);
    expect(empty).toEqual([]);
  });

  it(
    "has its IPsec peers established with a child SA each, and its GRE circuits up " + "(the BGP one Established)",
    async () => {
      await advance(120, appliance);
      const ipsec = await get<IpsecStatus>("/api/v1/ipsec", appliance);
      expect(ipsec).toMatchObject({ enabled: true, establishedCount: 2 });
      for (const peer of ipsec.peers) expect(peer.children.map((child) => child.state)).toEqual(["INSTALLED"]);
      const gre = await get<GreStatus>("/api/v1/gre-circuits/status", appliance);
      expect(gre.circuits.map((c) => [c.id, c.circuitState, c.bgpState])).toEqual([
        ["acme-hq", "up", "Established"],
        ["globex-branch", "up", "disabled"],
      ]);
    },
  );
});

describe("the demo fleet's configuration", () => {
  it("validates as a whole, so the operator's first commit is not refused for what the seed put there", async () => {
    // Validation checks the whole candidate document, not only the changed key.
    const response = await send("POST", "/api/v1/config/validate", {
      fields: { "webUi.hostname": "edge-1.demo.localhost" },
    });
    expect(await response.json()).toMatchObject({ valid: true, errors: [] });
  });

  it(
    "follows the fleet seed like the seeded routing: edge-1 (seed 1001, n = 2) " +
      "reaches the NOC by 10.1.2.1 and ends its tunnels on 10.0.0.2",
    async () => {
      const routing = await get<{ staticRoutes: unknown[] }>("/api/v1/routing/config");
      expect(routing.staticRoutes).toEqual([
        expect.objectContaining({ vrf: "default", prefix: "10.250.0.0/16", nextHop: "10.1.2.1" }),
      ]);
      expect(await get<unknown[]>("/api/v1/gre-circuits/listeners")).toEqual([
        expect.objectContaining({ id: "lo-gre", localAddress: "10.0.0.2", circuits: 2 }),
      ]);
    },
  );

  it("never shows a pre-shared key or a local subscriber's password, in the document or its history", async () => {
    const texts = [await get<Body>("/api/v1/config"), await get<Body>("/api/v1/config/history")].map((body) =>
      JSON.stringify(body),
    );
    for (const text of texts) expect(text).not.toMatch(/"(psk|password)":"(?!\*{8})/);
    expect(texts[1]).toContain('"#/lists/ipsec.peers/noc-vpn/psk","before":null,"after":"********"');
  });
});
