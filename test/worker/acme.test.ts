/**
 * ACME on the appliance, inside workerd: the configuration keys, the HTTP-01
 * answer on the listener, the status in the certificate details, the account
 * key's secrecy, and when a certificate is renewed (a manual clock). The
 * whole flow against a real CA is test/e2e/acme.test.ts (Pebble).
 */
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { describe, expect, it, inject } from "vitest";
import type { z } from "zod";
import type { CertificateCommitResult, CertificateDetails, ConfigSchemaDocument } from "../../src/schemas/config.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { call } from "./client.ts";
import {
  LOOPBACK_ALLOWED,
  admin,
  commit,
  getConfig,
  history,
  logEntries,
  pointersOf,
  putConfig,
  rejection,
} from "./config-client.ts";
import { selfSigned } from "./certificates.ts";
import { certificateRequest } from "../../src/trust/acme.ts";

/** A port nothing listens on: the CA is down. */
const DOWN_CA = `https://127.0.0.1:${inject("closedPort")}/dir`;
const DAY = 86_400_000;
const appliance = () => env.Appliance.getByName("edge-1");
const settled = () => runInDurableObject(appliance(), (instance) => Appliance.coreOf(instance).acme().settled());
const details = () => call("/api/v1/config/webui/certificate", { headers: admin });
type Certificate = z.output<typeof CertificateDetails>;
type Problem = z.output<typeof ProblemDetails>;

describe("ACME configuration", () => {
  it("lists the acme keys in the schema, hot-applied, off by default", async () => {
    const schema = await (await call("/api/v1/config/schema", { headers: admin })).json<
      z.output<typeof ConfigSchemaDocument>
    >();
    const acme = schema.keys.filter((k) => k.path.startsWith("acme."));
    expect(acme.map((k) => [k.path, k.default, k.apply, k.secret])).toEqual([
      ["acme.enabled", "false", "hot", false],
      ["acme.directoryUrl", null, "hot", false],
      ["acme.contact", "", "hot", false],
      ["acme.names", "", "hot", false],
      ["acme.renewBeforeDays", "30", "hot", false],
    ]);
  });

  it("refuses enabling ACME without a directory, naming acme.directoryUrl", async () => {
    expect(pointersOf(await rejection(await putConfig({ fields: { "acme.enabled": "true" } })))).toEqual([
      "#/fields/acme.directoryUrl",
    ]);
  });

  it(
    "refuses a plain-http directory, a contact that is not an address, a name that " +
      "is not one, and renewal outside 1-365 days",
    async () => {
      const errors = await rejection(
        await putConfig({
          fields: {
            "acme.directoryUrl": "http://ca.example/dir",
            "acme.contact": "noc@isp.example\nnot an address",
            "acme.names": "edge-1.example.net, bad_name!",
            "acme.renewBeforeDays": "0",
          },
        }),
      );
      expect(pointersOf(errors)).toEqual([
        "#/fields/acme.contact",
        "#/fields/acme.directoryUrl",
        "#/fields/acme.names",
        "#/fields/acme.renewBeforeDays",
      ]);
    },
  );

  it("accepts a complete setting and shows it back", async () => {
    await commit({
      fields: {
        ...LOOPBACK_ALLOWED,
        "acme.directoryUrl": DOWN_CA,
        "acme.contact": "noc@isp.example",
        "acme.names": "edge-1.bng.example, 192.0.2.1",
        "acme.renewBeforeDays": "20",
      },
    });
    expect((await getConfig()).fields).toMatchObject({
      "acme.directoryUrl": DOWN_CA,
      "acme.contact": "noc@isp.example",
      "acme.names": "edge-1.bng.example\n192.0.2.1",
      "acme.renewBeforeDays": "20",
    });
  });
});

