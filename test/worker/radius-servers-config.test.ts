/**
 * Real RADIUS servers in the configuration (radius.servers' transport, secret and accountingPort; the client's
 * radius.* fields): shown with their defaults, refused with a 422 naming the field when incomplete, mixed with
 * simulated ones or sent where the outbound policy forbids (plain tcp only to an allowlisted internal address).
 */
import { describe, expect, it } from "vitest";
import { getConfig, itemOf, putConfig, rejection } from "./config-client.ts";

const server = (key: string, fields: Record<string, string>, extra: Record<string, string> = {}) => ({
  fields: { "radius.subscriberPassword": "cpe-password", ...extra },
  listOps: [{ listPath: "radius.servers", key, fields }],
});

/** Replaces the seeded (simulated) servers with `fields` at `key`. */
const only = async (key: string, fields: Record<string, string>, extra: Record<string, string> = {}) => {
  const keys = ((await getConfig()).lists["radius.servers"] ?? []).map((item) => item.key).filter((k) => k !== key);
  return putConfig({
    fields: { "radius.subscriberPassword": "cpe-password", ...extra },
    listOps: [
      ...keys.map((k) => ({ listPath: "radius.servers", key: k, delete: true })),
      { listPath: "radius.servers", key, fields },
    ],
  });
};

describe("radius.servers", () => {
  it(
    "shows a seeded server as simulated, its accounting port and the client's " + "settings at their defaults",
    async () => {
      const config = await getConfig();
      const first = config.lists["radius.servers"]![0]!;
      expect(first.values).toMatchObject({ transport: "simulated", accountingPort: null, secret: null });
      expect(config.fields).toMatchObject({
        "radius.requestsPerSecond": "300",
        "radius.timeoutSeconds": "3",
        "radius.subscriberPassword": null,
      });
    },
  );

  it("takes a real tcp server at an allowlisted loopback address, its secrets redacted", async () => {
    const response = await only(
      "127.0.0.1:1812",
      { transport: "tcp", secret: "s3cret" },
      { "alarms.webhookAllowlist": "127.0.0.0/8" },
    );
    expect(response.status).toBe(200);
    const config = await getConfig();
    expect(itemOf(config, "radius.servers", "127.0.0.1:1812")?.values).toMatchObject({
      transport: "tcp",
      secret: "********",
      accountingPort: null,
    });
    expect(config.fields["radius.subscriberPassword"]).toBe("********");
  });

  it("needs a real server's shared secret", async () => {
    const errors = await rejection(await only("192.0.2.10:2083", { transport: "tls" }));
    expect(errors.map((e) => e.pointer)).toEqual(["#/lists/radius.servers/192.0.2.10:2083/secret"]);
  });

  it("needs radius.subscriberPassword once a server is real", async () => {
    const keys = ((await getConfig()).lists["radius.servers"] ?? []).map((item) => item.key);
    const errors = await rejection(
      await putConfig({
        listOps: [
          ...keys.map((k) => ({ listPath: "radius.servers", key: k, delete: true })),
          { listPath: "radius.servers", key: "192.0.2.10:2083", fields: { transport: "tls", secret: "x" } },
        ],
      }),
    );
    expect(errors.map((e) => e.pointer)).toEqual(["#/fields/radius.subscriberPassword"]);
  });

  it("refuses a real server beside simulated ones, naming each simulated one's transport", async () => {
    const simulated = ((await getConfig()).lists["radius.servers"] ?? []).map((item) => item.key);
    const errors = await rejection(await putConfig(server("192.0.2.10:2083", { transport: "tls", secret: "x" })));
    expect(errors.map((e) => e.pointer).sort()).toEqual(
      simulated.map((k) => `#/lists/radius.servers/${k}/transport`).sort(),
    );
    expect(errors[0]!.detail).toContain("192.0.2.10:2083 is tls");
  });

  it(
    "refuses plain tcp to a public address (RFC 6613: TCP only where TLS or IPsec " +
      "protects it), and takes tls there",
    async () => {
      const errors = await rejection(await only("192.0.2.10:1812", { transport: "tcp", secret: "x" }));
      expect(errors.map((e) => e.pointer)).toEqual(["#/lists/radius.servers/192.0.2.10:1812/transport"]);
      expect(errors[0]!.detail).toContain("tls only");
      expect((await only("192.0.2.10:2083", { transport: "tls", secret: "x" })).status).toBe(200);
    },
  );

  it.each(["169.254.169.254:1812", "[fe80::1]:1812"])("never connects to %s, allowlisted or not", async (key) => {
    const errors = await rejection(
      await only(key, { transport: "tls", secret: "x" }, { "alarms.webhookAllowlist": "0.0.0.0/0, ::/0" }),
    );
    expect(errors.map((e) => e.pointer)).toEqual([`#/lists/radius.servers/${key}/transport`]);
    expect(errors[0]!.detail).toContain("never a RADIUS server");
  });

  it("refuses an internal address without its allowlist entry", async () => {
    const errors = await rejection(await only("10.9.9.9:2083", { transport: "tls", secret: "x" }));
    expect(errors[0]!.detail).toContain("alarms.webhookAllowlist");
  });

  it.each([
    [{ transport: "udp" }, "transport"],
    [{ accountingPort: "0" }, "accountingPort"],
  ])("names the field at fault: %j", async (fields, child) => {
    const errors = await rejection(await putConfig(server("192.0.2.10:1812", fields)));
    expect(errors.map((e) => e.pointer)).toEqual([`#/lists/radius.servers/192.0.2.10:1812/${child}`]);
  });

  it.each([
    ["radius.requestsPerSecond", "0"],
    ["radius.timeoutSeconds", "61"],
  ])("refuses %s = %s", async (field, value) => {
    const errors = await rejection(await putConfig({ fields: { [field]: value } }));
    expect(errors.map((e) => e.pointer)).toEqual([`#/fields/${field}`]);
  });
});
