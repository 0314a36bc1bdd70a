/**
 * Issue #13: the OIDC legs are browser navigations, so a refusal a browser sees is a page with a way back, not raw
 * JSON.
 */
import { beforeEach, describe, expect, it, inject } from "vitest";
import { BOOTSTRAP_TOKEN, bearer, call, json } from "./client.ts";
import { allowLoopback } from "./config-client.ts";

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
const admin = bearer(BOOTSTRAP_TOKEN);
/** A loopback issuer where nothing listens (a port bound and released): the provider is down. */
const DOWN_ISSUER = `http://127.0.0.1:${inject("closedPort")}`;
// The lab issuer is on loopback: the appliance reaches it as the local fleet does.
beforeEach(() => allowLoopback());
const putProvider = () =>
  call(
    "/api/v1/auth/providers/oidc/lab",
    json(
      "PUT",
      {
        enabled: true,
        displayName: "Lab",
        issuer: `${DOWN_ISSUER}/realms/noc`,
        clientId: "bng",
        clientSecret: "s",
        roleMap: { noc: "read-only" },
      },
      admin,
    ),
  );

describe("OIDC refusals in a browser", () => {
  it("the provider down: a 502 page with the detail and a link back to the start, under a strict CSP", async () => {
    expect((await putProvider()).status).toBe(200);
    const response = await call("/api/v1/auth/oidc/lab/login", {
      headers: { accept: BROWSER_ACCEPT },
      redirect: "manual",
    });
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await response.text();
    expect(html).toContain("502 Bad Gateway");
    expect(html).toContain(`the identity provider did not answer at ${DOWN_ISSUER}`);
    expect(html).toContain('<a href="/">');
    expect(html).not.toContain("<script");
  });

  it("a forged callback: a 401 page, and the text the provider sent is escaped, never markup", async () => {
    expect((await putProvider()).status).toBe(200);
    const response = await call(
      `/api/v1/auth/oidc/lab/callback?error=${encodeURIComponent("<img src=x onerror=alert(1)>")}`,
      { headers: { accept: BROWSER_ACCEPT }, redirect: "manual" },
    );
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img");
  });

  it("an API client still gets problem+json with the same status", async () => {
    expect((await putProvider()).status).toBe(200);
    const response = await call("/api/v1/auth/oidc/lab/login", { redirect: "manual" });
    expect(response.status).toBe(502);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