describe("the HTTP-01 answer", () => {
  const TOKEN = "evaGxfADs6pSRb2LAv9IZf17Dt3juxGJ-PCt92wr-oA";
  const publish = (token: string, answer: string) =>
    runInDurableObject(
      appliance(),
      (_instance, state) =>
        void state.storage.sql.exec(
          "INSERT INTO acme_challenges (token, key_authorization) VALUES (?, ?)",
          token,
          answer,
        ),
    );

  it("serves the key authorization of a pending token to anyone, as text/plain", async () => {
    await publish(TOKEN, `${TOKEN}.9jg46WB3rR_AHD-EBXdN7cBkH1WOu0tA3M9fm21mqTI`);
    const response = await call(`/.well-known/acme-challenge/${TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await response.text()).toBe(`${TOKEN}.9jg46WB3rR_AHD-EBXdN7cBkH1WOu0tA3M9fm21mqTI`);
    expect(await logEntries("acme.challenge.served")).toMatchObject([{ fields: { token: TOKEN } }]);
  });

  it("answers 404 for any other token, a prefix of a pending one included", async () => {
    await publish(TOKEN, `${TOKEN}.thumbprint`);
    for (const token of [TOKEN.slice(0, -1), `${TOKEN}A`, "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]) {
      const response = await call(`/.well-known/acme-challenge/${token}`);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
  });

  it("answers 400 naming the token when it is not base64url", async () => {
    const response = await call("/.well-known/acme-challenge/not.a.token!");
    expect(response.status).toBe(400);
    expect((await response.json<Problem>()).errors).toMatchObject([{ in: "path", pointer: "#/token" }]);
  });
});

describe("ACME status", () => {
  it("records a failed attempt against an unreachable CA, in the details' 404, the log and the back-off", async () => {
    await commit({ fields: { ...LOOPBACK_ALLOWED, "acme.directoryUrl": DOWN_CA, "acme.enabled": "true" } });
    await settled();
    const missing = await details();
    expect(missing.status).toBe(404);
    expect((await missing.json<Problem>()).detail).toMatch(
      new RegExp(`ACME is failed \\(last error: .*127\\.0\\.0\\.1:${inject("closedPort")}.*unreachable`),
    );
    const [failed] = await logEntries("acme.order.failed");
    expect(failed!.fields).toMatchObject({ directoryUrl: DOWN_CA, failures: 1 });
    const nextAttempt = Date.parse(String(failed!.fields.nextAttempt));
    // RFC 8555 §6.6: no hammering; the first retry waits a minute.
    expect(nextAttempt - Date.now()).toBeGreaterThan(50_000);
    expect(nextAttempt - Date.now()).toBeLessThanOrEqual(60_000);
    expect(await logEntries("acme.order.started")).toMatchObject([
      { fields: { directoryUrl: DOWN_CA, names: "edge-1.bng.localhost" } },
    ]);
  });

  it("shows an uploaded certificate as uploaded, with ACME's state beside it", async () => {
    await commit({ fields: { ...LOOPBACK_ALLOWED, "acme.directoryUrl": DOWN_CA, "acme.enabled": "true" } });
    await settled();
    const pair = await selfSigned();
    const uploaded = await call("/api/v1/config/webui/certificate", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify(pair),
    });
    expect((await uploaded.json<z.output<typeof CertificateCommitResult>>()).warnings).toEqual([
      expect.stringContaining("acme.enabled is true"),
    ]);
    const shown = await (await details()).json<Certificate>();
    expect(shown.source).toBe("uploaded");
    expect(shown.acme).toMatchObject({
      enabled: true,
      directoryUrl: DOWN_CA,
      state: "failed",
      names: ["edge-1.bng.localhost"],
      issuedUtc: null,
      renewalUtc: null,
    });
  });
});

describe("the account key", () => {
  const storeAccount = (directory: string) =>
    runInDurableObject(
      appliance(),
      (_instance, state) =>
        void state.storage.sql.exec(
          "INSERT OR REPLACE INTO acme_account (id, directory_url, key_jwk, account_url) VALUES (1, ?, ?, ?)",
          directory,
          JSON.stringify({ kty: "EC", d: "SECRET-D" }),
          `${directory}/acct/1`,
        ),
    );
  const accounts = () =>
    runInDurableObject(appliance(), (_instance, state) =>
      state.storage.sql.exec("SELECT directory_url FROM acme_account").toArray(),
    );

  it("is in no configuration read, history or certificate detail", async () => {
    await commit({ fields: { ...LOOPBACK_ALLOWED, "acme.directoryUrl": DOWN_CA } });
    await storeAccount(DOWN_CA);
    for (const path of ["/api/v1/config", "/api/v1/config/history", "/api/v1/config/schema"]) {
      expect(await (await call(path, { headers: admin })).text()).not.toContain("SECRET-D");
    }
    expect(JSON.stringify(await history())).not.toContain("SECRET-D");
  });

  it("is dropped with its account when the directory URL changes", async () => {
    await commit({ fields: { ...LOOPBACK_ALLOWED, "acme.directoryUrl": DOWN_CA } });
    await storeAccount(DOWN_CA);
    await commit({ fields: { "acme.directoryUrl": "https://127.0.0.2:9/dir" } });
    expect(await accounts()).toEqual([]);
    expect(await logEntries("acme.account.dropped")).toMatchObject([{ fields: { directoryUrl: DOWN_CA } }]);
  });

  it("is kept while the directory URL stays", async () => {
    await commit({ fields: { ...LOOPBACK_ALLOWED, "acme.directoryUrl": DOWN_CA } });
    await storeAccount(DOWN_CA);
    await commit({ fields: { "acme.contact": "noc@isp.example" } });
    expect(await accounts()).toEqual([{ directory_url: DOWN_CA }]);
  });
});

describe("renewal", () => {
  // The appliance serves an ACME certificate valid from `notBefore` for `days`; `due(now)` is asked with the manual
  // clock.
  async function issued(days: number, renewBeforeDays = 30) {
    await commit({
      fields: { ...LOOPBACK_ALLOWED, "acme.directoryUrl": DOWN_CA, "acme.renewBeforeDays": String(renewBeforeDays) },
    });
    const pair = await selfSigned();
    // Issued yesterday: when ACME is enabled below, the check at that commit finds it current.
    const notBefore = Date.now() - DAY;
    await runInDurableObject(appliance(), (instance, state) => {
      Appliance.coreOf(instance)
        .config()
        .installCertificate(pair.certificatePem, pair.privateKeyPem, { actor: "system" }, "acme");
      state.storage.sql.exec(
        "UPDATE acme_state SET state = 'issued', names = ?, issued_fingerprint = ?, " +
          "issued_ms = ?, not_before_ms = ?, not_after_ms = ? WHERE id = 1",
        JSON.stringify(["edge-1.bng.localhost"]),
        pair.fingerprint,
        notBefore,
        notBefore,
        notBefore + days * DAY,
      );
    });
    // Enabled last, with the CA down: the check at commit sees a current certificate and leaves it.
    await commit({ fields: { "acme.enabled": "true" } });
    const due = (dayOfLife: number) =>
      runInDurableObject(appliance(), (instance) =>
        Appliance.coreOf(instance)
          .acme()
          .due(notBefore + dayOfLife * DAY, pair.fingerprint),
      );
    return { pair, due, notBefore };
  }

  it("renews a 90-day certificate 30 days before it expires, not earlier", async () => {
    const { due } = await issued(90);
    expect(await due(59.9)).toBe(false);
    expect(await due(60)).toBe(true);
  });

  it("honours acme.renewBeforeDays", async () => {
    const { due } = await issued(90, 10);
    expect(await due(79.9)).toBe(false);
    expect(await due(80)).toBe(true);
  });

  it("renews a short-lived certificate two thirds into its lifetime, not at once", async () => {
    const { due } = await issued(6);
    expect(await due(3.9)).toBe(false);
    expect(await due(4)).toBe(true);
  });

  it("starts the renewal from the alarm once renewal time has come", async () => {
    await issued(90);
    expect(await logEntries("acme.order.started")).toEqual([]);
    // 61 days on: the certificate served is past its renewal time (30 days before the end).
    await runInDurableObject(appliance(), (_instance, state) => {
      const shift = 60 * DAY;
      state.storage.sql.exec(
        "UPDATE acme_state SET not_before_ms = not_before_ms - ?, not_after_ms = not_after_ms - ? WHERE id = 1",
        shift,
        shift,
      );
    });
    await runInDurableObject(appliance(), (instance) => (instance as Appliance).alarm());
    await settled();
    expect(await logEntries("acme.order.started")).toMatchObject([
      { fields: { directoryUrl: DOWN_CA, names: "edge-1.bng.localhost" } },
    ]);
    // The CA is down: the certificate served stays, and the failure is shown beside it.
    const shown = await (await details()).json<Certificate>();
    expect(shown).toMatchObject({ source: "acme", acme: { state: "failed" } });
  });

  it("shows the served ACME certificate as source acme with its renewal time", async () => {
    const { notBefore } = await issued(90);
    const shown = await (await details()).json<Certificate>();
    expect(shown.source).toBe("acme");
    expect(shown.acme).toMatchObject({ state: "issued", renewalUtc: new Date(notBefore + 60 * DAY).toISOString() });
  });

  it("replaces an uploaded certificate at once, and orders anew when the names change", async () => {
    const { due, notBefore } = await issued(90);
    const other = await selfSigned();
    expect(
      await runInDurableObject(appliance(), (instance) =>
        Appliance.coreOf(instance)
          .acme()
          .due(notBefore + DAY, other.fingerprint),
      ),
    ).toBe(true);
    expect(await due(1)).toBe(false);
    await commit({ fields: { "acme.names": "edge-1.bng.example" } });
    await settled();
    // The attempt at that commit failed (the CA is down): the next one waits out the back-off, then is due.
    expect(
      await runInDurableObject(appliance(), (instance) =>
        Appliance.coreOf(instance)
          .acme()
          .due(Date.now() + 61_000, "unused"),
      ),
    ).toBe(true);
  });
});

describe("the certificate request", () => {
  it("is a PKCS#10 request signed by its ECDSA P-256 key, naming DNS names and IP addresses", async () => {
    const { csr, privateKeyPem } = await certificateRequest(["edge-1.bng.example", "192.0.2.1", "2001:db8::1"]);
    const der = Uint8Array.from(atob(csr.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const request = new x509.Pkcs10CertificateRequest(der);
    expect(await request.verify()).toBe(true);
    expect(request.subject).toBe("CN=edge-1.bng.example");
    const san = new x509.SubjectAlternativeNameExtension(request.getExtension("2.5.29.17")!.rawData);
    expect(san.names.toJSON()).toEqual([
      { type: "dns", value: "edge-1.bng.example" },
      { type: "ip", value: "192.0.2.1" },
      { type: "ip", value: "2001:db8::1" },
    ]);
    expect(privateKeyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });
});
