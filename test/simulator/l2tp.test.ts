import { describe, expect, it } from "vitest";
import { Gateway, l2tpSettings, parseProfile } from "../../simulator/index.ts";
import { START, allSessions, expectConsistent, gateway, observe, profile, rawProfile, restore } from "./helpers.ts";

const detail = (g: Gateway, id: number) => {
  const d = g.l2tp.tunnel(id);
  if (!d.ok) throw new Error(`no tunnel ${id}`);
  return d.tunnel;
};
const carried = (g: Gateway, direction: "upstream" | "downstream") =>
  g.l2tp
    .tunnels()
    .tunnels.filter((t) => t.direction === direction)
    .reduce((a, t) => a + t.sessions, 0);
const logged = (g: Gateway, msgId: string) => g.logs.tail({ count: 1000 }).entries.filter((e) => e.msgId === msgId);

describe("L2TP peers", () => {
  it("derives two LNS peers per pppoe-lac realm and two LAC peers per l2tp realm when the profile names none", () => {
    const settings = l2tpSettings(profile());
    const names = (direction: string) => settings.peers.filter((p) => p.direction === direction).map((p) => p.hostname);
    expect(names("upstream")).toEqual([
      "lns-1.wholesale-a.example",
      "lns-2.wholesale-a.example",
      "lns-1.wholesale-b.example",
      "lns-2.wholesale-b.example",
    ]);
    expect(names("downstream")).toEqual([
      "lac-1.wholesale-a.example",
      "lac-2.wholesale-a.example",
      "lac-1.wholesale-b.example",
      "lac-2.wholesale-b.example",
    ]);
    expect(new Set(settings.peers.map((p) => p.ip)).size).toBe(settings.peers.length);
    expect(settings).toMatchObject({
      localAddress: "192.0.2.1",
      idleTimeoutSeconds: 300,
      closedRetentionSeconds: 60,
      maxSessionsPerTunnel: 2000,
    });
  });

  it("uses the peers a profile names for a realm, and derives the others", () => {
    const p = profile("small", (raw) => {
      raw.l2tp = {
        lnsPeers: [
          {
            realm: "wholesale-a.example",
            ip: "10.9.9.9",
            hostname: "lns.partner-a.net",
            vendor: "Partner A",
            vrf: "wholesale",
          },
        ],
      };
    });
    const upstream = l2tpSettings(p).peers.filter((x) => x.direction === "upstream");
    expect(upstream.map((x) => x.hostname)).toEqual([
      "lns.partner-a.net",
      "lns-1.wholesale-b.example",
      "lns-2.wholesale-b.example",
    ]);
    const g = gateway(p, 3, 900);
    const partner = g.l2tp.tunnels().tunnels.filter((t) => t.peerHostname === "lns.partner-a.net");
    expect(partner.length).toBeGreaterThan(0);
    expect(detail(g, partner[0]!.localTunnelId)).toMatchObject({
      peerIp: "10.9.9.9",
      peerPort: 1701,
      peerVendor: "Partner A",
      vrfName: "wholesale",
    });
  });

  it("refuses a peer of an unknown realm, of a realm without the encapsulation, or in an unknown VRF", () => {
    const raw = structuredClone(rawProfile("small")) as Record<string, any>;
    raw.l2tp = {
      lnsPeers: [{ realm: "nowhere.example", ip: "10.0.0.1", hostname: "x" }],
      lacPeers: [
        { realm: "isp.example", ip: "10.0.0.2", hostname: "y" },
        { realm: "wholesale-a.example", ip: "10.0.0.3", hostname: "z", vrf: "missing" },
      ],
    };
    const parsed = parseProfile(raw);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toEqual(
      expect.arrayContaining([
        expect.stringContaining("l2tp.lnsPeers.0.realm: unknown realm"),
        expect.stringContaining("l2tp.lacPeers.0.realm: realm 'isp.example' does not serve 'l2tp'"),
        expect.stringContaining("l2tp.lacPeers.1.vrf: unknown VRF 'missing'"),
      ]),
    );
  });
});

