import { describe, expect, it } from "vitest";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import { admin, advance, get, scenario, send, sum } from "./helpers.ts";
import type { AlarmsResponse as Alarms, AlertNotification as Notification } from "../../src/schemas/alarms.ts";
import type { CgnStatus } from "../../src/schemas/cgn.ts";
import type { LogTail as Tail } from "../../src/schemas/logs.ts";

const RADIUS_1 = "radius-1.isp.example:1812";

/** The counts of an AlarmsResponse agree with its list. */
function expectConsistent(alarms: Alarms) {
  expect(alarms.count).toBe(alarms.active.length);
  expect(sum(Object.values(alarms.countBySeverity))).toBe(alarms.count);
  expect(Object.keys(alarms.countBySeverity).sort()).toEqual(["critical", "major", "minor", "warning"]);
  for (const [severity, n] of Object.entries(alarms.countBySeverity))
    expect(alarms.active.filter((a) => a.severity === severity)).toHaveLength(n);
}

describe("alarms", () => {
  it("start with none active", async () => {
    const alarms = await get<Alarms>("/api/v1/alarms");
    expect(alarms).toMatchObject({
      active: [],
      count: 0,
      countBySeverity: { critical: 0, major: 0, minor: 0, warning: 0 },
    });
  });

  it(
    "raise cgn.pool.high when a group's port blocks pass the threshold, with the " + "group's numbers as context",
    async () => {
      await advance(600);
      await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
      await advance(60);
      const [alarms, status] = await Promise.all([get<Alarms>("/api/v1/alarms"), get<CgnStatus>("/api/v1/cgn/status")]);
      expectConsistent(alarms);
      const alarm = alarms.active.find((a) => a.id === "cgn.pool.high")!;
      const { totalChunks, usedChunks } = status.groups[0]!.utilisation;
      expect(alarm).toMatchObject({
        instance: "cgn-1",
        severity: "major",
        context: { group: "cgn-1", usedChunks: String(usedChunks), totalChunks: String(totalChunks) },
      });
      expect(usedChunks / totalChunks).toBeGreaterThanOrEqual(0.9);
      expect(alarm.ageSeconds).toBe(60);
      expect(alarm.text).toContain("cgn-1");

      await scenario({ action: "drain-cgn-group", group: "cgn-1" });
      const after = await get<Alarms>("/api/v1/alarms");
      expect(after.active.some((a) => a.id === "cgn.pool.high")).toBe(false);
      expect(after.stats.cleared).toBe(alarms.stats.cleared + 1);
    },
  );

  it(
    "raise a dead-server alarm per RADIUS server, and the critical all-dead alarm " + "first when every server is dead",
    async () => {
      // Bring-up (200 setups a second) sends a failed server three requests at once.
      await scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
      await advance(10);
      const one = await get<Alarms>("/api/v1/alarms");
      expectConsistent(one);
      expect(one.active.find((a) => a.id === "radius.server.dead")).toMatchObject({
        instance: RADIUS_1,
        severity: "major",
        context: { server: RADIUS_1 },
      });
      // Once the sessions are up, only churn authenticates: raise it so the second server sees requests.
      await scenario({ action: "fail-radius-server", server: "radius-2.isp.example" });
      await scenario({ action: "set-churn-multiplier", multiplier: 200 });
      await advance(30);
      const both = await get<Alarms>("/api/v1/alarms");
      expectConsistent(both);
      expect(both.active[0]).toMatchObject({ id: "radius.all-dead", instance: null, severity: "critical" });
      expect(
        both.active
          .filter((a) => a.id === "radius.server.dead")
          .map((a) => a.instance)
          .sort(),
      ).toEqual([RADIUS_1, "radius-2.isp.example:1812"]);
    },
  );
});

