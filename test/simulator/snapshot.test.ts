import { describe, expect, it } from "vitest";
import { Gateway, decodeSnapshot, encodeSnapshot, type GatewaySnapshot } from "../../simulator/index.ts";
import { allSessions, expectConsistent, gateway, observe, profile } from "./helpers.ts";

function roundTrip(snapshot: GatewaySnapshot, chunkBytes: number): GatewaySnapshot {
  const chunks = encodeSnapshot(snapshot, chunkBytes);
  for (const c of chunks) expect(c.byteLength).toBeLessThanOrEqual(chunkBytes);
  const decoded = decodeSnapshot(chunks);
  if (!decoded.ok) throw new Error(decoded.reason);
  return decoded.snapshot;
}

function restore(g: Gateway, chunkBytes = 64 * 1024): Gateway {
  const r = Gateway.restore(g.profile, roundTrip(g.snapshot(), chunkBytes));
  if (!r.ok) throw new Error(r.reason);
  return r.gateway;
}

describe("snapshot and restore", () => {
  it("restores a model that evolves identically to the original", () => {
    const original = gateway(profile(), 21, 2 * 3600);
    original.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    original.scenario({ action: "fill-pool", pool: "cgn-inside-v4", percent: 50 });
    original.step(125);
    original.startCapture(original.sessions.list({ limit: 1 }).items[0]?.id ?? 0, "198.51.100.9", null, 600);
    const copy = restore(original);
    for (const g of [original, copy]) {
      g.step(1800);
      g.scenario({ action: "disconnect-sessions", share: 0.25, filter: { vrf: "default" } });
      g.scenario({ action: "revive-radius-server", server: "radius-1.isp.example" });
      g.step(3600);
    }
    // Metrics history restarts with the process (spec), so compare everything else.
    expect(observe(copy)).toBe(observe(original));
    expectConsistent(copy, { justStepped: true });
  });

  it("restores a snapshot written when the session table and CGN bindings were allocated at their limits", () => {
    const g = gateway(profile(), 24, 3600);
    const snapshot = g.snapshot();
    // Then the free-slot stack also listed every never-used slot, from the licensed capacity down to the high-water
    // mark.
    const store = (snapshot.meta as { store: { highWater: number; free: { $blob: number } } }).store;
    const freed = snapshot.blobs[store.free.$blob] as Int32Array;
    const capacity = g.profile.population.licensedSessions;
    expect(store.highWater).toBeLessThan(capacity);
    const old = Int32Array.from([
      ...Array.from({ length: capacity - store.highWater }, (_, i) => capacity - 1 - i),
      ...freed,
    ]);
    snapshot.blobs[store.free.$blob] = old;
    // So did the CGN's free binding indices, from maxBindings down.
    const cgn = (snapshot.meta as { cgn: { highWater: number; freeSlots: { $blob: number } } }).cgn;
    const maxBindings = g.profile.cgn.maxBindings;
    const cgnFreed = snapshot.blobs[cgn.freeSlots.$blob] as Int32Array;
    expect(cgn.highWater).toBeLessThan(maxBindings);
    const cgnOld = Int32Array.from([
      ...Array.from({ length: maxBindings - cgn.highWater }, (_, i) => maxBindings - 1 - i),
      ...cgnFreed,
    ]);
    snapshot.blobs[cgn.freeSlots.$blob] = cgnOld;
    const r = Gateway.restore(g.profile, roundTrip(snapshot, 64 * 1024));
    if (!r.ok) throw new Error(r.reason);
    for (const x of [g, r.gateway]) {
      x.scenario({ action: "set-churn-multiplier", multiplier: 20 });
      x.step(3600);
    }
    expect(observe(r.gateway)).toBe(observe(g));
    expectConsistent(r.gateway, { justStepped: true });
  });

  it(
    "restores a snapshot written before rates were whole: same counters, no PPP " +
      "lease, and it carries on as the original",
    () => {
      const g = gateway(profile(), 27, 3600);
      g.step(10);
      const snapshot = g.snapshot();
      const columns = (
        snapshot.meta as { store: { columns: Record<string, { $blob: number; type: string } | undefined> } }
      ).store.columns;
      const blob = <T>(name: string) => snapshot.blobs[columns[name]?.$blob ?? -1] as T;
      const [alive, ids, encap] = [blob<Uint8Array>("alive"), blob<Uint32Array>("id"), blob<Uint8Array>("encap")];
      // That version kept float32 rates, bytes counted through the latest step, and a PPP session's lease as 0.
      const rx = Float32Array.from(blob<Float64Array>("rxBps"), (r) => r + 0.25);
      const tx = Float32Array.from(blob<Float64Array>("txBps"), (r) => r + 0.25);
      const [rxBytes, txBytes, lease] = [
        blob<Float64Array>("rxBytes"),
        blob<Float64Array>("txBytes"),
        blob<Float64Array>("leaseMs"),
      ];
      const [rxPkts, txPkts] = [blob<Float64Array>("rxPkts"), blob<Float64Array>("txPkts")];
      let ppp = 0;
      for (let slot = 0; slot < alive.length; slot++) {
        if (alive[slot] !== 1) continue;
        const d = g.sessions.detail(ids[slot] ?? 0);
        if (!d.ok) throw new Error(`slot ${slot}`);
        rxBytes[slot] = d.session.counters.rxBytes;
        txBytes[slot] = d.session.counters.txBytes;
        rxPkts[slot] = d.session.counters.rxPackets;
        txPkts[slot] = d.session.counters.txPackets;
        if (d.session.encap !== "ipoe") {
          expect(d.session.leaseExpiresUtc).toBeNull();
          lease[slot] = 0;
          ppp++;
        }
      }
      expect(ppp).toBeGreaterThan(100);
      for (const [name, rates] of [
        ["rxBps", rx],
        ["txBps", tx],
      ] as const) {
        const marker = columns[name];
        if (!marker) throw new Error(name);
        snapshot.blobs[marker.$blob] = rates;
        marker.type = "Float32Array";
      }
      delete columns.rateTick;
      expect(encap.length).toBe(alive.length);
      const r = Gateway.restore(g.profile, roundTrip(snapshot, 64 * 1024));
      if (!r.ok) throw new Error(r.reason);
      // The same sessions, counters and leases; rates as float32 held them, rounded to whole bits per second.
      const details = (x: Gateway) => allSessions(x).map((s) => x.sessions.detail(s.id));
      const without = (x: Gateway) => details(x).map((d) => (d.ok ? { ...d.session, rates: null } : d));
      expect(without(r.gateway)).toEqual(without(g));
      for (const s of allSessions(g)) {
        const [a, b] = [g, r.gateway].map((x) => x.sessions.rates(s.id));
        if (!a?.ok || !b?.ok) throw new Error(`session ${s.id}`);
        expect(Math.abs(b.rates.txBps - a.rates.txBps)).toBeLessThanOrEqual(1 + a.rates.txBps * 2 ** -24);
        expect(Math.abs(b.rates.rxBps - a.rates.rxBps)).toBeLessThanOrEqual(1 + a.rates.rxBps * 2 ** -24);
      }
      // An hour on, every rate has been redrawn: the same sessions, the same rates and port rates (PPP sessions never
      // lapsed).
      for (const x of [g, r.gateway]) x.step(3600);
      expect(observe(r.gateway)).toBe(observe(g));
      const rates = (x: Gateway) => allSessions(x).map((s) => x.sessions.rates(s.id));
      expect(rates(r.gateway)).toEqual(rates(g));
      const ports = (x: Gateway) => x.metrics.history("1h").ports.map((p) => [p.rxBps.at(-1), p.txBps.at(-1)]);
      expect(ports(r.gateway)).toEqual(ports(g));
    },
  );

  it(
    "restores a snapshot written before packets were counted as drawn: packet " +
      "counters go on from the bytes at 400 and 1,100 bytes",
    () => {
      const g = gateway(profile(), 29, 3600);
      const snapshot = g.snapshot();
      const columns = (snapshot.meta as { store: { columns: Record<string, unknown> } }).store.columns;
      for (const name of ["rxPps", "txPps", "rxPkts", "txPkts"]) delete columns[name];
      const r = Gateway.restore(g.profile, roundTrip(snapshot, 64 * 1024));
      if (!r.ok) throw new Error(r.reason);
      const sessions = allSessions(g);
      expect(sessions.length).toBeGreaterThan(100);
      for (const s of sessions) {
        const [a, b] = [g, r.gateway].map((x) => x.sessions.detail(s.id));
        if (!a?.ok || !b?.ok) throw new Error(`session ${s.id}`);
        // That version showed the bytes at its average packet sizes (400 bytes up, 1,100 down). Since the last draw
        // (at most 30 s) the rate is a whole number of packets a second: at most half a packet a second off, 15 + 1.
        const { rxPackets, txPackets, ...bytes } = b.session.counters;
        expect(bytes).toEqual({ rxBytes: a.session.counters.rxBytes, txBytes: a.session.counters.txBytes });
        expect(Math.abs(rxPackets - a.session.counters.rxBytes / 400)).toBeLessThanOrEqual(16);
        expect(Math.abs(txPackets - a.session.counters.txBytes / 1100)).toBeLessThanOrEqual(16);
      }
      // And they only go up from there.
      const before = allSessions(r.gateway).map((s) => r.gateway.sessions.detail(s.id));
      r.gateway.step(60);
      for (const d of before) {
        if (!d.ok) continue;
        const after = r.gateway.sessions.detail(d.session.id);
        if (!after.ok) continue;
        expect(after.session.counters.rxPackets).toBeGreaterThanOrEqual(d.session.counters.rxPackets);
        expect(after.session.counters.txPackets).toBeGreaterThanOrEqual(d.session.counters.txPackets);
      }
    },
  );

  it("keeps log sequence numbers monotonic across a restore", () => {
    const g = gateway(profile(), 22, 600);
    const before = g.lastSeq;
    const copy = restore(g);
    expect(copy.lastSeq).toBe(before);
    expect(copy.logs.tail({ count: 1000 })).toEqual(g.logs.tail({ count: 1000 }));
    copy.appendLog("notice", "auth.login", { username: "admin" });
    expect(copy.logs.tail({ count: 1 }).entries[0]!.seq).toBe(before + 1);
  });

  it("splits the state into chunks no larger than the limit", () => {
    const g = gateway(profile(), 23, 60);
    const chunks = encodeSnapshot(g.snapshot(), 32 * 1024);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.byteLength).toBeLessThanOrEqual(32 * 1024);
  });

  it("refuses a snapshot taken with a different profile", () => {
    const g = gateway(profile(), 24, 60);
    const other = profile("small", (raw) => (raw.walledGardenShare = 0.5));
    expect(Gateway.restore(other, g.snapshot())).toEqual({ ok: false, reason: "profile-mismatch" });
  });

  it("streams the state chunk by chunk from the model's arrays, and restores from chunks read one at a time", () => {
    const original = gateway(profile(), 25, 1800);
    // The store's way: chunks produced one at a time (views of the live arrays), each kept as a stored row would be.
    const stored = [...original.snapshotChunks(16 * 1024)].map((chunk) => chunk.slice().buffer);
    expect(stored.length).toBeGreaterThan(1);
    for (const c of stored) expect(c.byteLength).toBeLessThanOrEqual(16 * 1024);
    // Read back through an iterator that yields each row only when asked, as a SQL cursor does.
    let handedOut = 0;
    const decoded = decodeSnapshot(
      (function* () {
        for (const c of stored) {
          handedOut++;
          yield c;
        }
      })(),
    );
    if (!decoded.ok) throw new Error(decoded.reason);
    expect(handedOut).toBe(stored.length);
    const copy = Gateway.restore(original.profile, decoded.snapshot);
    if (!copy.ok) throw new Error(copy.reason);
    for (const g of [original, copy.gateway]) g.step(1200);
    expect(observe(copy.gateway)).toBe(observe(original));
  });

  it("gives two gateways restored from one decoded snapshot state of their own", () => {
    const original = gateway(profile(), 26, 1800);
    const decoded = decodeSnapshot(encodeSnapshot(original.snapshot(), 64 * 1024));
    if (!decoded.ok) throw new Error(decoded.reason);
    const first = Gateway.restore(original.profile, decoded.snapshot);
    const second = Gateway.restore(original.profile, decoded.snapshot);
    if (!first.ok || !second.ok) throw new Error("restore failed");
    const before = observe(second.gateway);
    // The first adopted the decoded buffers; churning it must not move the second.
    first.gateway.scenario({ action: "disconnect-sessions", share: 0.5, filter: {} });
    first.gateway.step(600);
    expect(observe(second.gateway)).toBe(before);
    expect(observe(second.gateway)).toBe(observe(original));
  });

  it("refuses bytes that are not a snapshot", () => {
    expect(decodeSnapshot([new Uint8Array([1, 2, 3, 4, 5, 6])])).toEqual({ ok: false, reason: "bad-format" });
    expect(decodeSnapshot([])).toEqual({ ok: false, reason: "bad-format" });
    expect(Gateway.restore(profile(), { format: "other", meta: null, blobs: [] } as never)).toEqual({
      ok: false,
      reason: "bad-format",
    });
  });
});
