import { describe, expect, it } from "vitest";
import { call, json } from "./client.ts";
import { admin, logEntries } from "./config-client.ts";
import { advance, get } from "./helpers.ts";

type Alarms = { active: { id: string; instance: string | null; severity: string }[] };
const bgpAlarms = async () => (await get<Alarms>("/api/v1/alarms")).active.filter((a) => a.id === "bgp.neighbor.down");
const neighbor = (body: Record<string, unknown>) => call("/api/v1/routing/config/bgp/neighbors", json("POST", body, admin));
const replace = (address: string, body: Record<string, unknown>) => call(`/api/v1/routing/config/bgp/neighbors/${address}`, json("PUT", body, admin));

describe("BGP session events", () => {
  it("log each state change, and alarm while an Established session is down", async () => {
    expect((await neighbor({ address: "192.0.2.254", remoteAs: 64511, description: "transit" })).status).toBe(200);
    await advance(60);
    const upward = (await logEntries("bgp.neighbor.state")).filter((e) => e.fields.peer === "192.0.2.254").map((e) => e.fields.to);
    // Sampled every 10 s step: the short handshake states may fall between two samples.
    expect(upward.at(-1)).toBe("Established");
    expect(await bgpAlarms()).toEqual([]);

    // A new remote AS resets the session, as it would on a router: down, then up again.
    expect((await replace("192.0.2.254", { remoteAs: 64512, description: "transit" })).status).toBe(200);
    await advance(10);
    const fall = (await logEntries("bgp.neighbor.state")).find((e) => e.fields.peer === "192.0.2.254" && e.fields.from === "Established");
    expect(fall).toMatchObject({ severity: "warning", fields: { to: expect.not.stringMatching(/^Established$/) } });
    // Raised when it fell (a reset quicker than a step is raised and cleared at once), cleared once it is back.
    expect((await logEntries("alarm.raise")).map((e) => [e.fields.id, e.fields.instance])).toEqual([["bgp.neighbor.down", "192.0.2.254"]]);
    await advance(60);
    expect(await bgpAlarms()).toEqual([]);
    expect((await logEntries("alarm.clear")).map((e) => [e.fields.id, e.fields.instance])).toEqual([["bgp.neighbor.down", "192.0.2.254"]]);
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