describe("L2TP tunnels", () => {
  it("carry every pppoe-lac session upstream and every l2tp session downstream at every instant", () => {
    const g = gateway(profile(), 5);
    for (let i = 0; i < 12; i++) {
      g.step(i < 6 ? 20 : 600);
      const s = g.sessions.summary();
      expect(carried(g, "upstream")).toBe(s.byEncap["pppoe-lac"]);
      expect(carried(g, "downstream")).toBe(s.byEncap.l2tp);
    }
    expect(g.sessions.summary().byEncap["pppoe-lac"]).toBeGreaterThan(50);
    g.scenario({ action: "disconnect-sessions", share: 0.5, filter: { encap: "pppoe-lac" } });
    expectConsistent(g, { justStepped: false });
  });

  it("list downstream tunnels first, then by local tunnel id, established while they carry sessions", () => {
    const g = gateway(profile(), 6, 1800);
    const tunnels = g.l2tp.tunnels().tunnels;
    expect(tunnels.length).toBe(8);
    const key = (t: (typeof tunnels)[number]) => [t.direction === "downstream" ? 0 : 1, t.localTunnelId];
    const sorted = [...tunnels].sort((a, b) => key(a)[0]! - key(b)[0]! || key(a)[1]! - key(b)[1]!);
    expect(tunnels).toEqual(sorted);
    for (const t of tunnels) {
      expect(t.state).toBe("established");
      expect(t.localTunnelId).toBeGreaterThanOrEqual(1);
      expect(t.localTunnelId).toBeLessThanOrEqual(65535);
      expect(t.peerTunnelId).toBeGreaterThanOrEqual(1);
      expect(t.peerTunnelId).toBeLessThanOrEqual(65535);
    }
    expect(new Set(tunnels.map((t) => t.localTunnelId)).size).toBe(tunnels.length);
  });

  it("show in detail the sessions they carry, as the sessions list shows them, with unique session ids", () => {
    const g = gateway(profile(), 7, 1800);
    const rows = new Map(allSessions(g).map((s) => [s.id, s]));
    for (const t of g.l2tp.tunnels().tunnels) {
      const d = detail(g, t.localTunnelId);
      expect(d.found).toBe(true);
      expect(d.localEndpoint).toBe("192.0.2.1:1701");
      expect(d.createdUtc).not.toBeNull();
      expect(d.uptimeSeconds).toBe(Math.round((g.nowMs - Date.parse(d.createdUtc!)) / 1000));
      expect(Date.parse(d.lastActivityUtc!)).toBeLessThanOrEqual(g.nowMs);
      for (const s of d.sessionList) {
        const row = rows.get(s.id)!;
        expect({
          id: s.id,
          username: s.username,
          encap: s.encap,
          ipv4: s.ipv4,
          ipv6: s.ipv6,
          uptimeSeconds: s.uptimeSeconds,
        }).toEqual({
          id: row.id,
          username: row.username,
          encap: row.encap,
          ipv4: row.ipv4,
          ipv6: row.ipv6,
          uptimeSeconds: row.uptimeSeconds,
        });
        expect(row.encap).toBe(t.direction === "upstream" ? "pppoe-lac" : "l2tp");
      }
      expect(new Set(d.sessionList.map((s) => s.localSessionId)).size).toBe(d.sessionList.length);
      expect(new Set(d.sessionList.map((s) => s.peerSessionId)).size).toBe(d.sessionList.length);
      for (const s of d.sessionList) expect(Math.min(s.localSessionId, s.peerSessionId)).toBeGreaterThanOrEqual(1);
    }
    expect(g.l2tp.tunnel(0)).toEqual({ ok: false, reason: "unknown-tunnel" });
  });

  it("put a reconnecting subscriber back on the same peer", () => {
    const g = gateway(profile(), 8, 1800);
    const seen = () => {
      const sessions = new Map<string, { id: number; peer: string | null }>();
      for (const t of g.l2tp.tunnels().tunnels)
        for (const s of detail(g, t.localTunnelId).sessionList)
          sessions.set(s.username, { id: s.id, peer: t.peerHostname });
      return sessions;
    };
    const before = seen();
    g.scenario({ action: "set-churn-multiplier", multiplier: 20 });
    g.step(3600);
    // A reconnection: a subscriber seen before is back on a new session.
    const reconnected = [...seen()].filter(
      ([username, now]) => before.has(username) && before.get(username)!.id !== now.id,
    );
    expect(reconnected.length).toBeGreaterThan(0);
    expect(reconnected.map(([username, now]) => [username, now.peer])).toEqual(
      reconnected.map(([username]) => [username, before.get(username)!.peer]),
    );
  });

  it("go idle without sessions, close after the idle timeout, and are forgotten after the retention", () => {
    const p = profile("small", (raw) => {
      raw.l2tp = { idleTimeoutSeconds: 120, closedRetentionSeconds: 60 };
      raw.aaa.localShare = 0;
    });
    const g = gateway(p, 9, 1800);
    const before = g.l2tp.tunnels().tunnels.filter((t) => t.direction === "upstream");
    g.scenario({ action: "disconnect-sessions", share: 1, filter: { encap: "pppoe-lac" } });
    // With every RADIUS server silent, no subscriber can come back.
    const servers = ["radius-1.isp.example", "radius-2.isp.example"];
    for (const server of servers) g.scenario({ action: "fail-radius-server", server });
    for (const t of g.l2tp.tunnels().tunnels.filter((x) => x.direction === "upstream"))
      expect(t).toMatchObject({ state: "idle", sessions: 0 });
    expect(detail(g, before[0]!.localTunnelId).lastActivityUtc).toBe(new Date(g.nowMs).toISOString());
    g.step(120);
    const closed = g.l2tp.tunnels().tunnels.filter((t) => t.direction === "upstream");
    expect(closed.map((t) => t.state)).toEqual(before.map(() => "closed"));
    expect(detail(g, closed[0]!.localTunnelId).uptimeSeconds).toBeNull();
    expect(logged(g, "l2tp.tunnel.down").filter((e) => e.fields.reason === "idle-timeout").length).toBe(before.length);
    g.step(60);
    expect(g.l2tp.tunnels().tunnels.filter((t) => t.direction === "upstream")).toEqual([]);
    expect(g.l2tp.tunnel(before[0]!.localTunnelId).ok).toBe(false);
    // The next pppoe-lac subscriber opens a fresh tunnel, with a fresh id.
    for (const server of servers) g.scenario({ action: "revive-radius-server", server });
    g.step(1800);
    const reopened = g.l2tp.tunnels().tunnels.filter((t) => t.direction === "upstream");
    expect(reopened.length).toBeGreaterThan(0);
    for (const t of reopened) expect(before.map((b) => b.localTunnelId)).not.toContain(t.localTunnelId);
    expect(logged(g, "l2tp.tunnel.up").length).toBeGreaterThanOrEqual(reopened.length);
    expectConsistent(g, { justStepped: true });
  });

  it("open a further tunnel to a peer whose tunnels are full", () => {
    const g = gateway(
      profile("small", (raw) => {
        raw.l2tp = { maxSessionsPerTunnel: 10 };
      }),
      10,
      1800,
    );
    const tunnels = g.l2tp.tunnels().tunnels;
    for (const t of tunnels) expect(t.sessions).toBeLessThanOrEqual(10);
    const perPeer = new Map<string, number>();
    for (const t of tunnels) perPeer.set(t.peerHostname!, (perPeer.get(t.peerHostname!) ?? 0) + 1);
    expect(Math.max(...perPeer.values())).toBeGreaterThan(1);
    expectConsistent(g, { justStepped: true });
  });

  it("are the same for the same seed, and survive a snapshot and restore", () => {
    const a = gateway(profile(), 11, 1800);
    const b = gateway(profile(), 11, 1800);
    expect(JSON.stringify(a.l2tp.tunnels())).toBe(JSON.stringify(b.l2tp.tunnels()));
    const copy = restore(a);
    expect(observe(copy)).toBe(observe(a));
    for (const g of [a, copy]) {
      g.scenario({ action: "disconnect-sessions", share: 0.3, filter: { encap: "l2tp" } });
      g.step(900);
    }
    expect(observe(copy)).toBe(observe(a));
    expectConsistent(copy, { justStepped: true });
  });

  it("are put back together from the sessions when a snapshot predates them", () => {
    const g = gateway(profile(), 12, 1800);
    const snapshot = g.snapshot();
    delete (snapshot.meta as Record<string, unknown>).l2tp;
    const r = Gateway.restore(g.profile, snapshot);
    if (!r.ok) throw new Error(r.reason);
    expect(carried(r.gateway, "upstream")).toBe(g.sessions.summary().byEncap["pppoe-lac"]);
    expectConsistent(r.gateway);
  });

  it("start afresh at a reseed, as at a reboot", () => {
    const g = Gateway.create(profile(), { seed: 13, startTimeMs: START });
    g.step(1800);
    g.scenario({ action: "reseed", seed: 14 });
    expect(g.l2tp.tunnels().tunnels).toEqual([]);
    g.step(600);
    expectConsistent(g, { justStepped: true });
  });
});

