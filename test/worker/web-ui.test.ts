import { describe, expect, it } from "vitest";
import { call } from "./client.ts";

// The spec: "The appliance's bundled web UI is built on the same API." Served by the Worker itself, no CDN.
describe("the bundled web UI", () => {
  it.each(["/", "/sessions", "/fleet/edge-2/sessions/42", "/config"])(
    "serves the app's page at %s (deep links included)",
    async (path) => {
      const response = await call(path);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      const html = await response.text();
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<script type="module" src="/ui/app.js">');
    },
  );

  it("allows nothing from another origin", async () => {
    const csp = (await call("/")).headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toMatch(/https?:/);
  });

  it("serves its script and styles from the Worker", async () => {
    const script = await call("/ui/app.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect((await script.text()).length).toBeGreaterThan(1000);
    const styles = await call("/ui/app.css");
    expect(styles.headers.get("content-type")).toBe("text/css; charset=utf-8");
  });

  it("leaves the API's own 404 under /api/ alone", async () => {
    const response = await call("/api/v1/no/such/thing");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("serves the page only to GET and HEAD", async () => {
    const response = await call("/sessions", { method: "POST" });
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });
});
