import { describe, expect, it } from "vitest";
import { call } from "./client.ts";
import { admin, commit, getConfig, itemOf, pointersOf, putConfig, rejection, storedDocument } from "./config-client.ts";

const RADIUS_SECRET = "s3cr3t-radius-value";

describe("ConfigChangeSet semantics", () => {
  it("clears a field with null: back to its default, or unset when it has none", async () => {
    await commit({ fields: { "webUi.hostname": null, "cgn.maxBindings": null } });
    const config = await getConfig();
    expect(config.fields["webUi.hostname"]).toBeNull();
    expect(config.fields["cgn.maxBindings"]).toBe("65536");
  });

  it("clears a field without a default with an empty string too", async () => {
    await commit({ fields: { "webUi.hostname": "" } });
    expect((await getConfig()).fields["webUi.hostname"]).toBeNull();
  });

  it("replaces a list-mode field from newline-separated text", async () => {
    await commit({ fields: { "captures.mirrorAllowlist": "192.0.2.10\n198.51.100.0/24\n" } });
    expect((await getConfig()).fields["captures.mirrorAllowlist"]).toBe("192.0.2.10\n198.51.100.0/24");
  });

  it("replaces a list-mode field from comma-separated text, not appending", async () => {
    await commit({ fields: { "captures.mirrorAllowlist": "192.0.2.10\n198.51.100.0/24" } });
    await commit({ fields: { "captures.mirrorAllowlist": "203.0.113.5, 203.0.113.6" } });
    expect((await getConfig()).fields["captures.mirrorAllowlist"]).toBe("203.0.113.5\n203.0.113.6");
    await commit({ fields: { "captures.mirrorAllowlist": "" } });
    expect((await getConfig()).fields["captures.mirrorAllowlist"]).toBe("");
  });

  it("names each bad element of a list-mode field", async () => {
    const errors = await rejection(
      await putConfig({ fields: { "captures.mirrorAllowlist": "192.0.2.10, 192.0.2.1/24, nonsense" } }),
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]!.pointer).toBe("#/fields/captures.mirrorAllowlist");
    expect(errors[0]!.detail).toContain("'192.0.2.1/24'");
    expect(errors[0]!.detail).toContain("'nonsense'");
  });

  it("leaves a secret unchanged when sent the placeholder", async () => {
    await commit({
      listOps: [{ listPath: "radius.servers", key: "radius-1.isp.example:1812", fields: { secret: RADIUS_SECRET } }],
    });
    expect(itemOf(await getConfig(), "radius.servers", "radius-1.isp.example:1812")?.values.secret).toBe("********");
    await commit({
      listOps: [
        { listPath: "radius.servers", key: "radius-1.isp.example:1812", fields: { secret: "********", weight: "5" } },
      ],
    });
    const stored = await storedDocument();
    expect(stored.lists["radius.servers"]!.find((s) => s.key === "radius-1.isp.example:1812")!.values).toEqual({
      weight: 5,
      secret: RADIUS_SECRET,
      transport: "simulated",
      accountingPort: null,
    });
  });

  it("never returns a secret, neither in GET /config nor in the history", async () => {
    await commit({
      listOps: [{ listPath: "radius.servers", key: "radius-2.isp.example:1812", fields: { secret: RADIUS_SECRET } }],
    });
    await commit({
      listOps: [
        {
          listPath: "radius.servers",
          key: "radius-2.isp.example:1812",
          fields: { secret: `${RADIUS_SECRET}-rotated` },
        },
      ],
    });
    const config = await (await call("/api/v1/config", { headers: admin })).text();
    const history = await (await call("/api/v1/config/history", { headers: admin })).text();
    for (const text of [config, history]) expect(text).not.toContain(RADIUS_SECRET);
    expect(history).toContain('"before":"********","after":"********"');
    // The seeded peer credentials are secrets as well.
    expect(itemOf(await getConfig(), "webUi.peers", "edge-2")?.values.credential).toBe("********");
  });

  it("adds, updates and deletes keyed-list items", async () => {
    await commit({
      listOps: [
        { listPath: "alarms.sinks", key: "noc", fields: { kind: "webhook", url: "https://noc.example.net/hook" } },
      ],
    });
    expect(itemOf(await getConfig(), "alarms.sinks", "noc")?.values).toEqual({
      kind: "webhook",
      url: "https://noc.example.net/hook",
      severityFloor: "major",
      credential: null,
      queueSize: "1000",
    });
    await commit({ listOps: [{ listPath: "alarms.sinks", key: "noc", fields: { severityFloor: "critical" } }] });
    expect(itemOf(await getConfig(), "alarms.sinks", "noc")?.values).toMatchObject({
      kind: "webhook",
      severityFloor: "critical",
    });
    await commit({ listOps: [{ listPath: "alarms.sinks", key: "noc", delete: true }] });
    expect(itemOf(await getConfig(), "alarms.sinks", "noc")).toBeUndefined();
  });

  it("refuses deleting an item that is not there, an unknown child, and a key of the wrong form", async () => {
    const errors = await rejection(
      await putConfig({
        listOps: [
          { listPath: "alarms.sinks", key: "ghost", delete: true },
          { listPath: "vrfs", key: "cust-a", fields: { tableId: "300", colour: "blue" } },
          { listPath: "radius.servers", key: "radius-3.isp.example", fields: { weight: "1" } },
          { listPath: "alarms.sinks", key: "mail", fields: { kind: "smtp", url: "https://mail.example.net" } },
        ],
      }),
    );
    expect(pointersOf(errors)).toEqual([
      "#/lists/alarms.sinks/ghost",
      "#/lists/alarms.sinks/mail/url",
      "#/lists/radius.servers/radius-3.isp.example",
      "#/lists/vrfs/cust-a/colour",
    ]);
  });

  it("keeps keys another operation manages out of change sets, but lets them be cleared", async () => {
    const errors = await rejection(await putConfig({ fields: { "webUi.certificate": "-----BEGIN CERTIFICATE-----" } }));
    expect(errors).toEqual([
      {
        in: "config",
        pointer: "#/fields/webUi.certificate",
        detail: expect.stringContaining("POST /api/v1/config/webui/certificate"),
      },
    ]);
    expect((await commit({ fields: { "webUi.certificate": null, "webUi.privateKey": null } })).changedPaths).toEqual(
      [],
    );
  });

  it("tells a keyed list under fields, and a field under listOps, from the right place", async () => {
    const errors = await rejection(
      await putConfig({ fields: { vrfs: "x" }, listOps: [{ listPath: "webUi.hostname", key: "x" }] }),
    );
    expect(errors.map((e) => [e.pointer, e.detail])).toEqual([
      ["#/fields/vrfs", expect.stringContaining("listOps")],
      ["#/lists/webUi.hostname", expect.stringContaining("under fields")],
    ]);
  });

  it("refuses removing the last listener", async () => {
    const errors = await rejection(await putConfig({ fields: { "webUi.listeners": "" } }));
    expect(pointersOf(errors)).toEqual(["#/fields/webUi.listeners"]);
  });
});
