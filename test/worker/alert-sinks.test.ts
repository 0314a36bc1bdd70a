import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { describe, expect, inject, it } from "vitest";
import { call, json } from "./client.ts";
import { admin, commit, logEntries } from "./config-client.ts";
import { advance, scenario } from "./helpers.ts";

/** A closed port: the connection fails, as a receiver that is down would. */
const DOWN_RECEIVER = `http://127.0.0.1:${inject("closedPort")}/hooks/bng`;
const DOWN_MAIL_SERVER = `smtp://127.0.0.1:${inject("closedPort")}/?from=bng@isp.example&to=pager@isp.example`;
const SECRET = "sink-credential-never-logged";

// The test fleet runs as a deployed one (no launcher), so a loopback receiver must be allowlisted.
const sinks = (items: Record<string, Record<string, string>>) => ({
  fields: { "alarms.webhookAllowlist": "127.0.0.1" },
  listOps: Object.entries(items).map(([key, fields]) => ({ listPath: "alarms.sinks", key, fields })),
});
const settled = () => runInDurableObject(env.Appliance.getByName("edge-1"), (instance) => Appliance.coreOf(instance).dataPlane().alertsSettled());
const testAlert = (severity: string) => call("/api/v1/alarms/test", json("POST", { severity }, admin));
const deliveries = async () => [...(await logEntries("alarm.sink.failed")), ...(await logEntries("alarm.sink.delivered"))].map((e) => e.fields);

describe("the alert fan-out", () => {
  it("sends a test alert to each sink whose floor it meets, and logs each outcome", async () => {
    await commit(sinks({ noc: { kind: "webhook", url: DOWN_RECEIVER, severityFloor: "major", credential: SECRET }, pager: { kind: "smtp", url: DOWN_MAIL_SERVER, severityFloor: "critical" } }));
    const major = await testAlert("major");
    expect(major.status).toBe(200);
    await settled();
    expect(await deliveries()).toEqual([{ sink: "noc", kind: "webhook", notification: "test", alarmId: "alert.test", reason: "not delivered" }]);

    await testAlert("critical");
    await settled();
    expect(await deliveries()).toHaveLength(3);
    // A mail server that is down is tried three times (1 s, then 4 s apart) before the failure is logged.
    expect((await logEntries("alarm.sink.failed")).filter((e) => e.fields.sink === "pager").map((e) => e.fields)).toEqual([
      { sink: "pager", kind: "smtp", notification: "test", alarmId: "alert.test", reason: "not delivered", attempts: 3 },
    ]);
  });

  it("sends nothing below every floor, and nothing once the sinks are removed (hot-applied)", async () => {
    await commit(sinks({ noc: { kind: "webhook", url: DOWN_RECEIVER, severityFloor: "critical" } }));
    await testAlert("minor");
    await settled();
    expect(await deliveries()).toEqual([]);
    await commit({ listOps: [{ listPath: "alarms.sinks", key: "noc", delete: true }] });
    await testAlert("critical");
    await settled();
    expect(await deliveries()).toEqual([]);
  });

  it("notifies real alarms as they are raised and cleared", async () => {
    await commit(sinks({ noc: { kind: "webhook", url: DOWN_RECEIVER, severityFloor: "major" } }));
    await advance(600);
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    await advance(60);
    await scenario({ action: "drain-cgn-group", group: "cgn-1" });
    await advance(60);
    await settled();
    // Only the CGN alarm: a BGP session may flap meanwhile, and would be notified too.
    const notified = (await logEntries("alarm.sink.failed")).filter((e) => e.fields.alarmId === "cgn.pool.high").map((e) => [e.fields.notification, e.fields.alarmId]);
    expect(notified).toEqual([
      ["raised", "cgn.pool.high"],
      ["cleared", "cgn.pool.high"],
    ]);
  });

  it("never shows a sink's credential: not in the log, not in the configuration", async () => {
    await commit(sinks({ noc: { kind: "webhook", url: DOWN_RECEIVER, credential: SECRET } }));
    await testAlert("critical");
    await settled();
    const tail = await (await call("/api/v1/logs/tail?count=1000", { headers: admin })).text();
    const config = await (await call("/api/v1/config", { headers: admin })).text();
    expect(tail).toContain("alarm.sink.failed");
    expect(tail).not.toContain(SECRET);
    expect(config).not.toContain(SECRET);
  });
});
