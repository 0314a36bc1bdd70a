import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { describe, expect, inject, it } from "vitest";
import { call, json } from "./client.ts";
import { admin, commit, logEntries } from "./config-client.ts";
import { advance, scenario, scrape, valueOf } from "./helpers.ts";

/** A closed port: the connection fails, as a receiver that is down would. */
const DOWN_RECEIVER = `http://127.0.0.1:${inject("closedPort")}/hooks/bng`;
const DOWN_MAIL_SERVER = `smtp://127.0.0.1:${inject("closedPort")}/?from=bng@isp.example&to=pager@isp.example`;
const SECRET = "sink-credential-never-logged";

// The test fleet runs as a deployed one (no launcher), so a loopback receiver must be allowlisted.
const sinks = (items: Record<string, Record<string, string>>) => ({
  fields: { "alarms.webhookAllowlist": "127.0.0.1" },
  listOps: Object.entries(items).map(([key, fields]) => ({ listPath: "alarms.sinks", key, fields })),
});
const settled = () =>
  runInDurableObject(env.Appliance.getByName("edge-1"), (instance) =>
    Appliance.coreOf(instance).dataPlane().alertsSettled(),
  );
const testAlert = (severity: string) => call("/api/v1/alarms/test", json("POST", { severity }, admin));
const deliveries = async () =>
  [...(await logEntries("alarm.sink.retrying")), ...(await logEntries("alarm.sink.delivered"))].map((e) => e.fields);

/** A receiver that is up (test/worker/peer-server.ts): it answers 200 and counts what reaches it under `name`. */
const upReceiver = (name: string) => `http://127.0.0.1:${inject("peerServerPort")}/trap/${name}/`;
const hitsOf = async (name: string) =>
  ((await (await fetch(`http://127.0.0.1:${inject("peerServerPort")}/hits/${name}`)).json()) as { hits: number }).hits;
const sinkStates = async () =>
  (await (await call("/api/v1/alarms/sinks", { headers: admin })).json<{ sinks: Record<string, unknown>[] }>()).sinks;

describe("the alert fan-out", () => {
  it(
    "queues a test alert for each sink whose floor it meets; a receiver that is down " +
      "is retried, logged once, and shown in the sinks' state",
    async () => {
      await commit(
        sinks({
          noc: { kind: "webhook", url: DOWN_RECEIVER, severityFloor: "major", credential: SECRET },
          pager: { kind: "smtp", url: DOWN_MAIL_SERVER, severityFloor: "critical" },
        }),
      );
      const major = await testAlert("major");
      expect(major.status).toBe(200);
      await settled();
      expect((await logEntries("alarm.sink.retrying")).map((e) => e.fields)).toEqual([
        {
          sink: "noc",
          kind: "webhook",
          notification: "test",
          alarmId: "alert.test",
          reason: "not delivered",
          queued: 1,
        },
      ]);
      await testAlert("critical");
      await settled();
      // The webhook's outage is logged once; the mail server's is its own. Nothing is given up.
      expect((await logEntries("alarm.sink.retrying")).map((e) => [e.fields.sink, e.fields.queued])).toEqual([
        ["noc", 1],
        ["pager", 1],
      ]);
      expect(await logEntries("alarm.sink.failed")).toEqual([]);
      const [noc, pager] = await sinkStates();
      expect(noc).toMatchObject({
        name: "noc",
        kind: "webhook",
        state: "retrying",
        queued: 2,
        queueSize: 1000,
        delivered: 0,
        dropped: 0,
        lastSuccessUtc: null,
        lastFailureReason: "not delivered",
      });
      expect(noc!.retried).toBeGreaterThanOrEqual(1);
      expect(Date.parse(noc!.nextAttemptUtc as string)).toBeGreaterThan(Date.parse(noc!.lastFailureUtc as string));
      expect(pager).toMatchObject({
        name: "pager",
        kind: "smtp",
        severityFloor: "critical",
        state: "retrying",
        queued: 1,
      });
    },
  );

  it(
    "delivers what waited, in order, once the receiver is back; drops what found the " +
      "queue full, counts it and names the loss",
    async () => {
      await commit(sinks({ noc: { kind: "webhook", url: DOWN_RECEIVER, severityFloor: "minor", queueSize: "2" } }));
      for (const severity of ["major", "minor", "critical", "major", "minor"]) await testAlert(severity);
      await settled();
      expect(await sinkStates()).toMatchObject([{ name: "noc", queued: 2, dropped: 3, delivered: 0 }]);
      // The receiver is back (here: the sink pointed at one that answers); the retry waiting is made at once.
      await commit(
        sinks({ noc: { kind: "webhook", url: upReceiver("queued-alerts"), severityFloor: "minor", queueSize: "2" } }),
      );
      await expect.poll(() => hitsOf("queued-alerts"), { timeout: 10_000 }).toBe(2);
      await settled();
      const delivered = (await logEntries("alarm.sink.delivered")).map((e) => e.fields);
      expect(delivered.map((f) => f.status)).toEqual([200, 200]);
      expect(delivered[0]!.attempts).toBeGreaterThanOrEqual(2);
      expect((await logEntries("alarm.notifications.lost")).map((e) => e.fields)).toEqual([
        { sink: "noc", kind: "webhook", lost: 3 },
      ]);
      expect(await sinkStates()).toMatchObject([{ name: "noc", state: "idle", queued: 0, delivered: 2, dropped: 3 }]);
      const scraped = await scrape();
      expect(valueOf(scraped, "bng_alert_notifications_total", { sink: "noc", outcome: "delivered" })).toBe(2);
      expect(valueOf(scraped, "bng_alert_notifications_total", { sink: "noc", outcome: "dropped" })).toBe(3);
      expect(valueOf(scraped, "bng_alert_sink_queued", { sink: "noc" })).toBe(0);
    },
  );

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
    await commit(sinks({ noc: { kind: "webhook", url: upReceiver("real-alarms"), severityFloor: "major" } }));
    await advance(600);
    await scenario({ action: "fill-cgn-group", group: "cgn-1", percent: 95 });
    await advance(60);
    await scenario({ action: "drain-cgn-group", group: "cgn-1" });
    await advance(60);
    await expect
      .poll(
        async () =>
          (await logEntries("alarm.sink.delivered")).filter((e) => e.fields.alarmId === "cgn.pool.high").length,
        { timeout: 10_000 },
      )
      .toBe(2);
    // Only the CGN alarm: a BGP session may flap meanwhile, and would be notified too.
    const notified = (await logEntries("alarm.sink.delivered"))
      .filter((e) => e.fields.alarmId === "cgn.pool.high")
      .map((e) => [e.fields.notification, e.fields.alarmId]);
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
    expect(tail).toContain("alarm.sink.retrying");
    expect(tail).not.toContain(SECRET);
    expect(config).not.toContain(SECRET);
  });
});
