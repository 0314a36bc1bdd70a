import { describe, expect, it } from "vitest";
import { LOG_CAPACITY, LOG_CATALOGUE, type LogEntry } from "../../simulator/index.ts";
import { LogRing } from "../../simulator/logs.ts";
import { START, gateway, profile } from "./helpers.ts";

function ringWith(n: number): LogRing {
  const ring = new LogRing();
  for (let i = 0; i < n; i++) ring.append(START + i * 1000, "info", "test.entry", { i });
  return ring;
}

describe("log ring", () => {
  it("returns the most recent entries oldest first, count defaulting to 100 and clamped to 1-1000", () => {
    const ring = ringWith(1500);
    expect(ring.tail().entries.map((e) => e.seq)).toEqual(Array.from({ length: 100 }, (_, i) => 1401 + i));
    expect(ring.tail({ count: 0 }).entries.map((e) => e.seq)).toEqual([1500]);
    expect(ring.tail({ count: 5000 }).entries).toHaveLength(1000);
    expect(ring.tail().lastSeq).toBe(1500);
  });

  it("returns up to count entries newer than sinceSeq, for polling by lastSeq", () => {
    const ring = ringWith(50);
    const first = ring.tail({ sinceSeq: 10, count: 5 });
    expect(first.entries.map((e) => e.seq)).toEqual([11, 12, 13, 14, 15]);
    expect(ring.tail({ sinceSeq: 50 }).entries).toEqual([]);
    ring.append(START, "notice", "test.entry", {});
    expect(ring.tail({ sinceSeq: 50 }).entries.map((e) => e.seq)).toEqual([51]);
  });

  it("keeps 10,000 entries and ages out the oldest without reusing sequence numbers", () => {
    expect(LOG_CAPACITY).toBe(10_000);
    const ring = ringWith(LOG_CAPACITY + 250);
    expect(ring.size).toBe(LOG_CAPACITY);
    expect(ring.tail({ sinceSeq: 0, count: 1 }).entries[0]?.seq).toBe(251);
    expect(ring.lastSeq).toBe(LOG_CAPACITY + 250);
  });

  it("shapes entries as the spec's LogEntry", () => {
    const e = ringWith(1).tail().entries[0];
    expect(e).toEqual({
      seq: 1,
      timestamp: new Date(START).toISOString(),
      severity: "info",
      msgId: "test.entry",
      fields: { i: 0 },
    });
  });

  it("pushes new entries to subscribers until they unsubscribe", () => {
    const ring = new LogRing();
    const seen: LogEntry[] = [];
    const stop = ring.subscribe((e) => seen.push(e));
    ring.append(START, "info", "a", {});
    stop();
    ring.append(START, "info", "b", {});
    expect(seen.map((e) => e.msgId)).toEqual(["a"]);
  });

  it("drops a subscriber that throws without breaking the model", () => {
    const ring = new LogRing();
    let calls = 0;
    ring.subscribe(() => {
      calls++;
      throw new Error("stream closed");
    });
    ring.append(START, "info", "a", {});
    ring.append(START, "info", "b", {});
    expect(calls).toBe(1);
    expect(ring.lastSeq).toBe(2);
  });
});

describe("model logging", () => {
  it("emits only catalogued msgIds with exactly their catalogued fields", () => {
    const g = gateway(profile(), 71, 600);
    g.scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    // Subscribers dialling again into a pool filled meanwhile.
    g.scenario({ action: "disconnect-sessions", share: 0.2, filter: { vrf: "wholesale" } });
    g.scenario({ action: "fill-pool", pool: "wholesale-v4", percent: 100 });
    g.startCapture(g.sessions.list({ limit: 1 }).items[0]?.id ?? 0, "192.0.2.1", 1, null);
    g.step(900);
    const entries = g.logs.tail({ sinceSeq: 0, count: 1000 }).entries.concat(g.logs.tail({ count: 1000 }).entries);
    const catalogue = LOG_CATALOGUE as Record<string, { fields: readonly string[] }>;
    const seen = new Set<string>();
    for (const e of entries) {
      seen.add(e.msgId);
      expect(Object.keys(catalogue), e.msgId).toContain(e.msgId);
      expect(Object.keys(e.fields).sort(), e.msgId).toEqual([...(catalogue[e.msgId]?.fields ?? [])].sort());
    }
    for (const id of [
      "session.up",
      "scenario.action",
      "radius.server.dead",
      "alarm.raise",
      "capture.start",
      "capture.stop",
      "pool.exhausted",
    ]) {
      expect(seen, id).toContain(id);
    }
  });

  it("samples session events during bring-up and aggregates the rest per sub-step", () => {
    const p = profile();
    const g = gateway(p, 72);
    g.step(10);
    const entries = g.logs.tail({ count: 1000 }).entries;
    const up = entries.filter((e) => e.msgId === "session.up");
    expect(up).toHaveLength(p.logging.sessionEventsPerStep);
    const activity = entries.filter((e) => e.msgId === "session.activity");
    expect(activity).toHaveLength(1);
    expect(activity[0]?.fields).toMatchObject({
      up: g.sessions.summary().total,
      unloggedUp: g.sessions.summary().total - up.length,
    });
  });

  it("appends external events with the model's clock and the next seq", () => {
    const g = gateway(profile(), 73, 60);
    const seq = g.lastSeq;
    g.appendLog("notice", "auth.login", { username: "admin", sourceIp: "192.0.2.10" });
    expect(g.logs.tail({ count: 1 }).entries[0]).toEqual({
      seq: seq + 1,
      timestamp: new Date(g.nowMs).toISOString(),
      severity: "notice",
      msgId: "auth.login",
      fields: { username: "admin", sourceIp: "192.0.2.10" },
    });
  });
});
