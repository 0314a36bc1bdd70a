/**
 * Issue #9 item 11: a session an OIDC provider vouched for ends when the provider is deleted, disabled or maps roles
 * differently.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { Appliance } from "../../durable-objects/appliance.ts";
import { describe, expect, it } from "vitest";
import { BOOTSTRAP_TOKEN, bearer, call, json, tokenWithRole } from "./client.ts";
import { logEntries } from "./config-client.ts";
import { readToEnd, readUntil } from "./event-stream.ts";

const admin = bearer(BOOTSTRAP_TOKEN);
const provider = (extra: Record<string, unknown> = {}) => ({
  enabled: true,
  displayName: "Corp SSO",
  issuer: "https://sso.example.net",
  clientId: "bng",
  clientSecret: "s3cret",
  roleMap: { noc: "operator" },
  ...extra,
});
const putProvider = (body: unknown) => call("/api/v1/auth/providers/oidc/corp", json("PUT", body, admin));

/**
 * A browser session as the callback opens it once the provider vouched for alice (the sign-in itself is the e2e tests'
 * job).
 */
async function signedIn(): Promise<string> {
  const { sessionId } = await runInDurableObject(env.Appliance.getByName("edge-1"), (instance) =>
    Appliance.coreOf(instance).identity().externalLogin("alice@corp", "operator", "corp", "192.0.2.1"),
  );
  const cookie = `bng_session=${sessionId}`;
  expect((await call("/api/v1/auth/whoami", { headers: { cookie } })).status).toBe(200);
  return cookie;
}
const whoami = (cookie: string) => call("/api/v1/auth/whoami", { headers: { cookie } });

describe("OIDC sessions and their provider", () => {
  it.each([
    ["disabling it", provider({ enabled: false })],
    ["changing its role map", provider({ roleMap: { noc: "super-user" } })],
    ["pointing it at another issuer", provider({ issuer: "https://other-sso.example.net" })],
  ])("%s ends the sessions it vouched for", async (_what, change) => {
    expect((await putProvider(provider())).status).toBe(200);
    const cookie = await signedIn();
    expect((await putProvider(change)).status).toBe(200);
    expect((await whoami(cookie)).status).toBe(401);
    expect((await logEntries("auth.oidc.sessions.ended")).map((e) => e.fields)).toMatchObject([
      { provider: "corp", sessions: 1 },
    ]);
  });

  it("deleting it ends the sessions it vouched for", async () => {
    expect((await putProvider(provider())).status).toBe(200);
    const cookie = await signedIn();
    expect((await call("/api/v1/auth/providers/oidc/corp", { method: "DELETE", headers: admin })).status).toBe(200);
    expect((await whoami(cookie)).status).toBe(401);
  });

  it("renaming it for display keeps them, and another provider's change does not touch them", async () => {
    expect((await putProvider(provider())).status).toBe(200);
    const cookie = await signedIn();
    expect((await putProvider(provider({ displayName: "Corporate sign-in" }))).status).toBe(200);
    expect((await call("/api/v1/auth/providers/oidc/other", json("PUT", provider(), admin))).status).toBe(200);
    expect((await call("/api/v1/auth/providers/oidc/other", { method: "DELETE", headers: admin })).status).toBe(200);
    expect((await whoami(cookie)).status).toBe(200);
  });
});

describe("who reads a provider's settings (issue #22)", () => {
  it(
    "a read-only or operator account gets 403 for the list and the provider, role " +
      "map and all; a super-user reads both",
    async () => {
      expect((await putProvider(provider())).status).toBe(200);
      for (const role of ["read-only", "operator"] as const) {
        const reader = bearer(await tokenWithRole(role));
        for (const path of ["/api/v1/auth/providers/oidc", "/api/v1/auth/providers/oidc/corp"]) {
          const response = await call(path, { headers: reader });
          expect(response.status, `${role} ${path}`).toBe(403);
          expect(await response.text()).not.toContain("noc");
        }
      }
      const list = await call("/api/v1/auth/providers/oidc", { headers: admin });
      expect(list.status).toBe(200);
      expect(await list.json()).toMatchObject([{ name: "corp", roleMap: [{ group: "noc", role: "operator" }] }]);
      expect((await call("/api/v1/auth/providers/oidc/corp", { headers: admin })).status).toBe(200);
    },
  );
});

describe("a log stream an OIDC session opened (issue #22)", () => {
  it("ends as soon as its provider is deleted: nothing logged afterwards reaches it", async () => {
    expect((await putProvider(provider())).status).toBe(200);
    const cookie = await signedIn();
    const response = await call("/api/v1/logs/stream", { headers: { cookie } });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await readUntil(reader, (text) => text.includes(": connected\n\n"));
    expect((await call("/api/v1/auth/providers/oidc/corp", { method: "DELETE", headers: admin })).status).toBe(200);
    // An entry logged after the deletion: a stream still open (until its next keepalive's check) would carry it.
    await runInDurableObject(env.Appliance.getByName("edge-1"), (instance) =>
      Appliance.coreOf(instance).dataPlane().log("info", "auth.logout", { username: "after-the-provider-went" }),
    );
    const rest = await readToEnd(reader);
    expect(rest).toContain("auth.oidc.sessions.ended");
    expect(rest).toContain("event: closed\n");
    expect(rest).not.toContain("after-the-provider-went");
  });
});
