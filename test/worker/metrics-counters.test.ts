/**
 * The scrape's counters and control-plane gauges (issue 12): interface
 * traffic as `_total` counters for rate(), session setups and teardowns,
 * RADIUS requests by result, CGN port-block allocations, and the state of
 * BGP, the IGP, IPsec, L2TP, GRE circuits, the licence and the upgrade —
 * each equal to the JSON endpoint that shows the same thing at that instant.
 */
import { describe, expect, it } from "vitest";
import { commit } from "./config-client.ts";
import { advance, get, scenario, scrape, send, sum, valueOf } from "./helpers.ts";
import type { Sample } from "../exposition.ts";
import type { z } from "zod";
import type { GreStatus } from "../../src/schemas/gre-circuits.ts";
import type { RadiusPoolStatus } from "../../src/schemas/radius.ts";
import type { CgnStatus as Cgn } from "../../src/schemas/cgn.ts";
import type { IpsecStatus as Ipsec } from "../../src/schemas/ipsec.ts";
import type { L2tpTunnelList as Tunnels } from "../../src/schemas/l2tp.ts";
import type { LicenceStatus } from "../../src/schemas/licensing.ts";
import type { BgpSummary as Bgp, IgpStatus as Igp } from "../../src/schemas/routing.ts";
import type { InterfaceTable as Interfaces, SystemStatus as Status } from "../../src/schemas/system.ts";
import type { UpgradeStatus } from "../../src/schemas/upgrade.ts";

type Counters = Interfaces["interfaces"][number]["counters"];
type Radius = z.output<typeof RadiusPoolStatus>;
type Gre = z.output<typeof GreStatus>;

const family = (samples: Sample[], name: string) => samples.filter((s) => s.name === name);
const COUNTER_NAMES: [string, keyof Counters][] = [
  ["bng_interface_receive_bytes_total", "rxBytes"],
  ["bng_interface_transmit_bytes_total", "txBytes"],
  ["bng_interface_receive_packets_total", "rxPackets"],
  ["bng_interface_transmit_packets_total", "txPackets"],
  ["bng_interface_receive_errors_total", "rxErrors"],
  ["bng_interface_transmit_errors_total", "txErrors"],
  ["bng_interface_receive_discards_total", "rxDiscards"],
  ["bng_interface_transmit_discards_total", "txDiscards"],
];

describe("interface counters", () => {
  it("equal GET /system/interfaces for every interface and counter, and grow between scrapes", async () => {
    await advance(1800);
    const [first, table] = await Promise.all([scrape(), get<Interfaces>("/api/v1/system/interfaces")]);
    for (const row of table.interfaces) {
      for (const [name, key] of COUNTER_NAMES)
        expect(valueOf(first, name, { interface: row.name }), `${name} ${row.name}`).toBe(row.counters[key]);
      expect(valueOf(first, "bng_interface_up", { interface: row.name })).toBe(row.operState === "up" ? 1 : 0);
    }
    await advance(600);
    const second = await scrape();
    const received = (samples: Sample[]) =>
      sum(family(samples, "bng_interface_receive_bytes_total").map((s) => s.value));
    // Subscribers kept sending for ten minutes: the counter moved on, so rate() over it is positive.
    expect(received(second)).toBeGreaterThan(received(first));
  });
});

describe("session events", () => {
  it(
    "count setups, teardowns and failures as GET /system/status does; setups minus " +
      "teardowns is the live count of a data plane that booted empty",
    async () => {
      await advance(3600);
      await scenario({ action: "disconnect-sessions", share: 0.2 });
      await advance(60);
      const [samples, status] = await Promise.all([scrape(), get<Status>("/api/v1/system/status")]);
      expect(valueOf(samples, "bng_session_setups_total")).toBe(status.sessions.setupsSinceBoot);
      expect(valueOf(samples, "bng_session_teardowns_total")).toBe(status.sessions.teardownsSinceBoot);
      expect(valueOf(samples, "bng_session_setup_failures_total")).toBe(status.sessions.setupFailuresSinceBoot);
      expect(status.sessions.teardownsSinceBoot).toBeGreaterThan(0);
      expect(status.sessions.setupsSinceBoot - status.sessions.teardownsSinceBoot).toBe(status.sessions.total);
      expect(valueOf(samples, "bng_sessions")).toBe(status.sessions.total);
      expect(valueOf(samples, "bng_data_plane_uptime_seconds")).toBe(status.dataPlane.uptimeSeconds);
      expect(valueOf(samples, "bng_control_plane_uptime_seconds")).toBeGreaterThanOrEqual(0);
    },
  );
});

