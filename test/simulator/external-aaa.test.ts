/**
 * Real RADIUS servers at the model's edge (simulator/external-aaa.ts, aaa-answers.ts): a RADIUS subscriber's setup
 * waits for its server's answer, delivered between steps and applied at the next one. Expected values are the
 * inputs (the answers delivered, the profile's ports, plans and pools) and the API's own reads of the session.
 */
import { describe, expect, it } from "vitest";
import type {
  AcceptedAttributes,
  AccessOutcome,
  AccessRequestRecord,
  Gateway,
  ServerHealth,
} from "../../simulator/index.ts";
import { allSessions, expectConsistent, gateway, profile } from "./helpers.ts";

const REAL = [{ host: "127.0.0.1", port: 1812, weight: 1, transport: "tcp" as const }];
const server = "127.0.0.1:1812";
const attributes: AcceptedAttributes = {
  framedIpAddress: null,
  framedPool: null,
  sessionTimeout: null,
  interimInterval: null,
  plan: null,
};
const health = (over: Partial<ServerHealth> = {}): ServerHealth => ({
  server,
  requestsSent: 0,
  accepts: 0,
  rejects: 0,
  consecutiveFailures: 0,
  lastFailureMs: null,
  lastSuccessMs: null,
  dead: false,
  deadSinceMs: null,
  failureReason: null,
  accounting: { start: 0, interimUpdate: 0, stop: 0, responses: 0 },
  ...over,
});

/** A fresh appliance with a real server: the requests it asks for are collected, none answered. */
function withRealServer(maxOutstanding = 10_000): { g: Gateway; asked: AccessRequestRecord[] } {
  const g = gateway(profile(), 7);
  const asked: AccessRequestRecord[] = [];
  g.onAccessRequest((request) => asked.push(request));
  g.setRadiusServers(REAL, maxOutstanding);
  return { g, asked };
}

const accept = (r: AccessRequestRecord, over: Partial<AcceptedAttributes> = {}): AccessOutcome => ({
  sessionId: r.sessionId,
  result: "accept",
  server,
  attributes: { ...attributes, ...over },
});

