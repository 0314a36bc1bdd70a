/**
 * Syslog destinations (logging.syslog): shown in GET /config with their defaults, and judged by the outbound policy as
 * webhooks are (SSRF).
 */
import { describe, expect, it } from "vitest";
import { commit, getConfig, itemOf, putConfig, rejection } from "./config-client.ts";

const destination = (fields: Record<string, string>, allowlist?: string) => ({
  ...(allowlist === undefined ? {} : { fields: { "alarms.webhookAllowlist": allowlist } }),
  listOps: [{ listPath: "logging.syslog", key: "siem", fields }],
});

describe("syslog destinations", () => {
  it(
    "are shown in GET /config with their defaults: tls, the transport's port, info, " +
      "local0, a queue of 10000, the log stream",
    async () => {
      await commit(destination({ host: "syslog.example.net" }));
      expect(itemOf(await getConfig(), "logging.syslog", "siem")?.values).toEqual({
        host: "syslog.example.net",
        port: null,
        transport: "tls",
        severity: "info",
        facility: "local0",
        queueSize: "10000",
        stream: "log",
      });
    },
  );

  it.each(["169.254.169.254", "fe80::1", "metadata.google.internal", "0.0.0.0", "::ffff:169.254.169.254"])(
    "refuse %s even when everything is allowlisted: 422 naming the host",
    async (host) => {
      const errors = await rejection(await putConfig(destination({ host }, "0.0.0.0/0, ::/0")));
      expect(errors.map((e) => e.pointer)).toEqual(["#/lists/logging.syslog/siem/host"]);
      expect(errors[0]!.detail).toContain("never a syslog receiver");
    },
  );

  it.each(["127.0.0.1", "localhost", "10.1.2.3", "::1", "fd12::1"])(
    "refuse the internal address %s without an allowlist entry, naming the key that allows it",
    async (host) => {
      const errors = await rejection(await putConfig(destination({ host, transport: "tcp" })));
      expect(errors.map((e) => e.pointer)).toEqual(["#/lists/logging.syslog/siem/host"]);
      expect(errors[0]!.detail).toContain("alarms.webhookAllowlist");
    },
  );

  it("accept an internal address its allowlist entry covers, and refuse narrowing the allowlist under it", async () => {
    await commit(destination({ host: "10.1.2.3", transport: "tcp", port: "514" }, "10.1.0.0/16"));
    const errors = await rejection(await putConfig({ fields: { "alarms.webhookAllowlist": "" } }));
    expect(errors.map((e) => e.pointer)).toEqual(["#/lists/logging.syslog/siem/host"]);
  });

  it.each(["203.0.113.10", "syslog.example.net", "2001:db8::10"])(
    "refuse plain tcp to the public %s (every log entry in clear): 422 naming the transport",
    async (host) => {
      const errors = await rejection(await putConfig(destination({ host, transport: "tcp" })));
      expect(errors.map((e) => e.pointer)).toEqual(["#/lists/logging.syslog/siem/transport"]);
      expect(errors[0]!.detail).toBe(
        `a syslog receiver at ${host.includes(":") ? `[${host}]` : host} is reached over ` +
          `tls only (plain tcp only at an allowlisted loopback or private address)`,
      );
      // The same receiver over TLS is accepted.
      await commit(destination({ host, transport: "tls" }));
    },
  );

  it.each([
    [{ host: "not a host" }, "host"],
    [{ host: "192.0.2.1", facility: "local8" }, "facility"],
    [{ host: "192.0.2.1", transport: "udp" }, "transport"],
    [{ host: "192.0.2.1", severity: "major" }, "severity"],
    [{ host: "192.0.2.1", port: "0" }, "port"],
    [{ host: "192.0.2.1", queueSize: "0" }, "queueSize"],
  ])("name the field at fault: %j", async (fields, child) => {
    const errors = await rejection(await putConfig(destination(fields)));
    expect(errors.map((e) => e.pointer)).toEqual([`#/lists/logging.syslog/siem/${child}`]);
  });
});
