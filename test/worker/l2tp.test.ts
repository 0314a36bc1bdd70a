import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { call, tokenWithRole } from "./client.ts";
import { admin, advance, get, scenario, sum } from "./helpers.ts";
import type { L2tpTunnel as Tunnel, L2tpTunnelDetail as Detail, L2tpTunnelList } from "../../src/schemas/l2tp.ts";
import type {
  SessionList,
  SessionSummary as SessionRow,
  SessionSummaryCounts as Summary,
} from "../../src/schemas/sessions.ts";

const tunnels = async (appliance = "edge-1") => (await get<L2tpTunnelList>("/api/v1/l2tp/tunnels", appliance)).tunnels;
const carried = (list: Tunnel[], direction: string) =>
  sum(list.filter((t) => t.direction === direction).map((t) => t.sessions));

async function allSessions(encap: string): Promise<SessionRow[]> {
  const rows: SessionRow[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await get<SessionList>(`/api/v1/sessions?encap=${encap}&limit=500&offset=${offset}`);
    rows.push(...page.items);
    if (page.items.length < 500) return rows;
  }
}

describe("GET /api/v1/l2tp/tunnels", () => {
  it("lists no tunnel before the first LAC or LNS session", async () => {
    expect(await get("/api/v1/l2tp/tunnels")).toEqual({ tunnels: [] });
  });

  it("lists downstream tunnels first, then by local tunnel id, with the spec's fields", async () => {
    await advance(900);
    const list = await tunnels();
    expect(list.length).toBeGreaterThan(0);
    for (const t of list)
      expect(Object.keys(t).sort()).toEqual([
        "direction",
        "localTunnelId",
        "peerHostname",
        "peerIp",
        "peerTunnelId",
        "peerVendor",
        "sessions",
        "state",
      ]);
    const directions = list.map((t) => t.direction);
    expect(directions).toEqual([...directions].sort());
    for (const direction of ["downstream", "upstream"]) {
      const ids = list.filter((t) => t.direction === direction).map((t) => t.localTunnelId);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    expect(list.every((t) => t.state === "established" && t.sessions > 0)).toBe(true);
  });

  it(
    "carries every pppoe-lac session upstream and every l2tp session downstream, " +
      "through churn and a mass disconnect",
    async () => {
      await advance(900);
      const check = async () => {
        const [list, summary] = await Promise.all([tunnels(), get<Summary>("/api/v1/sessions/summary")]);
        expect(carried(list, "upstream")).toBe(summary.byEncap["pppoe-lac"]);
        expect(carried(list, "downstream")).toBe(summary.byEncap.l2tp);
      };
      await check();
      await scenario({ action: "disconnect-sessions", share: 0.5, filter: { encap: "pppoe-lac" } });
      await check();
      await scenario({ action: "set-churn-multiplier", multiplier: 10 });
      await advance(600);
      await check();
    },
  );

  it("is readable with a read-only token and through the fleet proxy", async () => {
    await advance(600, "edge-2");
    const readOnly = await tokenWithRole("read-only");
    const direct = await call("/api/v1/l2tp/tunnels", { headers: { authorization: `Bearer ${readOnly}` } });
    expect(direct.status).toBe(200);
    const proxied = await call("/api/v1/fleet/edge-2/l2tp/tunnels", { headers: admin });
    expect(proxied.status).toBe(200);
    expect(await proxied.json()).toEqual({ tunnels: await tunnels("edge-2") });
  });
});

describe("GET /api/v1/l2tp/tunnels/{id}", () => {
  it("shows a tunnel's sessions exactly as the sessions list shows them", async () => {
    await advance(900);
    const rows = new Map([...(await allSessions("pppoe-lac")), ...(await allSessions("l2tp"))].map((s) => [s.id, s]));
    for (const t of await tunnels()) {
      const d = await get<Detail>(`/api/v1/l2tp/tunnels/${t.localTunnelId}`);
      expect(d).toMatchObject({ ...t, found: true, peerPort: 1701, localEndpoint: "192.0.2.1:1701", vrfName: null });
      expect(d.sessionList).toHaveLength(t.sessions);
      expect(Date.parse(d.createdUtc!)).toBeLessThanOrEqual(Date.parse(d.lastActivityUtc!));
      expect(d.uptimeSeconds).toBeGreaterThan(0);
      for (const s of d.sessionList) {
        const row = rows.get(s.id);
        expect(row, `session ${s.id}`).toBeDefined();
        expect({
          id: s.id,
          username: s.username,
          encap: s.encap,
          ipv4: s.ipv4,
          ipv6: s.ipv6,
          uptimeSeconds: s.uptimeSeconds,
        }).toEqual({
          id: row!.id,
          username: row!.username,
          encap: row!.encap,
          ipv4: row!.ipv4,
          ipv6: row!.ipv6,
          uptimeSeconds: row!.uptimeSeconds,
        });
        expect(s.encap).toBe(t.direction === "upstream" ? "pppoe-lac" : "l2tp");
      }
      expect(new Set(d.sessionList.map((s) => s.localSessionId)).size).toBe(d.sessionList.length);
    }
  });

  it("answers 404 as a problem for an unknown tunnel", async () => {
    const response = await call("/api/v1/l2tp/tunnels/70000", { headers: admin });
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({ status: 404, detail: "no L2TP tunnel with local tunnel id 70000" });
  });

  it.each(["abc", "1.5", "-1"])("answers 400 naming the field for the id %s", async (id) => {
    const response = await call(`/api/v1/l2tp/tunnels/${id}`, { headers: admin });
    expect(response.status).toBe(400);
    const problem = await response.json<z.output<typeof ProblemDetails>>();
    expect(problem.errors![0]).toMatchObject({ in: "path", pointer: "#/id" });
  });
});

describe("an unreachable L2TP peer (scenario fail-l2tp-peer)", () => {
  it("shows its pending handshake in wait-ctl through the API, and closes it with no-response after 31 s", async () => {
    await advance(900);
    const victim = (await tunnels()).find((t) => t.direction === "upstream")!;
    await scenario({ action: "fail-l2tp-peer", peer: victim.peerIp! });
    await scenario({ action: "set-churn-multiplier", multiplier: 50 });
    const pendingOf = async () => (await tunnels()).filter((t) => t.peerIp === victim.peerIp && t.state === "wait-ctl");
    let pending = await pendingOf();
    for (let waited = 0; pending.length === 0 && waited < 600; waited += 10) {
      await advance(10);
      pending = await pendingOf();
    }
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ sessions: 0, peerTunnelId: 0 });
    expect(await get<Detail>(`/api/v1/l2tp/tunnels/${pending[0]!.localTunnelId}`)).toMatchObject({
      state: "wait-ctl",
      uptimeSeconds: null,
      sessionList: [],
    });
    // Sums still hold: no session rides a pending tunnel.
    const [list, summary] = await Promise.all([tunnels(), get<Summary>("/api/v1/sessions/summary")]);
    expect(carried(list, "upstream")).toBe(summary.byEncap["pppoe-lac"]);
    await advance(40);
    expect((await get<Detail>(`/api/v1/l2tp/tunnels/${pending[0]!.localTunnelId}`)).state).toBe("closed");
  });

  it("answers 404 naming the peer when no such peer exists", async () => {
    const response = await call("/twin/v1/scenario", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ action: "fail-l2tp-peer", peer: "lns-9.nowhere.example" }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ status: 404, detail: "no such peer in this appliance's profile" });
  });
});
