import { describe, expect, it } from "vitest";
import { Cgn } from "../../simulator/cgn.ts";
import { LogRing } from "../../simulator/logs.ts";
import { parseIpv4 } from "../../simulator/prefix.ts";
import { Random } from "../../simulator/random.ts";
import { START, allBindings, expectConsistent, gateway, profile, restore } from "./helpers.ts";

function engine(patch: (raw: Record<string, any>) => void = () => {}): { cgn: Cgn; logs: LogRing } {
  const p = profile("small", patch);
  const logs = new LogRing();
  return {
    cgn: new Cgn(
      p.cgn,
      p.vrfs.map((v) => v.name),
      logs,
    ),
    logs,
  };
}
const CGN_VRF = 1;
const inside = (n: number) => (parseIpv4("100.64.8.0") ?? 0) + n;

describe("CGN bindings", () => {
  it("gives each binding port blocks on one public address, growing with flows up to portCap", () => {
    const { cgn } = engine();
    const created = cgn.create(START, 0, CGN_VRF, inside(1), 7, 0, false);
    if (!created.ok) throw new Error(created.reason);
    cgn.setFlows(START, created.binding, 3000);
    const row = cgn.row(created.binding, () => "user");
    expect(row.portBlocks).toHaveLength(3);
    for (const block of row.portBlocks) {
      const [start, end] = block.split("-").map(Number);
      expect((end ?? 0) - (start ?? 0) + 1).toBe(1024);
      expect(start).toBeGreaterThanOrEqual(1024);
    }
    cgn.setFlows(START, created.binding, 50_000);
    expect(cgn.row(created.binding, () => "user").portBlocks).toHaveLength(8192 / 1024);
    expect(cgn.status().nativeCounters.noMapping).toBe(50_000 - 8192);
  });

  it("counts each port block handed out once, first blocks and extensions alike", () => {
    const { cgn } = engine();
    const created = cgn.create(START, 0, CGN_VRF, inside(1), 7, 0, false);
    if (!created.ok) throw new Error(created.reason);
    cgn.setFlows(START, created.binding, 3000);
    // One first block and two extensions (1024-port chunks for 3,000 flows).
    expect(cgn.status().groups[0]?.portBlockAllocations).toBe(3);
  });

  it("refuses bindings beyond maxBindings and flows beyond maxFlows", () => {
    const { cgn } = engine((p) => {
      p.cgn.maxBindings = 3;
      p.cgn.maxFlows = 5000;
    });
    const made = [1, 2, 3].map((n) => cgn.create(START, 0, CGN_VRF, inside(n), n, n, false));
    expect(made.every((m) => m.ok)).toBe(true);
    expect(cgn.create(START, 0, CGN_VRF, inside(4), 4, 4, false)).toEqual({ ok: false, reason: "max-bindings" });
    for (const m of made) if (m.ok) cgn.setFlows(START, m.binding, 4000);
    expect(cgn.totalFlows).toBe(5000);
    expect(cgn.status().nativeCounters.noMapping).toBe(3 * 4000 - 5000);
  });

  it("quarantines released port blocks for quarantineSeconds before reuse", () => {
    const { cgn } = engine();
    const rng = new Random(1);
    const created = cgn.create(START, 0, CGN_VRF, inside(1), 7, 0, false);
    if (!created.ok) throw new Error();
    cgn.setFlows(START, created.binding, 2500);
    cgn.release(START, created.binding);
    const u = () => cgn.status().groups[0]?.utilisation;
    expect(u()?.quarantinedChunks).toBe(3);
    expect(u()?.usedChunks).toBe(0);
    cgn.tick(START + 110_000, rng);
    expect(u()?.quarantinedChunks).toBe(3);
    cgn.tick(START + 120_000, rng);
    expect(u()?.quarantinedChunks).toBe(0);
    const total = u();
    expect((total?.freeChunks ?? 0) + (total?.usedChunks ?? 0)).toBe(total?.totalChunks);
  });

  it("binds every CGN-translated session and no other", () => {
    const g = gateway(profile(), 31, 1800);
    const bindings = allBindings(g);
    const cgnSessions = g.sessions.list({ vrf: "cgn-inside", limit: 500 }).items;
    for (const s of cgnSessions.slice(0, 50)) {
      const d = g.sessions.detail(s.id);
      const bypassed = s.ipv4.startsWith("100.64.1.");
      expect(d.ok && d.session.cgn !== null).toBe(!bypassed);
    }
    for (const b of bindings.filter((x) => !x.autoLearned)) {
      expect(b.insideVrf).toBe("cgn-inside");
      const d = g.sessions.detail(b.sessionId);
      expect(d.ok && d.session.ipv4).toBe(b.insideIp);
    }
    expectConsistent(g, { justStepped: true, noReservations: true });
  });

  it("learns anonymous bindings from auto-learn prefixes, with session id 0", () => {
    const g = gateway(profile(), 32, 3 * 3600);
    const auto = allBindings(g).filter((b) => b.autoLearned);
    expect(auto.length).toBeGreaterThan(0);
    expect(g.cgn.status().autoLearnedBindings).toBe(auto.length);
    for (const b of auto) {
      expect(b.sessionId).toBe(0);
      expect(b.subscriberId).toBeNull();
      expect(b.insideIp.startsWith("100.127.")).toBe(true);
    }
  });
});