describe("RADIUS requests by result", () => {
  it(
    "split requestsSent into accept, reject and timeout; a server that stops " + "answering only adds timeouts",
    async () => {
      await advance(1200);
      // Sessions live for days (lifetimes.ts): churn faster, so setups ask the failed server within the ten minutes.
      await scenario({ action: "set-churn-multiplier", multiplier: 100 });
      await scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
      const before = await get<Radius>("/api/v1/radius/servers");
      await advance(600);
      const [samples, radius] = await Promise.all([scrape(), get<Radius>("/api/v1/radius/servers")]);
      for (const s of radius.servers) {
        const server = `${s.host}:${s.port}`;
        for (const result of ["accept", "reject", "timeout"] as const) {
          expect(valueOf(samples, "bng_radius_requests_total", { server, result })).toBe(s.requestsByResult[result]);
        }
        expect(s.requestsByResult.accept + s.requestsByResult.reject + s.requestsByResult.timeout).toBe(s.requestsSent);
      }
      const failedBefore = before.servers.find((s) => s.host === "radius-1.isp.example")!;
      const failedAfter = radius.servers.find((s) => s.host === "radius-1.isp.example")!;
      expect(failedAfter.requestsByResult.accept).toBe(failedBefore.requestsByResult.accept);
      expect(failedAfter.requestsByResult.reject).toBe(failedBefore.requestsByResult.reject);
      expect(failedAfter.requestsByResult.timeout).toBeGreaterThan(failedBefore.requestsByResult.timeout);
      expect(sum(radius.servers.map((s) => s.requestsByResult.accept))).toBeGreaterThan(0);
    },
  );
});

describe("CGN port-block allocations", () => {
  it(
    "count the blocks handed to bindings per group, as GET /cgn/status shows, at " + "least one per active binding",
    async () => {
      await advance(1800);
      const [samples, cgn, status] = await Promise.all([
        scrape(),
        get<Cgn>("/api/v1/cgn/status"),
        get<Cgn>("/api/v1/cgn/status"),
      ]);
      for (const g of cgn.groups)
        expect(valueOf(samples, "bng_cgn_port_block_allocations_total", { group: g.name })).toBe(
          g.portBlockAllocations,
        );
      for (const g of status.groups)
        expect(cgn.groups.find((c) => c.name === g.name)!.portBlockAllocations).toBeGreaterThanOrEqual(
          g.activeBindings,
        );
      expect(sum(cgn.groups.map((g) => g.portBlockAllocations))).toBeGreaterThan(0);
    },
  );
});

