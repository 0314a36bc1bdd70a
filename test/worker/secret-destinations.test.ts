/**
 * Issue #9 item 4 and issue #13: a write-only secret stays with the
 * destination it was set for. Moving the destination drops it unless the
 * same change sets it again; everything else (including the redaction
 * placeholder a read-modify-write client sends back) keeps it.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { call, json } from "./client.ts";
import { admin, commit, getConfig, itemOf, putConfig, rejection } from "./config-client.ts";

const item = (listPath: string, key: string, fields: Record<string, string>) => ({
  listOps: [{ listPath, key, fields }],
});

describe("configuration secrets follow their destination", () => {
  const sink = (fields: Record<string, string>) => item("alarms.sinks", "noc", fields);
  const credentialOf = async () => itemOf(await getConfig(), "alarms.sinks", "noc")?.values.credential;

  it("a sink's credential survives edits that leave its URL alone, the placeholder included", async () => {
    await commit(sink({ kind: "webhook", url: "https://noc.example.net/hook", credential: "s3cret" }));
    await commit(sink({ severityFloor: "critical" }));
    await commit(sink({ url: "https://noc.example.net/hook", credential: "********" }));
    expect(await credentialOf()).toBe("********");
  });

  it("a sink moved to another URL loses its credential, even when the change sends the placeholder", async () => {
    await commit(sink({ kind: "webhook", url: "https://noc.example.net/hook", credential: "s3cret" }));
    await commit(sink({ url: "https://attacker.example.org/hook", credential: "********" }));
    expect(await credentialOf()).toBeNull();
  });

  it("a sink moved with a new credential in the same change keeps the new one", async () => {
    await commit(sink({ kind: "webhook", url: "https://noc.example.net/hook", credential: "s3cret" }));
    await commit(sink({ url: "https://noc2.example.net/hook", credential: "n3w" }));
    expect(await credentialOf()).toBe("********");
  });

  it("a sink whose kind changes loses its credential (an SMTP password is not a bus token)", async () => {
    await commit(
      sink({
        kind: "smtp",
        url: "smtp://mail.example.net/?from=bng@isp.example&to=noc@isp.example",
        credential: "mail-pass",
      }),
    );
    await commit(sink({ kind: "bus", url: "mqtts://mail.example.net" }));
    expect(await credentialOf()).toBeNull();
  });

  it("an external peer moved to another URL loses its credential", async () => {
    const token = "bngtok_" + "Q".repeat(36);
    await commit(item("webUi.peers", "lab", { url: "https://lab.example.net", credential: token }));
    expect(itemOf(await getConfig(), "webUi.peers", "lab")?.values.credential).toBe("********");
    await commit(item("webUi.peers", "lab", { url: "https://elsewhere.example.org" }));
    expect(itemOf(await getConfig(), "webUi.peers", "lab")?.values.credential).toBeNull();
  });

  it("an IPsec peer moved to another gateway needs its PSK again: 422 naming the psk", async () => {
    await commit(item("ipsec.peers", "branch", { remoteAddress: "192.0.2.10", psk: "branch-psk-1" }));
    const errors = await rejection(await putConfig(item("ipsec.peers", "branch", { remoteAddress: "198.51.100.99" })));
    expect(errors.map((e) => e.pointer)).toEqual(["#/lists/ipsec.peers/branch/psk"]);
    await commit(item("ipsec.peers", "branch", { remoteAddress: "198.51.100.99", psk: "branch-psk-2" }));
  });
});

describe("an OIDC provider's client secret follows its issuer (#13)", () => {
  const body = (issuer: string, clientSecret?: string) => ({
    enabled: true,
    displayName: "Corp SSO",
    issuer,
    clientId: "bng",
    scopes: ["openid", "groups"],
    usernameClaim: "preferred_username",
    groupsClaim: "groups",
    fetchUserInfo: false,
    redirectUri: null,
    roleMap: [{ group: "noc", role: "read-only" }],
    ...(clientSecret === undefined ? {} : { clientSecret }),
  });
  const put = (b: unknown) => call("/api/v1/auth/providers/oidc/corp", json("PUT", b, admin));
  const read = async () =>
    (await call("/api/v1/auth/providers/oidc/corp", { headers: admin })).json<Record<string, unknown>>();
  const storedSecret = () =>
    runInDurableObject(env.Appliance.getByName("edge-1"), async (instance) => {
      const settings = await Appliance.coreOf(instance).providers().signInSettings("corp");
      return settings.ok ? settings.provider.clientSecret : settings.detail;
    });

  it("a read-modify-write that sends back the placeholder keeps the stored secret", async () => {
    expect((await put(body("https://sso.example.net", "the-real-secret"))).status).toBe(200);
    const record = await read();
    const { clientSecretSet: _set, callbackPath: _path, ...rest } = record;
    expect((await put({ ...rest, displayName: "Renamed", clientSecret: "********" })).status).toBe(200);
    expect(await storedSecret()).toBe("the-real-secret");
    expect((await put(body("https://sso.example.net"))).status).toBe(200);
    expect(await storedSecret()).toBe("the-real-secret");
    expect(await read()).toMatchObject({ displayName: "Corp SSO", clientSecretSet: true });
  });

  it("a changed issuer drops the secret, placeholder or not, and sign-in says what to do", async () => {
    await put(body("https://sso.example.net", "the-real-secret"));
    expect((await put(body("https://sso.attacker.example.org", "********"))).status).toBe(200);
    expect(await read()).toMatchObject({ issuer: "https://sso.attacker.example.org", clientSecretSet: false });
    const login = await call("/api/v1/auth/oidc/corp/login", { redirect: "manual" });
    expect(login.status).toBe(409);
    expect(login.headers.get("content-type")).toBe("application/problem+json");
    expect((await login.json<z.output<typeof ProblemDetails>>()).detail).toContain("clientSecret");
  });

  it("a changed issuer with a new secret in the same write keeps the new one", async () => {
    await put(body("https://sso.example.net", "the-real-secret"));
    await put(body("https://sso2.example.net", "second-secret"));
    expect(await storedSecret()).toBe("second-secret");
    expect(await read()).toMatchObject({ clientSecretSet: true });
  });
});
