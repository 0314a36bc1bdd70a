import { describe, expect, it } from "vitest";
import {
  BGP_WATCH,
  GRE_WATCH,
  IGP_WATCH,
  IPSEC_WATCH,
  StateWatch,
  type WatchSink,
} from "../../simulator/control-plane-watch.ts";

/** A sink that records what the watcher logs and how it feeds each alarm. */
function recorder() {
  const logs: { severity: string; msgId: string; fields: Record<string, unknown> }[] = [];
  const alarms: { id: string; instance: string; high?: boolean; low?: boolean; retired?: true }[] = [];
  const sink: WatchSink = {
    log: (severity, msgId, fields) => logs.push({ severity, msgId, fields }),
    observeAlarm: (id, instance, high, low) => alarms.push({ id, instance, high, low }),
    retireAlarm: (id, instance) => alarms.push({ id, instance, retired: true }),
  };
  return { sink, logs, alarms };
}

describe("the control-plane watcher", () => {
  it("takes the first sample as its baseline, logs a neighbor configured later from Idle, then every change", () => {
    const { sink, logs } = recorder();
    const watch = new StateWatch(BGP_WATCH);
    watch.sample([{ key: "10.0.255.1", state: "Connect" }], sink);
    watch.sample([{ key: "10.0.255.1", state: "OpenSent" }], sink);
    watch.sample([{ key: "10.0.255.1", state: "OpenSent" }], sink);
    watch.sample([{ key: "10.0.255.1", state: "Established" }], sink);
    watch.sample(
      [
        { key: "10.0.255.1", state: "Established" },
        { key: "192.0.2.254", state: "OpenSent" },
      ],
      sink,
    );
    expect(logs.map((l) => [l.fields.from, l.fields.to])).toEqual([
      ["Connect", "OpenSent"],
      ["OpenSent", "Established"],
      ["Idle", "OpenSent"],
    ]);
  });

  it("raises when an Established session falls, and clears when it is back", () => {
    const { sink, logs, alarms } = recorder();
    const watch = new StateWatch(BGP_WATCH);
    watch.sample([{ key: "10.0.255.1", state: "Established" }], sink);
    watch.sample([{ key: "10.0.255.1", state: "Idle" }], sink);
    watch.sample([{ key: "10.0.255.1", state: "Established" }], sink);
    expect(logs.map((l) => l.severity)).toEqual(["warning", "notice"]);
    expect(alarms).toEqual([
      { id: "bgp.neighbor.down", instance: "10.0.255.1", high: true, low: false },
      { id: "bgp.neighbor.down", instance: "10.0.255.1", high: false, low: true },
    ]);
  });

  it("treats an operator's shutdown as no fault, and a deleted neighbor as over at once", () => {
    const { sink, alarms } = recorder();
    const watch = new StateWatch(BGP_WATCH);
    watch.sample(
      [
        { key: "a", state: "Established" },
        { key: "b", state: "Established" },
      ],
      sink,
    );
    watch.sample(
      [
        { key: "a", state: "Idle (Admin)" },
        { key: "b", state: "Active" },
      ],
      sink,
    );
    watch.sample([{ key: "a", state: "Idle (Admin)" }], sink);
    expect(alarms).toEqual([
      { id: "bgp.neighbor.down", instance: "a", high: false, low: true },
      { id: "bgp.neighbor.down", instance: "b", high: true, low: false },
      { id: "bgp.neighbor.down", instance: "b", retired: true },
    ]);
  });

  it("changes nothing while the states cannot be read", () => {
    const { sink, logs, alarms } = recorder();
    const watch = new StateWatch(GRE_WATCH);
    watch.sample([{ key: "c1", state: "up" }], sink);
    watch.sample(null, sink);
    watch.sample([{ key: "c1", state: "down" }], sink);
    expect(logs.map((l) => l.fields)).toEqual([{ circuit: "c1", from: "up", to: "down" }]);
    expect(alarms).toEqual([{ id: "gre.circuit.down", instance: "c1", high: true, low: false }]);
  });

  it("tells a bounce shorter than a step by the state's new start, as the down and the up", () => {
    const { sink, logs, alarms } = recorder();
    const watch = new StateWatch(BGP_WATCH);
    watch.sample([{ key: "p", state: "Established", sinceMs: 1_000 }], sink);
    watch.sample([{ key: "p", state: "Established", sinceMs: 1_000 }], sink);
    watch.sample([{ key: "p", state: "Established", sinceMs: 25_000 }], sink);
    expect(logs.map((l) => [l.fields.from, l.fields.to, l.severity])).toEqual([
      ["Established", "Idle", "warning"],
      ["Idle", "Established", "notice"],
    ]);
    expect(alarms.map((a) => [a.high, a.low])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it("reads IPsec switched off as administrative, and an IGP adjacency lost as a fault", () => {
    const { sink, alarms } = recorder();
    const ipsec = new StateWatch(IPSEC_WATCH);
    ipsec.sample([{ key: "branch-1", state: "ESTABLISHED" }], sink);
    ipsec.sample([{ key: "branch-1", state: "DISABLED" }], sink);
    const igp = new StateWatch(IGP_WATCH);
    igp.sample([{ key: "xe-0/0/0 10.0.0.1", state: "Full" }], sink);
    igp.sample([{ key: "xe-0/0/0 10.0.0.1", state: "Init" }], sink);
    expect(alarms.map((a) => [a.id, a.high, a.low])).toEqual([
      ["ipsec.peer.down", false, true],
      ["igp.adjacency.down", true, false],
    ]);
  });
});
