/** Issue #9 item 17: the headers every answer carries (OWASP ASVS 5.0 §3.4). */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BOOTSTRAP_TOKEN, bearer, call } from "./client.ts";
import { answerWith, jsonAnswer, securedHeaders, withSecurityHeaders } from "../../src/http/headers.ts";
import { expectDocumented } from "./wire-check.ts";

const admin = bearer(BOOTSTRAP_TOKEN);

describe("response headers", () => {
  it.each([
    ["an authenticated read", "/api/v1/system/status", admin, 200],
    ["a refusal", "/api/v1/system/status", {}, 401],
    ["an unknown path", "/api/v1/no/such/thing", admin, 404],
    ["a read relayed from a peer", "/api/v1/fleet/edge-2/sessions/summary", admin, 200],
  ])("%s carries nosniff, no-store and HSTS over HTTPS", async (_what, path, headers, status) => {
    const response = await call(path, { headers });
    expect(response.status).toBe(status);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("strict-transport-security")).toBe("max-age=31536000");
  });

  it("a host no appliance answers to still gets nosniff", async () => {
    const url = "https://nobody.example.net/api/v1/system/health";
    const response = await SELF.fetch(url);
    await expectDocumented("GET", url, response);
    expect(response.status).toBe(404);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it(
    "sends no HSTS over plain HTTP (a browser ignores it there, and it would promise " +
      "what the listener does not serve)",
    async () => {
      const url = "http://edge-1.bng.localhost/api/v1/system/health";
      const response = await SELF.fetch(url);
      await expectDocumented("GET", url, response);
      expect(response.status).toBe(200);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.has("strict-transport-security")).toBe(false);
    },
  );

  it("the HTML reference page forbids framing and foreign scripts", async () => {
    const response = await call("/api/v1/docs", { headers: admin });
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it(
    "HTML a route gives no CSP of its own gets one that runs nothing and cannot be " +
      "framed; a route's own caching stands",
    () => {
      const page = withSecurityHeaders(
        new Response("<p>hi</p>", {
          headers: { "content-type": "text/html; charset=utf-8", "cache-control": "private, max-age=60" },
        }),
        true,
      );
      expect(page.headers.get("content-security-policy")).toBe(
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(page.headers.get("cache-control")).toBe("private, max-age=60");
      const json = withSecurityHeaders(Response.json({ ok: true }), false);
      expect(json.headers.has("content-security-policy")).toBe(false);
    },
  );

  it("JSON answers made from one set of headers do not share them: a header set on one is not on the next", () => {
    const first = jsonAnswer("{}", true);
    first.headers.set("set-cookie", "bng_session=x");
    first.headers.set("cache-control", "private");
    const second = jsonAnswer("{}", true);
    expect(second.headers.has("set-cookie")).toBe(false);
    expect(second.headers.get("cache-control")).toBe("no-store");
    expect(second.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(jsonAnswer("{}", false).headers.has("strict-transport-security")).toBe(false);
  });

  it(
    "an answer made with its security headers keeps a route's own caching and CSP, " +
      "and gets the strict CSP as HTML without one",
    () => {
      const cached = answerWith(
        "x",
        200,
        securedHeaders({ "content-type": "text/plain", "cache-control": "max-age=60" }, false),
      );
      expect(cached.headers.get("cache-control")).toBe("max-age=60");
      expect(cached.headers.get("x-content-type-options")).toBe("nosniff");
      const html = answerWith("<p>hi</p>", 200, securedHeaders({ "content-type": "text/html; charset=utf-8" }, true));
      expect(html.headers.get("content-security-policy")).toBe(
        "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      );
      expect(html.headers.get("strict-transport-security")).toBe("max-age=31536000");
      const sandboxed = answerWith(
        "{}",
        502,
        securedHeaders({ "content-type": "application/json", "content-security-policy": "sandbox" }, false),
      );
      expect(sandboxed.status).toBe(502);
      expect(sandboxed.headers.get("content-security-policy")).toBe("sandbox");
    },
  );
});
