/**
 * Every log entry carries the instant of its event (issue #50): a step's events fall within its 10 s, spread
 * as a Poisson process's would (uniformly, in seq order), what its end judges at its end, and an act between
 * steps at the event clock's instant; time never goes back as seq goes up.
 */
import { describe, expect, it } from "vitest";
import type { LogEntry } from "../../simulator/index.ts";
import { LogRing } from "../../simulator/logs.ts";
import { START, gateway, profile } from "./helpers.ts";

const at = (e: LogEntry) => Date.parse(e.timestamp);
const entriesSince = (g: ReturnType<typeof gateway>, seq: number) =>
  g.logs.tail({ count: 1000, sinceSeq: seq }).entries;
const JUDGED = new Set(["alarm.raise", "alarm.clear", "licence.state", "session.activity"]);

describe("a step's log entries", () => {
  it("fall within its 10 s, after each other in seq order; from its first alarm or summary on, at its end", () => {
    const g = gateway(profile(), 5, 600);
    // Sessions live for days (lifetimes.ts): a busy appliance needs the churn raised to log many events a step.
    g.scenario({ action: "set-churn-multiplier", multiplier: 1000 });
    let seen = 0;
    for (let step = 0; step < 30; step++) {
      const from = g.nowMs;
      const seq = g.lastSeq;
      g.step(10);
      const entries = entriesSince(g, seq);
      seen += entries.length;
      const judged = entries.findIndex((e) => JUDGED.has(e.msgId));
      const during = judged < 0 ? entries : entries.slice(0, judged);
      const ends = judged < 0 ? [] : entries.slice(judged);
      for (let i = 0; i < during.length; i++) {
        expect(at(during[i]!)).toBeGreaterThan(i === 0 ? from : at(during[i - 1]!));
        expect(at(during[i]!)).toBeLessThan(from + 10_000);
      }
      for (const e of ends) expect(at(e)).toBe(from + 10_000);
    }
    expect(seen).toBeGreaterThan(100);
  });

  it("are spread evenly over the step: their offsets pass a Kolmogorov-Smirnov test for uniform at 1 %", () => {
    // A busy appliance: many events a step, so the spread is seen whole.
    const g = gateway(profile(), 11, 3600);
    // Sessions live for days (lifetimes.ts): a busy appliance needs the churn raised to log many events a step.
    g.scenario({ action: "set-churn-multiplier", multiplier: 1000 });
    const offsets: number[] = [];
    for (let step = 0; step < 200; step++) {
      const from = g.nowMs;
      const seq = g.lastSeq;
      g.step(10);
      for (const e of entriesSince(g, seq))
        if (!JUDGED.has(e.msgId) && at(e) < from + 10_000) offsets.push((at(e) - from) / 10_000);
    }
    expect(offsets.length).toBeGreaterThan(500);
    offsets.sort((a, b) => a - b);
    const n = offsets.length;
    // D = sup |F_n(x) - x|; the 1 % critical value for large n is 1.63 / sqrt(n) (Smirnov's table).
    const d = Math.max(...offsets.map((x, i) => Math.max((i + 1) / n - x, x - i / n)));
    expect(d).toBeLessThan(1.63 / Math.sqrt(n));
  });

  it("get the same instants from the same seed, and other instants from another", () => {
    const stamps = (seed: number) =>
      gateway(profile(), seed, 300)
        .logs.tail({ count: 1000 })
        .entries.map((e) => [e.msgId, e.timestamp]);
    expect(stamps(8)).toEqual(stamps(8));
    expect(stamps(8)).not.toEqual(stamps(9));
  });

  it("raise an alarm at the step's end: the instant its entry carries is the alarm's firstRaisedUtc", () => {
    // Capacity alarmed at 10 %: a fresh appliance coming up passes it during a step.
    const g = gateway(
      profile("small", (raw) => Object.assign(raw.alarms, { capacityHighPercent: 10, capacityClearPercent: 5 })),
      7,
    );
    let raised: LogEntry | undefined;
    let end = 0;
    for (let step = 0; step < 60 && !raised; step++) {
      const seq = g.lastSeq;
      g.step(10);
      end = g.nowMs;
      raised = entriesSince(g, seq).find((e) => e.msgId === "alarm.raise" && e.fields.id === "sessions.capacity.high");
    }
    expect(raised?.timestamp).toBe(new Date(end).toISOString());
    expect(g.alarms.list().active.find((a) => a.id === "sessions.capacity.high")?.firstRaisedUtc).toBe(
      raised!.timestamp,
    );
  });
});

describe("an entry between steps", () => {
  it("carries the event clock's instant, to the millisecond", () => {
    const g = gateway(profile(), 3, 60);
    const act = g.nowMs + 3_402;
    g.setEventClock(() => act);
    g.appendLog("notice", "audit.alarm.test", { severity: "major", actor: "token:t" });
    expect(g.logs.tail({ count: 1 }).entries[0]!.timestamp).toBe(new Date(act).toISOString());
    expect(g.eventInstant()).toBe(act);
  });

  it("never goes back before the newest entry, and an instant given is kept exactly", () => {
    const ring = new LogRing();
    ring.append(START + 5_000, "info", "test.entry", {});
    ring.setClock(() => START + 1_000);
    ring.append(START, "info", "test.entry", {});
    ring.appendAt(START + 7_777, "notice", "config.commit", {});
    ring.setClock(() => START + 9_000);
    expect(ring.instant(START)).toBe(START + 9_000);
    expect(ring.tail().entries.map((e) => e.timestamp)).toEqual(
      [START + 5_000, START + 5_000, START + 7_777].map((t) => new Date(t).toISOString()),
    );
  });

  it("places a step run after an act of its interval behind that act, still within the step", () => {
    const ring = new LogRing();
    ring.appendAt(START + 4_000, "notice", "config.commit", {});
    ring.openStep(START, START + 10_000, 1);
    for (let i = 0; i < 3; i++) ring.append(START + 10_000, "info", "test.entry", { i });
    ring.closeStep();
    const [commit, ...step] = ring.tail().entries.map(at);
    expect(commit).toBe(START + 4_000);
    expect(step).toHaveLength(3);
    for (const t of step) expect(t > START + 4_000 && t < START + 10_000).toBe(true);
    expect([...step].sort((a, b) => a - b)).toEqual(step);
  });
});
