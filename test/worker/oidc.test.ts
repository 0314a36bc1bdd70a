import { beforeEach, describe, expect, inject, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json } from "./client.ts";
import { allowLoopback, logEntries } from "./config-client.ts";

const admin = bearer(BOOTSTRAP_TOKEN);
/** A loopback issuer on a closed port: discovery fails as it would with the provider down. */
const provider = (extra: Record<string, unknown> = {}) => ({
  enabled: true,
  displayName: "Lab SSO",
  issuer: `http://127.0.0.1:${inject("closedPort")}/realms/noc`,
  clientId: "bng",
  clientSecret: "lab-secret",
  roleMap: { noc: "read-only" },
  ...extra,
});
const putProvider = (name: string, body: unknown) =>
  call(`/api/v1/auth/providers/oidc/${name}`, json("PUT", body, admin));
// The lab issuer is on loopback: the appliance reaches it as the local fleet does.
beforeEach(() => allowLoopback());

describe("OIDC sign-in", () => {
  it("refuses an http issuer unless it is on loopback", async () => {
    const response = await putProvider("lab", provider({ issuer: "http://sso.example.net" }));
    expect(response.status).toBe(400);
    expect((await response.json<z.output<typeof ProblemDetails>>()).errors!.map((e) => e.pointer)).toEqual([
      "#/issuer",
    ]);
    expect((await putProvider("lab", provider())).status).toBe(200);
  });

  it("answers 404 for an unknown or disabled provider, without a credential", async () => {
    expect((await call("/api/v1/auth/oidc/nobody/login")).status).toBe(404);
    await putProvider("off", provider({ enabled: false }));
    const response = await call("/api/v1/auth/oidc/off/login");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("answers 502 when the provider's discovery document cannot be read", async () => {
    await putProvider("lab", provider());
    const response = await call("/api/v1/auth/oidc/lab/login", { redirect: "manual" });
    expect(response.status).toBe(502);
    expect((await response.json<z.output<typeof ProblemDetails>>()).detail).toContain("did not answer");
  });

  it("refuses a return path on another origin (no open redirect)", async () => {
    await putProvider("lab", provider());
    for (const returnTo of ["//evil.example/x", "https://evil.example/", "/\\evil.example"]) {
      const response = await call(`/api/v1/auth/oidc/lab/login?returnTo=${encodeURIComponent(returnTo)}`);
      expect(response.status, returnTo).toBe(400);
    }
  });

  it("refuses a callback it did not start, and the provider's own refusal, and logs both", async () => {
    await putProvider("lab", provider());
    const forged = await call("/api/v1/auth/oidc/lab/callback?code=abc&state=forged", { redirect: "manual" });
    expect(forged.status).toBe(401);
    expect(forged.headers.get("set-cookie")).not.toContain("bng_session=");
    const denied = await call("/api/v1/auth/oidc/lab/callback?error=access_denied&error_description=user%20cancelled", {
      redirect: "manual",
    });
    expect(denied.status).toBe(401);
    expect((await denied.json<z.output<typeof ProblemDetails>>()).detail).toContain("access_denied");
    expect((await logEntries("auth.oidc.refused")).map((e) => e.fields.provider)).toEqual(["lab", "lab"]);
  });

  it("checks the provider before logging anything, and never logs an anonymous caller's text verbatim", async () => {
    const unknown = await call(
      "/api/v1/auth/oidc/nobody/callback?error=access_denied&error_description=forged%20entry",
      { redirect: "manual" },
    );
    expect(unknown.status).toBe(404);
    expect(await logEntries("auth.oidc.refused")).toEqual([]);
    await putProvider("lab", provider());
    const injected = await call(
      `/api/v1/auth/oidc/lab/callback?error=${encodeURIComponent("x\nauth.login ok")}` +
        `&error_description=${encodeURIComponent("admin logged in")}`,
      { redirect: "manual" },
    );
    expect(injected.status).toBe(401);
    const logged = (await logEntries("auth.oidc.refused")).map((e) => String(e.fields.reason));
    expect(logged).toEqual(["the identity provider refused the sign-in: (malformed error code)"]);
  });
});

describe("GET /api/v1/auth/oidc (the sign-in page's choices)", () => {
  it("lists the enabled providers' names and labels to anyone, and nothing else of them", async () => {
    expect((await putProvider("zeta", provider({ displayName: "Zeta SSO" }))).status).toBe(200);
    expect((await putProvider("alpha", provider({ displayName: "Alpha SSO" }))).status).toBe(200);
    expect((await putProvider("off", provider({ displayName: "Switched off", enabled: false }))).status).toBe(200);
    const response = await call("/api/v1/auth/oidc");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      providers: [
        { name: "alpha", displayName: "Alpha SSO" },
        { name: "zeta", displayName: "Zeta SSO" },
      ],
    });
  });

  it("lists none before any provider is set up", async () => {
    expect(await (await call("/api/v1/auth/oidc")).json()).toEqual({ providers: [] });
  });
});