describe("An unreachable L2TP peer", () => {
  const upstreamOf = (g: Gateway, hostname: string) =>
    g.l2tp.tunnels().tunnels.filter((t) => t.peerHostname === hostname);
  const usernamesOn = (g: Gateway, hostname: string) =>
    upstreamOf(g, hostname)
      .filter((t) => t.state === "established")
      .flatMap((t) => detail(g, t.localTunnelId).sessionList.map((s) => s.username));
  const alarmed = (g: Gateway) => g.alarms.list().active.filter((a) => a.id === "l2tp.peer.unreachable");
  /** The realm's other LNS: `lns-1.<realm>` for `lns-2.<realm>` and the other way round. */
  const otherLns = (hostname: string) => hostname.replace(/^lns-(\d)/, (_, k: string) => `lns-${k === "1" ? 2 : 1}`);

  it("as LAC: finds a failed LNS out at its next Hello; its subscribers come back on the realm's other LNS", () => {
    const g = gateway(profile(), 5, 1800);
    const victim = g.l2tp.tunnels().tunnels.find((t) => t.direction === "upstream" && t.state === "established")!;
    const hostname = victim.peerHostname!;
    const subscribers = usernamesOn(g, hostname);
    const byEncap = g.sessions.summary().byEncap;
    expect(subscribers.length).toBeGreaterThan(10);

    const failed = g.scenario({ action: "fail-l2tp-peer", peer: hostname.toUpperCase() });
    expect(failed).toMatchObject({ ok: true, detail: { sessions: subscribers.length } });
    // Hellos every 60 s, retransmitted for 31 s (RFC 2661 §5.8): found out within 91 s, at the 10 s step after it.
    let waited = 0;
    while (upstreamOf(g, hostname).some((t) => t.state === "established") && waited < 200) {
      g.step(10);
      waited += 10;
    }
    expect(waited).toBeGreaterThanOrEqual(40);
    expect(waited).toBeLessThanOrEqual(100);
    const down = logged(g, "l2tp.tunnel.down").filter((e) => e.fields.peerIp === victim.peerIp);
    expect(down.map((e) => [e.severity, e.fields.reason])).toEqual([["warning", "hello-timeout"]]);
    expect(alarmed(g).map((a) => [a.instance, a.severity])).toEqual([[hostname, "major"]]);
    expect(logged(g, "session.down").some((e) => e.fields.cause === "l2tp-peer-unreachable")).toBe(true);

    // Locked out, it is passed over: the same subscribers dial again at once and ride the other LNS (a setup storm).
    g.step(20);
    const moved = new Set(usernamesOn(g, otherLns(hostname)));
    expect(subscribers.filter((u) => moved.has(u)).length).toBeGreaterThan(subscribers.length * 0.95);
    expect(usernamesOn(g, hostname)).toEqual([]);
    // No mix drift: every encapsulation is where it was, within the odd reconnect.
    for (const [encap, count] of Object.entries(byEncap)) {
      expect(Math.abs((g.sessions.summary().byEncap[encap] ?? 0) - count)).toBeLessThan(5);
    }
    expectConsistent(g);
  });

  it("probes a locked-out LNS when its lockout ends: wait-ctl, no-response after 31 s, locked out again", () => {
    const g = gateway(profile(), 5, 1800);
    const lns = g.l2tp.tunnels().tunnels.find((t) => t.direction === "upstream" && t.state === "established");
    const hostname = lns!.peerHostname!;
    g.scenario({ action: "fail-l2tp-peer", peer: hostname });
    const pendingOf = () => upstreamOf(g, hostname).filter((t) => t.state === "wait-ctl");
    let waited = 0;
    while (pendingOf().length === 0 && waited < 600) {
      g.step(10);
      waited += 10;
    }
    // Found out within 100 s, then locked out for 300 s.
    expect(waited).toBeGreaterThan(300);
    expect(waited).toBeLessThanOrEqual(410);
    const pending = pendingOf();
    expect(pending).toHaveLength(1);
    // No session rides it, the LNS has assigned no tunnel id yet, and it has no uptime.
    expect(pending[0]).toMatchObject({ sessions: 0, peerTunnelId: 0 });
    expect(detail(g, pending[0]!.localTunnelId)).toMatchObject({
      state: "wait-ctl",
      uptimeSeconds: null,
      sessionList: [],
    });
    const opened = Date.parse(detail(g, pending[0]!.localTunnelId).createdUtc!);
    expect(opened).toBe(g.nowMs);
    g.step(30);
    expect(pendingOf().map((t) => t.localTunnelId)).toEqual([pending[0]!.localTunnelId]);
    expectConsistent(g);
    // RFC 2661 §5.8's schedule gives up 31 s after the first SCCRQ: closed at the +40 s sub-step, the alarm still up.
    g.step(10);
    expect(detail(g, pending[0]!.localTunnelId).state).toBe("closed");
    const reasons = logged(g, "l2tp.tunnel.down").filter((e) => e.fields.localTunnelId === pending[0]!.localTunnelId);
    expect(reasons.map((e) => [e.severity, e.fields.reason])).toEqual([["warning", "no-response"]]);
    expect(alarmed(g).map((a) => a.instance)).toEqual([hostname]);
  });

  it("clears the alarm once a revived LNS answers its probe, and carries its subscribers' new sessions again", () => {
    const g = gateway(profile(), 5, 1800);
    const lns = g.l2tp.tunnels().tunnels.find((t) => t.direction === "upstream" && t.state === "established");
    const hostname = lns!.peerHostname!;
    g.scenario({ action: "fail-l2tp-peer", peer: hostname });
    g.step(120);
    expect(alarmed(g)).toHaveLength(1);
    expect(g.scenario({ action: "revive-l2tp-peer", peer: hostname }).ok).toBe(true);
    // Still locked out: its subscribers' sessions stay where they failed over, and it is probed when the lockout ends.
    let waited = 0;
    while (alarmed(g).length > 0 && waited < 400) {
      g.step(10);
      waited += 10;
    }
    expect(waited).toBeGreaterThan(150);
    expect(alarmed(g)).toEqual([]);
    expect(upstreamOf(g, hostname).some((t) => t.state === "idle" || t.state === "established")).toBe(true);
    const clears = logged(g, "alarm.clear").filter((e) => e.fields.id === "l2tp.peer.unreachable");
    expect(clears.map((e) => e.fields.instance)).toContain(hostname);
    // Reconnecting subscribers of that LNS go to it again.
    g.scenario({ action: "set-churn-multiplier", multiplier: 200 });
    g.step(1800);
    expect(upstreamOf(g, hostname).reduce((a, t) => a + t.sessions, 0)).toBeGreaterThan(0);
    expectConsistent(g);
  });

  it("as LNS: a failed LAC's subscribers are gone while it is, and the same ones are back with it", () => {
    const g = gateway(profile(), 6, 1800);
    const lac = g.l2tp.tunnels().tunnels.find((t) => t.direction === "downstream" && t.state === "established")!;
    const hostname = lac.peerHostname!;
    const subscribers = detail(g, lac.localTunnelId)
      .sessionList.map((s) => s.username)
      .sort();
    const l2tp = g.sessions.summary().byEncap.l2tp ?? 0;
    g.scenario({ action: "fail-l2tp-peer", peer: hostname });
    g.step(100);
    expect(g.sessions.summary().byEncap.l2tp).toBe(l2tp - subscribers.length);
    expect(alarmed(g).map((a) => a.instance)).toEqual([hostname]);
    // Nobody tries meanwhile: an LNS hears nothing from a dead LAC (no failed setups, no handshake of ours).
    g.step(600);
    expect(upstreamOf(g, hostname).filter((t) => t.state === "wait-ctl")).toEqual([]);
    expect(logged(g, "session.setup-failed").filter((e) => e.fields.reason === "l2tp-peer-unreachable")).toEqual([]);
    const revived = g.scenario({ action: "revive-l2tp-peer", peer: hostname });
    expect(revived).toMatchObject({ ok: true, detail: { returning: subscribers.length } });
    g.step(20);
    const back = allSessions(g, { encap: "l2tp" }).map((s) => s.username);
    expect(subscribers.filter((u) => back.includes(u))).toEqual(subscribers);
    expect(alarmed(g)).toEqual([]);
    expectConsistent(g);
  });

  it("is refused by name when no such peer exists, and revived by a reseed", () => {
    const g = gateway(profile(), 5, 600);
    expect(g.scenario({ action: "fail-l2tp-peer", peer: "lns-9.nowhere.example" })).toEqual({
      ok: false,
      reason: "unknown-peer",
    });
    const hostname = g.l2tp.tunnels().tunnels.find((t) => t.direction === "upstream")!.peerHostname!;
    g.scenario({ action: "fail-l2tp-peer", peer: hostname });
    g.scenario({ action: "reseed", seed: 5 });
    g.step(1800);
    expect(upstreamOf(g, hostname).filter((t) => t.state === "established").length).toBeGreaterThan(0);
  });

  it("stays unreachable across a snapshot and restore", () => {
    const g = gateway(profile(), 5, 1800);
    const hostname = g.l2tp.tunnels().tunnels.find((t) => t.direction === "upstream")!.peerHostname!;
    g.scenario({ action: "fail-l2tp-peer", peer: hostname });
    g.step(60);
    const copy = restore(g);
    copy.step(600);
    g.step(600);
    expect(observe(copy)).toBe(observe(g));
    expect(upstreamOf(copy, hostname).filter((t) => t.state === "established")).toEqual([]);
  });
});
