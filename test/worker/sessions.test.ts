import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { LogTail } from "../../src/schemas/logs.ts";
import type {
  SessionDetail,
  SessionList as List,
  SessionRates,
  SessionSummaryCounts as Summary,
} from "../../src/schemas/sessions.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json, tokenWithRole } from "./client.ts";

const admin = bearer(BOOTSTRAP_TOKEN);
const get = async <T>(path: string, appliance = "edge-1") => {
  const response = await call(path, { headers: admin, appliance });
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return response.json<T>();
};
const scenario = (action: Record<string, unknown>, appliance = "edge-1") =>
  call("/twin/v1/scenario", { appliance, ...json("POST", action, admin) });

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe("sessions", () => {
  it("starts empty and fills up as the simulated clock moves", async () => {
    expect((await get<Summary>("/api/v1/sessions/summary")).total).toBe(0);
    expect((await scenario({ action: "advance-clock", seconds: 600 })).status).toBe(200);
    expect((await get<Summary>("/api/v1/sessions/summary")).total).toBeGreaterThan(1000);
  });

  it("agrees across list and summary after an hour of churn", async () => {
    await scenario({ action: "advance-clock", seconds: 3600 });
    const [list, summary] = await Promise.all([
      get<List>("/api/v1/sessions?limit=1"),
      get<Summary>("/api/v1/sessions/summary"),
    ]);
    expect(list.total).toBe(summary.total);
    expect(sum(Object.values(summary.byEncap))).toBe(summary.total);
    expect(sum(Object.values(summary.byType))).toBe(summary.total);
    expect(sum(Object.values(summary.byVrf))).toBe(summary.total);
    expect(sum(summary.byPort.map((p) => p.count))).toBe(summary.total - (summary.byEncap.l2tp ?? 0));
    const walled = await get<List>("/api/v1/sessions?walledGarden=true&limit=1");
    expect(walled.total).toBe(summary.walledGarden);
  });

  it("filters with AND, case-insensitively, newest first", async () => {
    await scenario({ action: "advance-clock", seconds: 900 });
    const summary = await get<Summary>("/api/v1/sessions/summary");
    const pppoe = await get<List>("/api/v1/sessions?encap=pppoe-local&limit=500");
    expect(pppoe.total).toBe(summary.byEncap["pppoe-local"]);
    expect(pppoe.items.every((s) => s.encap === "pppoe-local")).toBe(true);
    const ids = pppoe.items.map((s) => s.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    // A VRF that does hold PPPoE sessions, so an upper-cased filter that matched nothing would fail here.
    const vrf = pppoe.items[0]!.vrf;
    const exact = await get<List>(`/api/v1/sessions?encap=pppoe-local&vrf=${vrf}&limit=500`);
    const both = await get<List>(`/api/v1/sessions?encap=pppoe-local&vrf=${vrf.toUpperCase()}&limit=500`);
    expect(exact.total).toBeGreaterThan(0);
    expect(both.total).toBe(exact.total);
    expect(both.items.every((s) => s.encap === "pppoe-local" && s.vrf === vrf)).toBe(true);
    const user = pppoe.items[0]!.username;
    const byName = await get<List>(`/api/v1/sessions?username=${encodeURIComponent(user.slice(1, -1).toUpperCase())}`);
    expect(byName.items.map((s) => s.username)).toContain(user);
  });

  it("clamps limit to 1-500 and pages with offset", async () => {
    await scenario({ action: "advance-clock", seconds: 900 });
    expect((await get<List>("/api/v1/sessions?limit=0")).items).toHaveLength(1);
    expect((await get<List>("/api/v1/sessions?limit=100000")).items).toHaveLength(500);
    expect((await get<List>("/api/v1/sessions")).items).toHaveLength(100);
    const first = await get<List>("/api/v1/sessions?limit=10");
    const second = await get<List>("/api/v1/sessions?limit=10&offset=5");
    expect(second.offset).toBe(5);
    expect(second.items[0]!.id).toBe(first.items[5]!.id);
  });

  it("rejects a filter of the wrong type, naming it", async () => {
    const response = await call("/api/v1/sessions?encap=dsl&port=abc", { headers: admin });
    expect(response.status).toBe(400);
    const pointers = (await response.json<z.output<typeof ProblemDetails>>()).errors!.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["#/encap", "#/port"]));
  });

  it("shows one session in detail and its rates, and 404 for an unknown one", async () => {
    await scenario({ action: "advance-clock", seconds: 600 });
    const [session] = (await get<List>("/api/v1/sessions?limit=1")).items;
    const detail = await get<SessionDetail>(`/api/v1/sessions/${session!.id}`);
    expect(detail.id).toBe(session!.id);
    expect(detail.addresses.ipv4.address).toBe(session!.ipv4);
    const rates = await get<SessionRates>(`/api/v1/sessions/${session!.id}/rates`);
    expect(rates.sessionId).toBe(session!.id);
    // A single session may sit idle, but among the newest twenty some carry traffic: rates stuck at zero fail.
    const newest = (await get<List>("/api/v1/sessions?limit=20")).items;
    const all = await Promise.all(newest.map((s) => get<SessionRates>(`/api/v1/sessions/${s.id}/rates`)));
    for (const r of all)
      for (const bps of [r.rxBps, r.txBps]) expect(Number.isInteger(bps) && bps >= 0, `${bps}`).toBe(true);
    expect(all.filter((r) => r.rxBps > 0 && r.txBps > 0).length).toBeGreaterThan(0);
    expect((await call("/api/v1/sessions/4000000000", { headers: admin })).status).toBe(404);
  });

  it("force-disconnects a session for an operator, freeing it, and audits the actor", async () => {
    await scenario({ action: "advance-clock", seconds: 600 });
    const before = await get<Summary>("/api/v1/sessions/summary");
    const [session] = (await get<List>("/api/v1/sessions?limit=1")).items;
    const operator = await tokenWithRole("operator", "noc-operator");
    const response = await call(`/api/v1/sessions/${session!.id}`, { method: "DELETE", headers: bearer(operator) });
    expect(await response.json()).toEqual({ status: "disconnected", sessionId: session!.id });
    expect((await call(`/api/v1/sessions/${session!.id}`, { headers: admin })).status).toBe(404);
    expect((await get<Summary>("/api/v1/sessions/summary")).total).toBe(before.total - 1);
    const tail = await get<LogTail>("/api/v1/logs/tail?count=20");
    expect(tail.entries).toContainEqual(
      expect.objectContaining({
        msgId: "audit.session.disconnect",
        fields: expect.objectContaining({ actor: "token:noc-operator" }),
      }),
    );
    expect(
      (
        await call(`/api/v1/sessions/${session!.id}`, {
          method: "DELETE",
          headers: bearer(await tokenWithRole("read-only")),
        })
      ).status,
    ).toBe(403);
  });

  it("is reproducible from the seed: two appliances given the same seed and steps agree", async () => {
    for (const appliance of ["edge-1", "edge-2"]) {
      await scenario({ action: "reseed", seed: 4242 }, appliance);
      await scenario({ action: "advance-clock", seconds: 1200 }, appliance);
    }
    const [a, b] = await Promise.all([
      get<List>("/api/v1/sessions?limit=20", "edge-1"),
      get<List>("/api/v1/sessions?limit=20", "edge-2"),
    ]);
    expect(a.total).toBe(b.total);
    expect(a.items.map((s) => [s.username, s.ipv4])).toEqual(b.items.map((s) => [s.username, s.ipv4]));
  });

  it("is readable through the fleet proxy, query string included", async () => {
    await scenario({ action: "advance-clock", seconds: 600 }, "edge-2");
    const direct = await get<List>("/api/v1/sessions?encap=ipoe&limit=3", "edge-2");
    const proxied = await get<List>("/api/v1/fleet/edge-2/sessions?encap=ipoe&limit=3");
    expect(proxied.items).toHaveLength(3);
    expect(proxied).toEqual(direct);
  });
});
