/** Issue #9 item 5: alarm webhooks cannot be aimed at metadata services or internal addresses (SSRF). */
import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { describe, expect, it, inject } from "vitest";
import type { ConfigValues } from "../../src/schemas/config.ts";
import { call, json } from "./client.ts";
import { admin, commit, logEntries, putConfig, rejection } from "./config-client.ts";

/** A loopback receiver that is down: a port bound and released. */
const DOWN_HOOK = `http://127.0.0.1:${inject("closedPort")}/hook`;

const webhook = (url: string, fields: Record<string, string> = {}) => ({
  fields,
  listOps: [{ listPath: "alarms.sinks", key: "noc", fields: { kind: "webhook", url } }],
});
const settled = () =>
  runInDurableObject(env.Appliance.getByName("edge-1"), (instance) =>
    Appliance.coreOf(instance).dataPlane().alertsSettled(),
  );

describe("webhook destinations", () => {
  it.each([
    "http://169.254.169.254/latest/meta-data/",
    "http://[fe80::1]/hook",
    "http://metadata.google.internal/computeMetadata/v1/",
    "http://100.100.100.200/latest/meta-data/",
    "http://[fd00:ec2::254]/latest/meta-data/",
    "http://0.0.0.0:8080/",
    "http://[::ffff:169.254.169.254]/",
    "http://2852039166/", // 169.254.169.254 as one decimal number
  ])("refuses %s even when everything is allowlisted: 422 naming the sink's url", async (url) => {
    const errors = await rejection(await putConfig(webhook(url, { "alarms.webhookAllowlist": "0.0.0.0/0, ::/0" })));
    expect(errors.map((e) => e.pointer)).toEqual(["#/lists/alarms.sinks/noc/url"]);
    expect(errors[0]!.detail).toContain("never");
  });

  it.each([
    "http://127.0.0.1:9000/hook",
    "http://localhost:9000/hook",
    "http://api.localhost/hook",
    "http://[::1]:9000/hook",
    "http://10.20.30.40/hook",
    "http://192.168.1.10/hook",
    "http://172.16.5.5/hook",
    "http://[fd12:3456::1]/hook",
    "http://0x7f.1/hook",
    "http://[::ffff:10.0.0.1]/hook",
  ])("refuses the internal address %s without an allowlist entry, saying which key allows it", async (url) => {
    const errors = await rejection(await putConfig(webhook(url)));
    expect(errors.map((e) => e.pointer)).toEqual(["#/lists/alarms.sinks/noc/url"]);
    expect(errors[0]!.detail).toContain("alarms.webhookAllowlist");
  });

  it("accepts an internal address its allowlist entry covers, and a public one without", async () => {
    await commit(webhook("http://10.20.30.40/hook", { "alarms.webhookAllowlist": "10.20.0.0/16" }));
    await commit({
      listOps: [
        {
          listPath: "alarms.sinks",
          key: "public",
          fields: { kind: "webhook", url: "https://alerts.example.net/hook" },
        },
      ],
    });
  });

  it.each([
    ["http://203.0.113.10/hook", { credential: "s3cret" }],
    ["http://alerts.example.net/hook", {}],
  ])(
    "refuses plain http to the public %s (its bearer and the alarms in clear): 422 naming the sink's url",
    async (url, extra) => {
      const body = webhook(url);
      Object.assign(body.listOps[0]!.fields, extra);
      const errors = await rejection(await putConfig(body));
      expect(errors.map((e) => e.pointer)).toEqual(["#/lists/alarms.sinks/noc/url"]);
      expect(errors[0]!.detail).toBe(
        "a webhook is reached over https only (plain http only at an allowlisted loopback or private address)",
      );
      // POST /config/validate says the same before any commit.
      const checked = await (await call("/api/v1/config/validate", json("POST", body, admin))).json<{
        valid: boolean;
        errors: { pointer: string }[];
      }>();
      expect(checked).toMatchObject({ valid: false, errors: [{ pointer: "#/lists/alarms.sinks/noc/url" }] });
    },
  );

  it("refuses to narrow the allowlist under a sink that needs it", async () => {
    await commit(webhook("http://10.20.30.40/hook", { "alarms.webhookAllowlist": "10.20.0.0/16" }));
    const errors = await rejection(await putConfig({ fields: { "alarms.webhookAllowlist": null } }));
    expect(errors.map((e) => e.pointer)).toEqual(["#/lists/alarms.sinks/noc/url"]);
  });

  it("a deployed appliance allows no loopback by default; the key is listed in the schema", async () => {
    const config = await (await call("/api/v1/config", { headers: admin })).json<ConfigValues>();
    expect(config.fields["alarms.webhookAllowlist"]).toBe("");
  });

  it(
    "does not send to a stored sink the allowlist no longer covers, and logs no " + "detail that maps the network",
    async () => {
      await commit(webhook(DOWN_HOOK, { "alarms.webhookAllowlist": "127.0.0.1" }));
      // A sink stored before the rule, or an allowlist edited behind the validator: the delivery still refuses.
      await runInDurableObject(env.Appliance.getByName("edge-1"), (instance) => {
        Appliance.coreOf(instance)
          .dataPlane()
          .setAlertSinks(
            [
              {
                name: "noc",
                kind: "webhook",
                url: DOWN_HOOK,
                severityFloor: "major",
                credential: null,
                queueSize: 1000,
              },
            ],
            [],
          );
      });
      expect((await call("/api/v1/alarms/test", json("POST", { severity: "critical" }, admin))).status).toBe(200);
      await settled();
      expect((await logEntries("alarm.sink.failed")).map((e) => e.fields.reason)).toEqual(["destination not allowed"]);
    },
  );

  it.skipIf(inject("loopbackName") === null)(
    "judges a name by what it resolves to when it connects: a name of loopback is " +
      "not sent to unless loopback is allowlisted (issue #47)",
    async () => {
      // This machine's host name, which the system resolves to 127.x (test/worker/peer-server.ts checks it with Node's
      // resolver).
      const hook = `https://${inject("loopbackName")}:${inject("closedPort")}/hook`;
      await commit(webhook(hook, { "alarms.webhookAllowlist": "192.0.2.0/24" }));
      expect((await call("/api/v1/alarms/test", json("POST", { severity: "critical" }, admin))).status).toBe(200);
      await settled();
      expect((await logEntries("alarm.sink.failed")).map((e) => e.fields.reason)).toEqual(["destination not allowed"]);
      // Allowlisted, it is tried (the receiver is down: not delivered and queued for a retry, issue #50, but not
      // refused by the policy).
      await commit({ fields: { "alarms.webhookAllowlist": "127.0.0.0/8" } });
      expect((await call("/api/v1/alarms/test", json("POST", { severity: "critical" }, admin))).status).toBe(200);
      await settled();
      expect((await logEntries("alarm.sink.failed")).map((e) => e.fields.reason)).toEqual(["destination not allowed"]);
      expect((await logEntries("alarm.sink.retrying")).map((e) => e.fields.reason)).toEqual(["not delivered"]);
    },
  );

  it("a failed delivery reads the same whatever the receiver did", async () => {
    await commit(webhook(DOWN_HOOK, { "alarms.webhookAllowlist": "127.0.0.1" }));
    await call("/api/v1/alarms/test", json("POST", { severity: "critical" }, admin));
    await settled();
    const [failed] = await logEntries("alarm.sink.retrying");
    expect(failed!.fields).toEqual({
      sink: "noc",
      kind: "webhook",
      notification: "test",
      alarmId: "alert.test",
      reason: "not delivered",
      queued: 1,
    });
  });
});
