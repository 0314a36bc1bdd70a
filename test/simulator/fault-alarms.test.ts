/**
 * An alarm for every fault a scenario injects, readable by a poller: held
 * for at least a minute (alarms.ts MIN_ACTIVE_MS, docs/simulation.md
 * "Alarms for every fault"), so a poll of `GET /alarms` a minute apart sees
 * every one. BGP resets and GRE circuits' eBGP sessions are the appliance's
 * (test/worker/fault-alarms.test.ts); L2TP peers are in l2tp.test.ts.
 */
import { describe, expect, it } from "vitest";
import { AlarmBook, MIN_ACTIVE_MS } from "../../simulator/alarms.ts";
import { LogRing } from "../../simulator/logs.ts";
import type { Gateway } from "../../simulator/index.ts";
import { START, gateway, profile } from "./helpers.ts";

const active = (g: Gateway, id: string) => g.alarms.list().active.filter((a) => a.id === id);
const describeIt = () => ({ text: "t", context: {} });

describe("the alarm book", () => {
  it("holds an alarm whose condition clears within a minute until the minute is over", () => {
    const book = new AlarmBook(new LogRing());
    book.observe(START, "bgp.neighbor.down", "10.0.255.1", true, false, describeIt);
    book.observe(START + 10_000, "bgp.neighbor.down", "10.0.255.1", false, true, describeIt);
    // Polled at +10 s, +50 s: still there; at +60 s it has been up a minute and goes.
    for (const at of [10_000, 50_000]) {
      book.settle(START + at);
      expect(book.isActive("bgp.neighbor.down", "10.0.255.1"), `at ${at} ms`).toBe(true);
    }
    book.settle(START + MIN_ACTIVE_MS);
    expect(book.isActive("bgp.neighbor.down", "10.0.255.1")).toBe(false);
    expect(book.view(START + MIN_ACTIVE_MS).stats).toMatchObject({ raised: 1, cleared: 1, events: 2 });
  });

  it("keeps it as one alarm when the condition recurs within the hold, and clears an older one at once", () => {
    const book = new AlarmBook(new LogRing());
    book.observe(START, "bgp.neighbor.down", "a", true, false, describeIt);
    book.observe(START + 10_000, "bgp.neighbor.down", "a", false, true, describeIt);
    book.observe(START + 20_000, "bgp.neighbor.down", "a", true, false, describeIt);
    book.settle(START + 120_000);
    expect(book.isActive("bgp.neighbor.down", "a")).toBe(true);
    book.observe(START + 130_000, "bgp.neighbor.down", "a", false, true, describeIt);
    expect(book.isActive("bgp.neighbor.down", "a")).toBe(false);
    expect(book.view(START + 130_000).stats).toMatchObject({ raised: 1, cleared: 1 });
  });
});

describe("scenario faults", () => {
  it.each(["routing", "ipsec"] as const)("raise daemon.down (critical) for a failed %s daemon", (daemon) => {
    const g = gateway(profile(), 91, 600);
    g.scenario({ action: "fail-daemon", daemon });
    expect(active(g, "daemon.down").map((a) => [a.instance, a.severity])).toEqual([[daemon, "critical"]]);
    g.step(300);
    expect(active(g, "daemon.down")).toHaveLength(1);
    g.scenario({ action: "revive-daemon", daemon });
    expect(active(g, "daemon.down")).toEqual([]);
  });

  it("raise sessions.loss.high for a mass disconnect, cleared once five minutes hold fewer than half as many", () => {
    const g = gateway(profile(), 92, 600);
    // 25 % of about 2,000: about 500 sessions, over 5 % of those up (100) and over the floor of 100.
    g.scenario({ action: "disconnect-sessions", share: 0.25, filter: {} });
    const [alarm] = active(g, "sessions.loss.high");
    expect(alarm?.severity).toBe("major");
    expect(Number(alarm?.context.lost)).toBeGreaterThan(450);
    // The five-minute window still holds them at +290 s, not at +310 s.
    g.step(290);
    expect(active(g, "sessions.loss.high")).toHaveLength(1);
    g.step(20);
    expect(active(g, "sessions.loss.high")).toEqual([]);
  });

  it("raise nothing for the ordinary ends of a day", () => {
    const g = gateway(profile(), 93, 600);
    const raised = () => {
      const raises = g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === "alarm.raise");
      return raises.filter((e) => e.fields.id === "sessions.loss.high");
    };
    for (let h = 0; h < 24; h++) {
      g.step(3600);
      expect(raised()).toEqual([]);
    }
  });
});