describe("CGN identify", () => {
  it("identifies an auto-learned binding with one Identify event per port block", () => {
    const g = gateway(profile(), 33, 3 * 3600);
    const auto = allBindings(g).find((b) => b.autoLearned);
    if (!auto) throw new Error("no auto-learned binding");
    const before = g.lastSeq;
    const r = g.identifyBinding(auto.bindingIndex, "customer-4711");
    expect(r.ok && r.binding.subscriberId).toBe("customer-4711");
    const events = g.logs.tail({ sinceSeq: before }).entries;
    expect(events.map((e) => e.msgId)).toEqual(auto.portBlocks.map(() => "cgn.identify"));
    expect(events.map((e) => e.fields.portBlock)).toEqual(auto.portBlocks);
    expect(events[0]?.fields).toMatchObject({
      bindingIndex: auto.bindingIndex,
      insideIp: auto.insideIp,
      publicIp: auto.publicIp,
      subscriberId: "customer-4711",
    });
  });

  it("refuses a session binding and an unknown index", () => {
    const g = gateway(profile(), 34, 600);
    const owned = allBindings(g).find((b) => !b.autoLearned);
    if (!owned) throw new Error();
    expect(g.identifyBinding(owned.bindingIndex, "x")).toEqual({ ok: false, reason: "not-auto-learned" });
    expect(g.identifyBinding(999_999, "x")).toEqual({ ok: false, reason: "unknown-binding" });
    expect(g.identifyBinding(-1, "x")).toEqual({ ok: false, reason: "unknown-binding" });
  });
});

