/** Alarm history from the log ring, against entries written by hand as the ring holds them. */
import { describe, expect, it } from "vitest";
import { alarmEvents, matches, objectPage, ringWindows } from "../../ui/pages/alarm-history.ts";
import type { LogEntry } from "../../src/schemas/logs.ts";

const entry = (
  seq: number,
  msgId: string,
  fields: LogEntry["fields"],
  severity: LogEntry["severity"] = "notice",
): LogEntry => ({ seq, timestamp: `2026-12-01T21:${String(seq).padStart(2, "0")}:00.000Z`, severity, msgId, fields });

const ring: LogEntry[] = [
  entry(
    10,
    "alarm.raise",
    { id: "pool.utilisation.high", instance: "cgn-inside-v4", severity: "major", text: "pool cgn-inside-v4 at 95 %" },
    "error",
  ),
  entry(11, "session.up", { sessionId: 42 }),
  entry(
    12,
    "alarm.raise",
    { id: "radius.all-dead", instance: null, severity: "critical", text: "every RADIUS server is dead" },
    "critical",
  ),
  entry(13, "alarm.clear", { id: "pool.utilisation.high", instance: "cgn-inside-v4", manual: false }),
  entry(14, "alarm.clear", { id: "radius.all-dead", instance: null, manual: true }),
  // A clear whose raise aged out of the ring.
  entry(15, "alarm.clear", { id: "bgp.neighbor.down", instance: "10.0.255.1", manual: false }),
];

describe("alarm history", () => {
  const events = alarmEvents(ring);

  it("lists raises and clears newest first, each clear with its raise's severity and text", () => {
    expect(events.map((e) => [e.seq, e.event, e.id, e.instance, e.severity, e.manual])).toEqual([
      [15, "cleared", "bgp.neighbor.down", "10.0.255.1", null, false],
      [14, "cleared", "radius.all-dead", null, "critical", true],
      [13, "cleared", "pool.utilisation.high", "cgn-inside-v4", "major", false],
      [12, "raised", "radius.all-dead", null, "critical", false],
      [10, "raised", "pool.utilisation.high", "cgn-inside-v4", "major", false],
    ]);
    expect(events[2]!.text).toBe("pool cgn-inside-v4 at 95 %");
  });

  it("filters by severity, object and event", () => {
    const shown = (f: { severity?: string; object?: string; event?: string }) =>
      events.filter((e) => matches(e, { severity: "", object: "", event: "", ...f })).map((e) => e.seq);
    expect(shown({ severity: "critical" })).toEqual([14, 12]);
    expect(shown({ object: "CGN-INSIDE" })).toEqual([13, 10]);
    expect(shown({ object: "radius", event: "raised" })).toEqual([12]);
  });

  it("reads the whole ring of 10,000 in windows of 1,000, newest first", () => {
    expect(ringWindows(25_000, 10_000, 1000)).toEqual([
      24_000, 23_000, 22_000, 21_000, 20_000, 19_000, 18_000, 17_000, 16_000, 15_000,
    ]);
    // A young ring: from 0, the last window shorter.
    expect(ringWindows(2500, 10_000, 1000)).toEqual([1500, 500, 0]);
    expect(ringWindows(0, 10_000, 1000)).toEqual([0]);
  });

  it("links an alarm to its object's page", () => {
    expect(objectPage("pool.utilisation.high", "cgn-inside-v4")).toBe("/pools/cgn-inside-v4");
    expect(objectPage("bgp.neighbor.down", "10.0.255.1")).toBe("/routing");
    expect(objectPage("radius.all-dead", null)).toBe("/radius");
    expect(objectPage("unknown.alarm", null)).toBeNull();
  });
});
