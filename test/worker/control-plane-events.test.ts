import { describe, expect, it } from "vitest";
import { call, json } from "./client.ts";
import { admin, commit, logEntries } from "./config-client.ts";
import { advance, get } from "./helpers.ts";
import type { AlarmsResponse as Alarms } from "../../src/schemas/alarms.ts";
import type { IgpStatus } from "../../src/schemas/routing.ts";

const bgpAlarms = async () => (await get<Alarms>("/api/v1/alarms")).active.filter((a) => a.id === "bgp.neighbor.down");
const neighbor = (body: Record<string, unknown>) =>
  call("/api/v1/routing/config/bgp/neighbors", json("POST", body, admin));
const replace = (address: string, body: Record<string, unknown>) =>
  call(`/api/v1/routing/config/bgp/neighbors/${address}`, json("PUT", body, admin));

describe("BGP session events", () => {
  it("log each state change, and alarm while an Established session is down", async () => {
    expect((await neighbor({ address: "192.0.2.254", remoteAs: 64511, description: "transit" })).status).toBe(200);
    await advance(60);
    const upward = (await logEntries("bgp.neighbor.state"))
      .filter((e) => e.fields.peer === "192.0.2.254")
      .map((e) => e.fields.to);
    // Sampled every 10 s step: the short handshake states may fall between two samples.
    expect(upward.at(-1)).toBe("Established");
    expect(await bgpAlarms()).toEqual([]);

    // A new remote AS resets the session, as it would on a router: down, then up again.
    expect((await replace("192.0.2.254", { remoteAs: 64512, description: "transit" })).status).toBe(200);
    await advance(10);
    const fall = (await logEntries("bgp.neighbor.state")).find(
      (e) => e.fields.peer === "192.0.2.254" && e.fields.from === "Established",
    );
    expect(fall).toMatchObject({ severity: "warning", fields: { to: expect.not.stringMatching(/^Established$/) } });
    // Raised when it fell (a reset quicker than a step is raised and cleared at once), cleared once it is back.
    expect((await logEntries("alarm.raise")).map((e) => [e.fields.id, e.fields.instance])).toEqual([
      ["bgp.neighbor.down", "192.0.2.254"],
    ]);
    await advance(60);
    expect(await bgpAlarms()).toEqual([]);
    expect((await logEntries("alarm.clear")).map((e) => [e.fields.id, e.fields.instance])).toEqual([
      ["bgp.neighbor.down", "192.0.2.254"],
    ]);
  });

  it("do not alarm an operator's shutdown, which is logged like any change", async () => {
    await neighbor({ address: "192.0.2.254", remoteAs: 64511 });
    await advance(60);
    await replace("192.0.2.254", { remoteAs: 64511, shutdown: true });
    await advance(10);
    const last = (await logEntries("bgp.neighbor.state")).filter((e) => e.fields.peer === "192.0.2.254").at(-1);
    expect(last).toMatchObject({ severity: "notice", fields: { from: "Established", to: "Idle (Admin)" } });
    expect((await logEntries("alarm.raise")).filter((e) => e.fields.id === "bgp.neighbor.down")).toEqual([]);
  });
});

describe("IPsec and IGP events", () => {
  const PSK = "correct-horse-battery-staple";
  it("log an IPsec connection coming up, and treat switching IPsec off as no fault", async () => {
    await commit({
      listOps: [
        {
          listPath: "ipsec.peers",
          key: "branch-1",
          fields: { remoteAddress: "203.0.113.10", psk: PSK, remoteTs: "192.168.50.0/24" },
        },
      ],
    });
    await commit({ fields: { "ipsec.enabled": "true" } });
    await advance(60);
    const states = (await logEntries("ipsec.peer.state"))
      .filter((e) => e.fields.peer === "branch-1")
      .map((e) => e.fields.to);
    expect(states.at(-1)).toBe("ESTABLISHED");
    await commit({ fields: { "ipsec.enabled": "false" } });
    await advance(10);
    expect((await logEntries("ipsec.peer.state")).at(-1)?.fields).toEqual({
      peer: "branch-1",
      from: "ESTABLISHED",
      to: "DISABLED",
    });
    expect((await logEntries("alarm.raise")).filter((e) => e.fields.id === "ipsec.peer.down")).toEqual([]);
    expect(JSON.stringify(await logEntries("ipsec.peer.state"))).not.toContain(PSK);
  });

  it("log the seeded IGP adjacencies coming up on a fresh appliance", async () => {
    await advance(120);
    const up = (await logEntries("igp.adjacency.state")).filter((e) => e.fields.to === "Full" || e.fields.to === "Up");
    expect(up.length).toBeGreaterThan(0);
    const igp = await get<IgpStatus>("/api/v1/routing/igp");
    for (const a of igp.adjacencies.filter((x) => x.state === "Full" || x.state === "Up"))
      expect(up.map((e) => e.fields.adjacency)).toContain(`${a.interface} ${a.neighborId}`);
  });
});