describe("CGN bindings list", () => {
  const g = gateway(profile(), 35, 2 * 3600);
  const all = allBindings(g);

  it("is ordered by bindingIndex and pages with the spec's clamp (default 100, 1-1000)", () => {
    expect(g.cgn.bindings().limit).toBe(100);
    expect(g.cgn.bindings({ limit: 0 }).limit).toBe(1);
    expect(g.cgn.bindings({ limit: 99_999 }).limit).toBe(1000);
    const idx = all.map((b) => b.bindingIndex);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
    expect(g.cgn.bindings({ offset: 10, limit: 5 }).items).toEqual(all.slice(10, 15));
  });

  it("filters by group and VRF, exact and case-insensitive, with default meaning the global table", () => {
    expect(g.cgn.bindings({ group: "CGN-1" }).total).toBe(all.length);
    expect(g.cgn.bindings({ group: "cgn" }).total).toBe(0);
    expect(g.cgn.bindings({ vrf: "CGN-Inside" }).total).toBe(all.filter((b) => b.insideVrf === "cgn-inside").length);
    expect(g.cgn.bindings({ vrf: "default" }).total).toBe(0);
  });

  it("matches the ip filter on the inside or the public address", () => {
    const one = all[3];
    if (!one) throw new Error();
    expect(g.cgn.bindings({ ip: one.insideIp }).items.map((b) => b.bindingIndex)).toContain(one.bindingIndex);
    const samePublic = all.filter((b) => b.publicIp === one.publicIp || b.insideIp === one.publicIp);
    expect(g.cgn.bindings({ ip: one.publicIp, limit: 1000 }).items).toEqual(samePublic);
    expect(g.cgn.bindings({ ip: "100.127.0.0/16", limit: 1000 }).items).toEqual(
      all.filter((b) => b.insideIp.startsWith("100.127.")),
    );
    expect(g.cgn.bindings({ ip: "2001:db8::/32" }).total).toBe(0);
  });

  describe("from the indexes the model keeps", () => {
    const number = (ip: string) => ip.split(".").reduce((n, o) => n * 256 + Number(o), 0);
    /** The spec's ip filter as an operator reads it: a CIDR contains, other text is a prefix of the dotted quad. */
    const matches = (ip: string, address: string) => {
      if (!ip.includes("/")) return address.startsWith(ip);
      const [base, length] = ip.split("/");
      const size = 2 ** (32 - Number(length));
      return Math.floor(number(address) / size) === Math.floor(number(base!) / size);
    };
    const queries = [
      { ip: "100.64." },
      { ip: "100.6" },
      { ip: "100.64.0.0/12" },
      { ip: "192.0.2." },
      { ip: "192.0.2.7" },
      { ip: "100.", vrf: "cgn-inside" },
      { ip: "100.64.1", group: "cgn-1", vrf: "CGN-inside" },
      { vrf: "cgn-inside", group: "cgn-1" },
    ];
    const expectAsFiltered = (h: typeof g) => {
      const every = allBindings(h);
      for (const q of queries) {
        const wanted = every.filter(
          (b) =>
            (q.ip === undefined || matches(q.ip, b.insideIp) || matches(q.ip, b.publicIp)) &&
            (q.vrf === undefined || b.insideVrf === q.vrf.toLowerCase()) &&
            (q.group === undefined || b.group === q.group),
        );
        for (const offset of [0, 7, Math.max(0, wanted.length - 3)]) {
          const page = h.cgn.bindings({ ...q, offset, limit: 1000 });
          expect(page.total).toBe(wanted.length);
          expect(page.items).toEqual(wanted.slice(offset, offset + 1000));
        }
      }
      return every.length;
    };

    it(
      "answers every filter and combination as filtering the whole list would, as " +
        "bindings come and go and after a snapshot",
      () => {
        const h = gateway(profile(), 36, 3600);
        const before = new Map(allBindings(h).map((b) => [b.bindingIndex, b.sessionId]));
        expect(expectAsFiltered(h)).toBeGreaterThan(100);
        h.step(3 * 3600);
        // Bindings ended and others took their indices.
        expect(
          allBindings(h).filter((b) => before.has(b.bindingIndex) && before.get(b.bindingIndex) !== b.sessionId).length,
        ).toBeGreaterThan(0);
        expectAsFiltered(h);
        expectAsFiltered(restore(h));
      },
    );
  });
});

describe("CGN pool-high alarm", () => {
  it("is raised above the threshold with group context and cleared below the lower one", () => {
    const g = gateway(profile(), 36, 600);
    g.scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    const raised = g.alarms.list().active.find((a) => a.id === "cgn.pool.high");
    const u = g.cgn.status().groups[0]?.utilisation;
    expect(raised?.instance).toBe("cgn-1");
    expect(raised?.context).toEqual({
      group: "cgn-1",
      usedChunks: String(u?.usedChunks),
      totalChunks: String(u?.totalChunks),
    });
    g.scenario({ action: "drain-cgn-group", group: "cgn-1" });
    // Raised a moment ago: held for its first minute (alarms.ts MIN_ACTIVE_MS), then cleared.
    expect(g.alarms.list().active.find((a) => a.id === "cgn.pool.high")).toBeDefined();
    g.step(60);
    expect(g.alarms.list().active.find((a) => a.id === "cgn.pool.high")).toBeUndefined();
  });
});