describe("control-plane state", () => {
  it(
    "shows BGP sessions and prefixes, IGP adjacencies, L2TP tunnels and GRE circuits " + "as their endpoints do",
    async () => {
      // A GRE customer with a BGP session, so the GRE and per-VRF BGP families have a row.
      expect((await send("PUT", "/api/v1/gre-circuits/listeners/gw1", { localAddress: "192.0.2.10" })).status).toBe(
        200,
      );
      const circuit = {
        id: "acme-1",
        listenerId: "gw1",
        vrf: "wholesale",
        remote: "203.0.113.7",
        localTunnelAddress: "10.255.0.1/30",
        remoteTunnelAddress: "10.255.0.2/30",
        peerAsn: 64512,
      };
      expect((await send("POST", "/api/v1/gre-circuits", circuit)).status).toBe(200);
      await advance(900);
      const [samples, bgp, igp, l2tp, gre] = await Promise.all([
        scrape(),
        get<Bgp>("/api/v1/routing/bgp/summary"),
        get<Igp>("/api/v1/routing/igp"),
        get<Tunnels>("/api/v1/l2tp/tunnels"),
        get<Gre>("/api/v1/gre-circuits/status"),
      ]);
      expect(bgp.peers.length).toBeGreaterThan(0);
      expect(valueOf(samples, "bng_routing_daemon_up")).toBe(1);
      for (const p of bgp.peers) {
        expect(valueOf(samples, "bng_bgp_session_up", { peer: p.peer, vrf: p.vrf })).toBe(
          p.state === "Established" ? 1 : 0,
        );
        expect(valueOf(samples, "bng_bgp_prefixes_received", { peer: p.peer, vrf: p.vrf, afi_safi: p.afiSafi })).toBe(
          p.prefixesReceived,
        );
        expect(valueOf(samples, "bng_bgp_prefixes_sent", { peer: p.peer, vrf: p.vrf, afi_safi: p.afiSafi })).toBe(
          p.prefixesSent,
        );
      }
      expect(igp.adjacencies.length).toBeGreaterThan(0);
      for (const a of igp.adjacencies) {
        expect(valueOf(samples, "bng_igp_adjacency_up", { interface: a.interface, neighbor_id: a.neighborId })).toBe(
          ["Full", "Up"].includes(a.state) ? 1 : 0,
        );
      }
      expect(family(samples, "bng_l2tp_tunnel_sessions")).toHaveLength(l2tp.tunnels.length);
      for (const t of l2tp.tunnels) {
        expect(valueOf(samples, "bng_l2tp_tunnel_sessions", { tunnel_id: String(t.localTunnelId) })).toBe(t.sessions);
        expect(valueOf(samples, "bng_l2tp_tunnel_established", { tunnel_id: String(t.localTunnelId) })).toBe(
          t.state === "established" ? 1 : 0,
        );
      }
      expect(gre.circuits.map((c) => c.id)).toEqual(["acme-1"]);
      for (const c of gre.circuits) {
        expect(valueOf(samples, "bng_gre_circuit_up", { circuit: c.id, vrf: c.vrf })).toBe(
          c.circuitState === "up" ? 1 : 0,
        );
        expect(valueOf(samples, "bng_gre_tunnel_up", { circuit: c.id, vrf: c.vrf })).toBe(
          c.tunnelState === "up" ? 1 : 0,
        );
        expect(valueOf(samples, "bng_gre_bgp_established", { circuit: c.id, vrf: c.vrf })).toBe(
          c.bgpState === "Established" ? 1 : 0,
        );
      }
    },
  );

  it("shows the routing daemon down and every BGP session not up when the daemon fails", async () => {
    await advance(900);
    await scenario({ action: "fail-daemon", daemon: "routing" });
    const samples = await scrape();
    expect(valueOf(samples, "bng_routing_daemon_up")).toBe(0);
    expect(family(samples, "bng_bgp_session_up").filter((s) => s.value === 1)).toEqual([]);
  });

  it("shows IPsec peers and their child SAs as GET /ipsec does", async () => {
    await commit({
      fields: { "ipsec.enabled": "true" },
      listOps: [
        {
          listPath: "ipsec.peers",
          key: "branch-1",
          fields: { remoteAddress: "203.0.113.10", psk: "correct-horse-battery-staple", remoteTs: "192.168.50.0/24" },
        },
      ],
    });
    await advance(120);
    const [samples, ipsec] = await Promise.all([scrape(), get<Ipsec>("/api/v1/ipsec")]);
    expect(ipsec.peers.map((p) => p.name)).toContain("branch-1");
    expect(valueOf(samples, "bng_ipsec_daemon_up")).toBe(ipsec.reachable ? 1 : 0);
    for (const p of ipsec.peers) {
      expect(valueOf(samples, "bng_ipsec_peer_established", { peer: p.name })).toBe(p.state === "ESTABLISHED" ? 1 : 0);
      expect(valueOf(samples, "bng_ipsec_child_sas", { peer: p.name })).toBe(p.children.length);
    }
  });

  it("shows the licence and upgrade states as state sets with exactly the current state at 1", async () => {
    await advance(60);
    const [samples, licence, upgrade] = await Promise.all([
      scrape(),
      get<LicenceStatus>("/api/v1/licensing"),
      get<UpgradeStatus>("/api/v1/system/upgrade"),
    ]);
    // A fresh appliance runs in dev mode (docs/decisions.md, Licensing).
    expect(licence.state).toBe("Dev");
    expect(family(samples, "bng_licence_state").map((s) => [s.labels.state, s.value])).toEqual([
      ["Dev", 1],
      ["Licensed", 0],
      ["Grace", 0],
      ["Lapsed", 0],
    ]);
    // Dev mode has no expiry: the gauge is absent rather than a made-up number.
    expect(licence.daysRemaining).toBeNull();
    expect(family(samples, "bng_licence_days_remaining")).toEqual([]);
    expect(upgrade.state).toBe("idle");
    expect(
      family(samples, "bng_upgrade_state")
        .filter((s) => s.value === 1)
        .map((s) => s.labels.state),
    ).toEqual(["idle"]);
    expect(family(samples, "bng_upgrade_state")).toHaveLength(6);
  });
});