describe("a subscriber authenticated by a real server", () => {
  it("is asked for, and nothing of it is online until the answer", () => {
    const { g, asked } = withRealServer();
    g.step(10);
    expect(asked.length).toBeGreaterThan(100);
    // 2 % of the small profile's subscribers are local (no RADIUS): only they are online.
    expect(g.sessions.summary().total).toBeLessThan(asked.length / 10);
    expect(
      allSessions(g).every(
        (s) =>
          s.username &&
          g.sessions.detail(s.id).ok &&
          (g.sessions.detail(s.id) as { session: { aaa: { method: string } } }).session.aaa.method === "local",
      ),
    ).toBe(true);
  });

  it(
    "asks with what a BNG knows: login, PAP for IPoE and CHAP for PPP, the port and " +
      "VLANs, the MAC; and the API shows the same once accepted",
    () => {
      const { g, asked } = withRealServer();
      g.step(10);
      g.deliverAaa(
        asked.map((r) => accept(r)),
        null,
        null,
      );
      g.step(10);
      const ports = profile().ports;
      for (const r of asked.slice(0, 200)) {
        const detail = g.sessions.detail(r.sessionId);
        if (!detail.ok) continue;
        const s = detail.session;
        expect(r.username).toBe(s.username);
        expect(r.callingStationId).toBe(s.mac);
        expect(r.method).toBe(s.encap === "ipoe" ? "pap" : "chap");
        expect(r.ppp).toBe(s.encap !== "ipoe");
        const port = ports.find((p) => p.portId === s.portId);
        expect(r.nasPortId).toBe(port ? `${port.label.split(" ")[0]}:${s.svlan}-${s.vlan}` : "lns");
        expect(s.aaa).toEqual({ method: "radius", server });
      }
      expect(asked.filter((r) => g.sessions.detail(r.sessionId).ok).length).toBeGreaterThan(asked.length * 0.9);
      expectConsistent(g);
    },
  );

  it("comes up with the address, pool and plan its Access-Accept set", () => {
    const { g, asked } = withRealServer();
    g.step(10);
    const ipoe = asked.filter((r) => r.method === "pap" && r.username.endsWith("@isp.example"));
    const [framed, pooled, planned] = ipoe;
    g.deliverAaa(
      [
        accept(framed!, { framedIpAddress: "198.18.4.77" }),
        accept(pooled!, { framedPool: "wholesale-v4" }),
        accept(planned!, { plan: "fibre-1000" }),
      ],
      null,
      null,
    );
    g.step(10);
    const detail = (r: AccessRequestRecord) => {
      const d = g.sessions.detail(r.sessionId);
      if (!d.ok) throw new Error(`session ${r.sessionId} is not up`);
      return d.session;
    };
    expect(detail(framed!).ipv4).toBe("198.18.4.77");
    expect(detail(pooled!).ipv4).toMatch(/^10\.128\./);
    expect(detail(planned!).plan).toBe("fibre-1000");
    expectConsistent(g);
  });

  it(
    "fails its setup on a Reject, counted and logged as access-reject, and dials " +
      "again later with a new session id",
    () => {
      const { g, asked } = withRealServer();
      g.step(10);
      const before = g.sessions.events().failures;
      const first = asked[0]!;
      g.deliverAaa([{ sessionId: first.sessionId, result: "access-reject", server }], null, null);
      g.step(10);
      expect(g.sessions.detail(first.sessionId).ok).toBe(false);
      const rejects = g.logs
        .tail({ count: 1000 })
        .entries.filter((e) => e.msgId === "aaa.reject" && e.fields.username === first.username);
      expect(rejects.map((e) => e.fields.reason)).toEqual(["access-reject"]);
      expect(g.sessions.events().failures).toBe(before + 1);
      g.step(120);
      const again = asked.filter((r) => r.username === first.username);
      expect(again.length).toBeGreaterThan(1);
      expect(again[1]!.sessionId).not.toBe(first.sessionId);
    },
  );

  it("fails with address-in-use when the framed address is held, and no-pool for an unknown Framed-Pool", () => {
    const { g, asked } = withRealServer();
    g.step(10);
    const [a, b, c] = asked.filter((r) => r.username.endsWith("@isp.example"));
    g.deliverAaa(
      [
        accept(a!, { framedIpAddress: "198.18.3.201" }),
        accept(b!, { framedIpAddress: "198.18.3.201" }),
        accept(c!, { framedPool: "no-such-pool" }),
      ],
      null,
      null,
    );
    g.step(10);
    expect(g.sessions.detail(a!.sessionId).ok).toBe(true);
    expect(g.sessions.detail(b!.sessionId).ok).toBe(false);
    expect(g.sessions.detail(c!.sessionId).ok).toBe(false);
    const reasons = g.logs
      .tail({ count: 1000 })
      .entries.filter((e) => e.msgId === "session.setup-failed")
      .map((e) => [e.fields.username, e.fields.reason]);
    expect(reasons).toEqual(
      expect.arrayContaining([
        [b!.username, "address-in-use"],
        [c!.username, "no-pool"],
      ]),
    );
  });

  it("asks for no more than the client can hold", () => {
    const { g, asked } = withRealServer(50);
    g.step(60);
    expect(asked.length).toBe(50);
  });

  it("shows the server's health as the client reports it: dead with its reason, logged, alarmed; alive again", () => {
    const { g } = withRealServer();
    g.step(10);
    g.deliverAaa(
      [],
      [
        health({
          requestsSent: 12,
          accepts: 9,
          consecutiveFailures: 3,
          dead: true,
          deadSinceMs: g.nowMs,
          lastFailureMs: g.nowMs,
          failureReason: "secret-mismatch",
        }),
      ],
      null,
    );
    g.step(10);
    const pool = g.radius.status();
    expect(pool).toMatchObject({
      liveServers: 0,
      deadServers: 1,
      servers: [
        {
          isDead: true,
          requestsSent: 12,
          requestsByResult: { accept: 9, reject: 0, timeout: 3 },
          transport: "tcp",
          lastFailureReason: "secret-mismatch",
        },
      ],
    });
    const dead = g.logs.tail({ count: 1000 }).entries.find((e) => e.msgId === "radius.server.dead");
    expect(dead?.fields).toMatchObject({ server, reason: "secret-mismatch" });
    expect(g.alarms.list().active.map((a) => a.id)).toEqual(expect.arrayContaining(["radius.server.dead"]));
    g.deliverAaa([], [health({ requestsSent: 13, accepts: 10, lastSuccessMs: g.nowMs })], null);
    g.step(10);
    expect(g.radius.status()).toMatchObject({ liveServers: 1, servers: [{ isDead: false }] });
  });

  it("is a function of its seed and the answers delivered: two runs given the same answers agree", () => {
    const run = () => {
      const { g, asked } = withRealServer();
      for (let i = 0; i < 6; i++) {
        const before = asked.length;
        g.step(10);
        g.deliverAaa(
          asked
            .slice(before)
            .map((r, k) =>
              k % 7 === 0 ? { sessionId: r.sessionId, result: "access-reject" as const, server } : accept(r),
            ),
          null,
          null,
        );
      }
      g.step(30);
      return JSON.stringify([g.sessions.summary(), allSessions(g).map((s) => [s.id, s.ipv4])]);
    };
    expect(run()).toBe(run());
  });
});
