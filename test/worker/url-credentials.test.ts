/** Issue #9 item 7: a URL's `user:password@` is never shown, to anyone, through any read. */
import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { describe, expect, inject, it } from "vitest";
import { bearer, call, tokenWithRole } from "./client.ts";
import { LOOPBACK_ALLOWED, commit, itemOf, getConfig, putConfig, rejection } from "./config-client.ts";
import { selfSigned } from "./certificates.ts";

const PASSWORD = "hunter2-mail-relay";
const SMTP_URL = `smtp://alerts:${PASSWORD}@mail.example.net:587/?from=bng@isp.example&to=noc@isp.example`;
const sink = (url: string, extra: Record<string, string> = {}, appliance = "edge-1") =>
  commit({ listOps: [{ listPath: "alarms.sinks", key: "mail", fields: { kind: "smtp", url, ...extra } }] }, appliance);
const storedUrl = () =>
  runInDurableObject(
    env.Appliance.getByName("edge-1"),
    (instance) =>
      Appliance.coreOf(instance)
        .config()
        .items("alarms.sinks")
        .find((i) => i.key === "mail")?.values.url,
  );

describe("credentials inside URLs", () => {
  it("GET /config shows a read-only reader the URL with its user part redacted", async () => {
    await sink(SMTP_URL);
    const response = await call("/api/v1/config", { headers: bearer(await tokenWithRole("read-only")) });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain("alerts:");
    expect(itemOf(JSON.parse(text), "alarms.sinks", "mail")?.values.url).toBe(
      "smtp://********@mail.example.net:587/?from=bng@isp.example&to=noc@isp.example",
    );
  });

  it("the history shows neither the old nor the new user part", async () => {
    await sink(SMTP_URL);
    await sink("mqtts://bus:other-password@bus.example.net:8883", { kind: "bus" });
    const response = await call("/api/v1/config/history", { headers: bearer(await tokenWithRole("read-only")) });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain("other-password");
    expect(text).toContain("mqtts://********@bus.example.net:8883");
  });

  it("a peer's configuration read through the fleet proxy is redacted too", async () => {
    await sink(SMTP_URL, {}, "edge-2");
    const response = await call("/api/v1/fleet/edge-2/config", { headers: bearer(await tokenWithRole("read-only")) });
    expect(response.status).toBe(200);
    expect(await response.text()).not.toContain(PASSWORD);
  });

  it("a read-modify-write that sends the redacted URL back keeps the stored one", async () => {
    await sink(SMTP_URL);
    const read = itemOf(await getConfig(), "alarms.sinks", "mail")!.values;
    await sink(read.url!, { severityFloor: "critical" });
    expect(await storedUrl()).toBe(SMTP_URL);
  });

  it("the placeholder with any other change to the URL is refused, naming the field", async () => {
    await sink(SMTP_URL);
    const errors = await rejection(
      await putConfig({
        listOps: [
          {
            listPath: "alarms.sinks",
            key: "mail",
            fields: { url: "smtp://********@attacker.example.org:587/?from=bng@isp.example&to=noc@isp.example" },
          },
        ],
      }),
    );
    expect(errors.map((e) => e.pointer)).toEqual(["#/lists/alarms.sinks/mail/url"]);
    expect(await storedUrl()).toBe(SMTP_URL);
  });
});

describe("the ACME directory URL's user part (issue #22)", () => {
  const PASSWORD_IN_URL = "acme-hunter2";
  const directory = `https://acct:${PASSWORD_IN_URL}@127.0.0.1:${inject("closedPort")}/dir`;
  const attempt = async () => {
    await commit({ fields: { ...LOOPBACK_ALLOWED, "acme.directoryUrl": directory, "acme.enabled": "true" } });
    await runInDurableObject(env.Appliance.getByName("edge-1"), (instance) =>
      Appliance.coreOf(instance).acme().settled(),
    );
  };

  it("is redacted in the log a read-only reader tails", async () => {
    await attempt();
    const response = await call("/api/v1/logs/tail?limit=500", { headers: bearer(await tokenWithRole("read-only")) });
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain("acme.order.failed");
    expect(text).toContain("https://********@127.0.0.1:");
    expect(text).not.toContain(PASSWORD_IN_URL);
  });

  it("is redacted in GET /config/webui/certificate, its ACME state and last error", async () => {
    await attempt();
    const response = await call("/api/v1/config/webui/certificate", {
      headers: bearer(await tokenWithRole("read-only")),
    });
    // Nothing installed yet: the 404 tells the ACME state and its last error.
    expect(response.status).toBe(404);
    const text = await response.text();
    expect(text).toContain("********@127.0.0.1");
    expect(text).not.toContain(PASSWORD_IN_URL);
    const pair = await selfSigned();
    await runInDurableObject(env.Appliance.getByName("edge-1"), (instance) =>
      Appliance.coreOf(instance)
        .config()
        .installCertificate(pair.certificatePem, pair.privateKeyPem, { actor: "system" }),
    );
    const shown = await call("/api/v1/config/webui/certificate", { headers: bearer(await tokenWithRole("read-only")) });
    expect(shown.status).toBe(200);
    const body = await shown.json<{ acme: { directoryUrl: string } }>();
    expect(body.acme.directoryUrl).toBe(`https://********@127.0.0.1:${inject("closedPort")}/dir`);
  });
});
