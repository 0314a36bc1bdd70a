/**
 * Issue #25: SMTP and MQTT sinks reach their servers through the same outbound
 * policy as webhooks (src/config/destinations.ts), and their URLs say
 * everything a delivery needs (src/config/sink-urls.ts), checked when they are
 * written: a clear 422 naming the sink's url rather than a failure at the first alarm.
 */
import { describe, expect, it } from "vitest";
import { commit, putConfig, rejection } from "./config-client.ts";

const ENVELOPE = "/?from=bng@isp.example&to=noc@isp.example";
const sink = (kind: string, url: string, fields: Record<string, string> = {}) => ({
  fields,
  listOps: [{ listPath: "alarms.sinks", key: "noc", fields: { kind, url } }],
});
const refusal = async (kind: string, url: string, fields: Record<string, string> = {}) => {
  const errors = await rejection(await putConfig(sink(kind, url, fields)));
  expect(errors.map((e) => e.pointer)).toEqual(["#/lists/alarms.sinks/noc/url"]);
  return errors[0]!.detail;
};

describe("socket sink destinations", () => {
  it.each([
    ["smtp", `smtp://169.254.169.254${ENVELOPE}`],
    ["smtp", `smtps://metadata.google.internal${ENVELOPE}`],
    ["bus", "mqtts://[fe80::1]"],
    ["bus", "mqtt://[::ffff:169.254.169.254]"],
  ])("refuse a %s sink at %s even when everything is allowlisted", async (kind, url) => {
    expect(await refusal(kind, url, { "alarms.webhookAllowlist": "0.0.0.0/0, ::/0" })).toContain("never");
  });

  it.each([
    ["smtp", `smtp://127.0.0.1${ENVELOPE}`],
    ["smtp", `smtps://10.1.2.3:465${ENVELOPE}`],
    ["bus", "mqtt://localhost"],
    ["bus", "mqtts://192.168.1.10"],
    // A non-special URL leaves its host opaque: 0x7f.1 and 2130706433 are judged as the 127.0.0.1 a resolver makes of
    // them.
    ["bus", "mqtt://0x7f.1/alarms"],
    ["smtp", `smtp://2130706433${ENVELOPE}`],
  ])("refuse a %s sink at the internal %s until the allowlist holds it", async (kind, url) => {
    expect(await refusal(kind, url)).toContain("alarms.webhookAllowlist");
    await commit(sink(kind, url, { "alarms.webhookAllowlist": "127.0.0.0/8, 10.0.0.0/8, 192.168.0.0/16" }));
  });

  it("take plain MQTT only at an allowlisted internal address, and never plain SMTP", async () => {
    expect(await refusal("bus", "mqtt://broker.isp.example")).toBe(
      "an MQTT broker is reached over mqtts only (plain mqtt only at an allowlisted loopback or private address)",
    );
    await commit(sink("bus", "mqtts://broker.isp.example/noc/alarms"));
    expect(await refusal("smtp", "mailto:noc@isp.example")).toBe("an absolute http(s), smtp(s) or mqtt(s) URL");
    expect(await refusal("bus", "nats://bus.isp.example:4222")).toBe("an absolute http(s), smtp(s) or mqtt(s) URL");
    expect(await refusal("bus", "smtps://mail.isp.example/?from=bng@isp.example&to=noc@isp.example")).toBe(
      "a bus sink needs a mqtt, mqtts URL",
    );
  });

  it.each([
    ["smtp://mail.isp.example", "names one sender"],
    ["smtp://mail.isp.example/?from=bng@isp.example", "recipients"],
    ["smtp://mail.isp.example/?from=bng@isp.example&to=noc@isp.example&cc=x@isp.example", "not cc"],
    [
      "smtp://mail.isp.example/?from=bng@isp.example&to=noc@isp.example%0D%0ABcc:%20x@evil.example",
      "not an e-mail address",
    ],
    ["smtp://mail.isp.example/?from=%3Cbng@isp.example%3E&to=noc@isp.example", "not an e-mail address"],
    ["smtp://mail.isp.example/outbox?from=bng@isp.example&to=noc@isp.example", "no path"],
  ])("refuse the SMTP sink %s, saying what is missing", async (url, detail) => {
    expect(await refusal("smtp", url)).toContain(detail);
  });

  it.each([
    ["mqtts://broker.isp.example/noc/%23", "no +, #"],
    ["mqtts://broker.isp.example/noc/+/x", "no +, #"],
    ["mqtts://broker.isp.example/?qos=2", "no query"],
  ])("refuse the MQTT sink %s: a topic name has no wildcard", async (url, detail) => {
    expect(await refusal("bus", url)).toContain(detail);
  });

  it("keep a sender, several recipients and a topic prefix", async () => {
    await commit(
      sink("smtp", "smtp://alerts@mail.isp.example/?from=bng@isp.example&to=noc@isp.example,oncall@isp.example"),
    );
    await commit(sink("bus", "mqtts://noc@broker.isp.example:8884/isp/bng"));
  });
});
