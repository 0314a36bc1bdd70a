import { describe, expect, it } from "vitest";
import { AlarmNotifier, recipients, type AlertSink } from "../../simulator/alert-fanout.ts";
import { gateway } from "./helpers.ts";

const sink = (name: string, severityFloor: AlertSink["severityFloor"]): AlertSink => ({
  name,
  kind: "webhook",
  url: "https://noc.example/hook",
  severityFloor,
  credential: null,
});

describe("severity floors", () => {
  it("send an alert to every sink whose floor it meets, and to no other", () => {
    const sinks = [sink("pager", "critical"), sink("noc", "major"), sink("archive", "warning")];
    expect(recipients("critical", sinks).map((s) => s.name)).toEqual(["pager", "noc", "archive"]);
    expect(recipients("major", sinks).map((s) => s.name)).toEqual(["noc", "archive"]);
    expect(recipients("minor", sinks).map((s) => s.name)).toEqual(["archive"]);
  });
});

/**
 * A gateway ten minutes in, and every notification its log ring causes from now on (null for entries that notify
 * nobody).
 */
function notifiedGateway() {
  const g = gateway(undefined, 1, 600);
  const notifier = new AlarmNotifier("edge-1");
  const sent: ReturnType<AlarmNotifier["observe"]>[] = [];
  g.onLog((entry) => sent.push(notifier.observe(entry, g.nowMs, () => g.alarms.list())));
  return { g, sent };
}

describe("the alarm notifier", () => {
  it("turns the alarm book's raise and clear into notifications carrying the alarm as raised", () => {
    const { g, sent } = notifiedGateway();
    g.scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    g.step(60);
    const raised = sent.filter((n) => n?.kind === "raised");
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({
      version: "1",
      appliance: "edge-1",
      alarm: { id: "cgn.pool.high", instance: "cgn-1", severity: "major" },
      activeAlarms: { major: 1 },
    });
    g.scenario({ action: "drain-cgn-group", group: "cgn-1" });
    g.step(60);
    const cleared = sent.filter((n) => n?.kind === "cleared");
    expect(cleared).toHaveLength(1);
    expect(cleared[0]!.alarm).toMatchObject({
      id: "cgn.pool.high",
      instance: "cgn-1",
      firstRaisedUtc: raised[0]!.alarm.firstRaisedUtc,
    });
    expect(cleared[0]!.alarm.ageSeconds).toBeGreaterThan(0);
    expect(cleared[0]!.activeAlarms.major).toBe(0);
    // Every other entry (sessions, CGN allocations, scenario audit) notifies nobody.
    expect(sent.filter((n) => n !== null)).toHaveLength(2);
  });

  it("tells the sinks each active alarm ended when the data plane reboots", () => {
    const { g, sent } = notifiedGateway();
    g.scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    g.step(60);
    g.scenario({ action: "reseed", seed: 2 });
    expect(sent.filter((n) => n !== null).map((n) => [n!.kind, n!.alarm.id])).toEqual([
      ["raised", "cgn.pool.high"],
      ["cleared", "cgn.pool.high"],
    ]);
    expect(g.alarms.list().count).toBe(0);
  });
});
