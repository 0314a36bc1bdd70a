/**
 * The appliance's faults a scenario injects, as a poller of `GET /api/v1/alarms` sees them: a BGP reset, back
 * within seconds, stays listed for a minute (simulator/alarms.ts MIN_ACTIVE_MS); a GRE circuit's eBGP session
 * alarms as a global neighbor does; a failed daemon raises daemon.down.
 */
import { describe, expect, it } from "vitest";
import { call, json } from "./client.ts";
import { admin, logEntries } from "./config-client.ts";
import { advance, get, scenario } from "./helpers.ts";
import type { AlarmsResponse as Alarms } from "../../src/schemas/alarms.ts";

const alarmsOf = async (id: string) => (await get<Alarms>("/api/v1/alarms")).active.filter((a) => a.id === id);
const neighbor = (body: Record<string, unknown>) =>
  call("/api/v1/routing/config/bgp/neighbors", json("POST", body, admin));

describe("a BGP reset", () => {
  it("is listed by GET /alarms for a minute, though the session is Established again within seconds", async () => {
    expect((await neighbor({ address: "192.0.2.254", remoteAs: 64511, description: "transit" })).status).toBe(200);
    await advance(60);
    await scenario({ action: "reset-bgp", neighbor: "192.0.2.254" });
    await advance(10);
    const [raised] = await alarmsOf("bgp.neighbor.down");
    expect(raised).toMatchObject({ instance: "192.0.2.254", severity: "major" });
    // A poller every 10 s for the next 50 s reads it each time, whatever the session did meanwhile.
    for (let t = 10; t <= 50; t += 10) {
      await advance(10);
      expect(
        (await alarmsOf("bgp.neighbor.down")).map((a) => a.instance),
        `+${t} s`,
      ).toEqual(["192.0.2.254"]);
    }
    await advance(70);
    expect(await alarmsOf("bgp.neighbor.down")).toEqual([]);
    const state = await get<{ state: string }>("/api/v1/routing/bgp/neighbor/192.0.2.254");
    expect(state.state).toBe("Established");
  });
});

describe("a GRE circuit's eBGP session", () => {
  it("raises bgp.neighbor.down with its tunnel's flap, as its neighbor address and VRF", async () => {
    const gw1 = { localAddress: "192.0.2.10" };
    const listener = await call("/api/v1/gre-circuits/listeners/gw1", json("PUT", gw1, admin));
    expect(listener.status).toBe(200);
    const circuit = {
      listenerId: "gw1",
      vrf: "wholesale",
      remote: "203.0.113.7",
      localTunnelAddress: "10.255.0.1/30",
      remoteTunnelAddress: "10.255.0.2/30",
      description: "ACME head office",
      peerAsn: 64512,
      maximumPrefix: 100,
      bfd: true,
    };
    expect((await call("/api/v1/gre-circuits", json("POST", { id: "acme-1", ...circuit }, admin))).status).toBe(200);
    // About one hour in seven the tunnel drops (simulator/gre.ts); with BFD its eBGP session drops with it.
    let flaps: unknown[] = [];
    for (let h = 0; h < 48 && flaps.length === 0; h++) {
      await advance(3600);
      flaps = (await logEntries("alarm.raise")).filter((e) => e.fields.id === "gre.circuit.down");
    }
    expect(flaps.length).toBeGreaterThan(0);
    const raises = (await logEntries("alarm.raise")).filter((e) => e.fields.id === "bgp.neighbor.down");
    expect(raises.map((e) => e.fields.instance)).toContain("10.255.0.2 vrf wholesale");
    const states = (await logEntries("bgp.neighbor.state")).filter((e) => e.fields.peer === "10.255.0.2 vrf wholesale");
    expect(states.some((e) => e.fields.from === "Established" && e.severity === "warning")).toBe(true);
  });
});

describe("a failed daemon", () => {
  it.each(["routing", "ipsec"])("raises daemon.down for %s while it does not answer", async (daemon) => {
    await scenario({ action: "fail-daemon", daemon });
    expect((await alarmsOf("daemon.down")).map((a) => [a.instance, a.severity])).toEqual([[daemon, "critical"]]);
    await advance(60);
    await scenario({ action: "revive-daemon", daemon });
    expect(await alarmsOf("daemon.down")).toEqual([]);
  });
});
