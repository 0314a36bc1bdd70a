/**
 * CGN compliance records (issue #25): the model tells of every port block allocated, released or identified, as a
 * retention system needs it.
 */
import { describe, expect, it } from "vitest";
import { Cgn, type PortBlockRecord } from "../../simulator/cgn.ts";
import { LogRing } from "../../simulator/logs.ts";
import { parseIpv4 } from "../../simulator/prefix.ts";
import { START, allBindings, gateway, profile } from "./helpers.ts";

/**
 * small.json's CGN group cgn-1 translates VRF cgn-inside (index 1) to 192.0.2.0/26 in 1024-port blocks from port 1024.
 */
const CGN_VRF = 1;
const inside = (n: number) => (parseIpv4("100.64.8.0") ?? 0) + n;

function recorded(): { cgn: Cgn; records: Omit<PortBlockRecord, "timeMs">[] } {
  const p = profile("small");
  const cgn = new Cgn(
    p.cgn,
    p.vrfs.map((v) => v.name),
    new LogRing(),
  );
  const records: Omit<PortBlockRecord, "timeMs">[] = [];
  cgn.onPortBlock = (kind, nowMs, b, chunk) => {
    const { timeMs, ...record } = cgn.portBlockRecord(kind, nowMs, b, chunk, () => "alice@isp");
    expect(timeMs).toBe(nowMs);
    records.push(record);
  };
  return { cgn, records };
}

const common = {
  bindingIndex: 0,
  group: "cgn-1",
  publicIp: "192.0.2.0",
  insideVrf: "cgn-inside",
  insideIp: "100.64.8.1",
  sessionId: 7,
  subscriberId: "alice@isp",
};

describe("CGN compliance records", () => {
  it(
    "tell of the first block, each extension and each block released, with the " +
      "public range, the inside address and VRF and the subscriber",
    () => {
      const { cgn, records } = recorded();
      const created = cgn.create(START, 0, CGN_VRF, inside(1), 7, 0, false);
      if (!created.ok) throw new Error(created.reason);
      cgn.setFlows(START + 10_000, created.binding, 3000);
      cgn.release(START + 20_000, created.binding);
      expect(records).toEqual([
        { kind: "allocated", ...common, portBlock: "1024-2047" },
        { kind: "allocated", ...common, portBlock: "2048-3071" },
        { kind: "allocated", ...common, portBlock: "3072-4095" },
        { kind: "released", ...common, portBlock: "1024-2047" },
        { kind: "released", ...common, portBlock: "2048-3071" },
        { kind: "released", ...common, portBlock: "3072-4095" },
      ]);
    },
  );

  it("tell of one Identify per port block of an identified auto-learned binding, naming the subscriber given", () => {
    const { cgn, records } = recorded();
    const created = cgn.create(START, 0, CGN_VRF, inside(2), 0, -1, true);
    if (!created.ok) throw new Error(created.reason);
    cgn.setFlows(START, created.binding, 1500);
    records.length = 0;
    expect(cgn.identify(START, created.binding, "bob@isp", () => "unused").ok).toBe(true);
    const identified = {
      kind: "identified",
      bindingIndex: 0,
      group: "cgn-1",
      publicIp: "192.0.2.0",
      insideVrf: "cgn-inside",
      insideIp: "100.64.8.2",
      sessionId: 0,
      subscriberId: "bob@isp",
    };
    expect(records).toEqual([
      { ...identified, portBlock: "1024-2047" },
      { ...identified, portBlock: "2048-3071" },
    ]);
  });

  it("account for every block a running gateway holds: allocated less released equals the bindings list", () => {
    const g = gateway(profile("small"));
    const held = new Map<string, number>();
    g.onPortBlock((r) => {
      const key = `${r.publicIp} ${r.portBlock}`;
      if (r.kind === "allocated") held.set(key, (held.get(key) ?? 0) + 1);
      if (r.kind === "released") held.set(key, (held.get(key) ?? 0) - 1);
    });
    g.step(3600);
    const blocks = allBindings(g).flatMap((row) => row.portBlocks.map((block) => `${row.publicIp} ${block}`));
    expect(blocks.length).toBeGreaterThan(0);
    expect(
      [...held]
        .filter(([, n]) => n !== 0)
        .map(([key]) => key)
        .sort(),
    ).toEqual(blocks.sort());
    expect([...held.values()].every((n) => n === 0 || n === 1)).toBe(true);
  });

  it("name a session's subscriber from its first block on, as the bindings list does", () => {
    const g = gateway(profile("small"));
    const allocated: PortBlockRecord[] = [];
    g.onPortBlock((r) => {
      if (r.kind === "allocated" && r.sessionId > 0) allocated.push(r);
    });
    g.step(600);
    const rows = new Map(allBindings(g).map((row) => [`${row.bindingIndex} ${row.sessionId}`, row]));
    const alive = allocated.filter((r) => rows.has(`${r.bindingIndex} ${r.sessionId}`));
    expect(alive.length).toBeGreaterThan(0);
    for (const r of alive) expect(r.subscriberId).toBe(rows.get(`${r.bindingIndex} ${r.sessionId}`)!.subscriberId);
  });
});