describe("clearing an alarm", () => {
  it("removes it for a super-user, keeps it cleared while its condition lasts, and audits the actor", async () => {
    await scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    await advance(20);
    const before = await get<Alarms>("/api/v1/alarms");
    expect(before.active.some((a) => a.instance === RADIUS_1)).toBe(true);
    const { lastSeq } = await get<Tail>("/api/v1/logs/tail?count=1");
    const supervisor = await tokenWithRole("super-user", "noc-supervisor");
    const response = await send(
      "POST",
      "/api/v1/alarms/clear",
      { id: "radius.server.dead", instance: RADIUS_1 },
      bearer(supervisor),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ cleared: true, id: "radius.server.dead", instance: RADIUS_1 });
    const after = await get<Alarms>("/api/v1/alarms");
    expectConsistent(after);
    expect(after.count).toBe(before.count - 1);
    expect(after.stats.cleared).toBe(before.stats.cleared + 1);
    const entries = (await get<Tail>(`/api/v1/logs/tail?sinceSeq=${lastSeq}`)).entries;
    expect(entries.find((e) => e.msgId === "audit.alarm.clear")!.fields).toMatchObject({
      id: "radius.server.dead",
      instance: RADIUS_1,
      cleared: true,
      actor: "token:noc-supervisor",
    });
    expect(entries.find((e) => e.msgId === "alarm.clear")!.fields).toMatchObject({ manual: true });

    // The server is still failing: the alarm is not raised again until it recovers and fails anew.
    await advance(30);
    expect((await get<Alarms>("/api/v1/alarms")).active.some((a) => a.instance === RADIUS_1)).toBe(false);
  });

  it("answers cleared false when nothing matches; an instance must match exactly", async () => {
    await scenario({ action: "fail-radius-server", server: "radius-1.isp.example" });
    await advance(20);
    expect(await (await send("POST", "/api/v1/alarms/clear", { id: "radius.server.dead" })).json()).toEqual({
      cleared: false,
      id: "radius.server.dead",
      instance: null,
    });
    expect(await (await send("POST", "/api/v1/alarms/clear", { id: "no.such.alarm", instance: null })).json()).toEqual({
      cleared: false,
      id: "no.such.alarm",
      instance: null,
    });
    expect((await get<Alarms>("/api/v1/alarms")).active.some((a) => a.instance === RADIUS_1)).toBe(true);
  });

  it("needs the super-user role and an id", async () => {
    const operator = await tokenWithRole("operator");
    expect((await call("/api/v1/alarms/clear", json("POST", { id: "radius.all-dead" }, bearer(operator)))).status).toBe(
      403,
    );
    expect((await send("POST", "/api/v1/alarms/clear", { instance: "x" })).status).toBe(400);
    expect((await send("POST", "/api/v1/alarms/clear")).status).toBe(400);
  });
});

describe("test alert", () => {
  it("returns the payload sinks receive: major with the default text when there is no body", async () => {
    const response = await send("POST", "/api/v1/alarms/test");
    expect(response.status).toBe(200);
    const payload = await response.json<Notification>();
    expect(payload).toMatchObject({
      version: "1",
      kind: "test",
      appliance: "edge-1",
      alarm: {
        id: "alert.test",
        instance: null,
        severity: "major",
        ageSeconds: 0,
        text: "Test alert from edge-1",
        context: { requestedBy: "token:bootstrap" },
      },
      activeAlarms: { critical: 0, major: 0, minor: 0, warning: 0 },
    });
    expect(payload.alarm.firstRaisedUtc).toBe(payload.sentUtc);
  });

  it("takes a severity and text, accepts a JSON null body, and is not added to the active alarms", async () => {
    const critical = await (
      await send("POST", "/api/v1/alarms/test", { severity: "critical", text: "SMTP sink check" })
    ).json<Notification>();
    expect(critical.alarm).toMatchObject({ severity: "critical", text: "SMTP sink check" });
    const nullBody = await call("/api/v1/alarms/test", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: "null",
    });
    expect((await nullBody.json<Notification>()).alarm.severity).toBe("major");
    expect((await get<Alarms>("/api/v1/alarms")).count).toBe(0);
    const audit = (await get<Tail>("/api/v1/logs/tail?count=5")).entries.filter((e) => e.msgId === "audit.alarm.test");
    expect(audit.map((e) => e.fields.severity)).toEqual(["critical", "major"]);
  });

  it("refuses an unknown severity and an operator", async () => {
    expect((await send("POST", "/api/v1/alarms/test", { severity: "disaster" })).status).toBe(400);
    const operator = await tokenWithRole("operator");
    expect((await call("/api/v1/alarms/test", { method: "POST", headers: bearer(operator) })).status).toBe(403);
  });
});
