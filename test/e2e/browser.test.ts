/**
 * The bundled web UI's view of the API in a real browser (Debian's Chromium,
 * driven by playwright-core): a same-origin login with TOTP enrolment, the
 * interactive reference rendering every section, and a cookie-authenticated
 * change carrying the session's CSRF token.
 */
import { execFileSync } from "node:child_process";
import type { Browser } from "playwright-core";
import { launchChromium } from "../../scripts/harness/chromium.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SECTIONS, TWIN_SECTIONS, UNCOUNTED_SECTIONS } from "../../src/schemas/contract.ts";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const PORT_BASE = await freePortBase(3);
const base = `https://127.0.0.1:${PORT_BASE}`;
const ADMIN_PASSWORD = "browser-admin-password";
let fleet: RunningFleet;
let browser: Browser;

beforeAll(async () => {
  // A chosen password: with the development default the session could only change it (README, "Logging in").
  fleet = await launchFleet({ BNG_PORT_BASE: String(PORT_BASE), BNG_ADMIN_PASSWORD: ADMIN_PASSWORD, BNG_FRESH: "1" }, [
    PORT_BASE,
  ]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("the API reference in a browser", () => {
  it("logs in with enrolment, renders every section and lets the session make a change", async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    const pageErrors: string[] = [];
    page.on("pageerror", (error) => pageErrors.push(String(error)));

    await page.goto(`${base}/api/v1/system/health`);
    const challenge = await page.evaluate(
      async (password) =>
        (await (
          await fetch("/api/v1/auth/login", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ username: "admin", password }),
          })
        ).json()) as {
          secret: string;
          enrolmentToken: string;
        },
      ADMIN_PASSWORD,
    );
    const code = execFileSync("oathtool", ["--totp", "-b", challenge.secret], { encoding: "utf8" }).trim();
    const enrolled = await page.evaluate(
      async ([enrolmentToken, totpCode]) =>
        (
          await fetch("/api/v1/auth/enrol", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ enrolmentToken, totpCode }),
          })
        ).json(),
      [challenge.enrolmentToken, code],
    );
    expect(enrolled).toMatchObject({ status: "success", role: "super-user" });
    // The cookie is HttpOnly: the page cannot read it.
    expect(await page.evaluate("document.cookie")).toBe("");

    await page.goto(`${base}/api/v1/docs`);
    // Every section the document has gets rendered. Swagger UI virtualises long lists (only what is near the
    // viewport is in the DOM), so the page is scrolled through, collecting the sections as they appear.
    const documented = await page.evaluate(async () => {
      const doc = (await (await fetch("/api/v1/openapi/v1.json")).json()) as {
        paths: Record<string, Record<string, { tags?: string[] }>>;
      };
      return [
        ...new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).flatMap((op) => op.tags ?? []))),
      ].sort();
    });
    await page.waitForSelector(".opblock-tag", { timeout: 30_000 });
    const seen = new Set<string>();
    for (let step = 0; step < 400 && seen.size < documented.length; step++) {
      for (const tag of await page.$$eval(".opblock-tag", (elements) =>
        elements.map((e) => e.getAttribute("data-tag") ?? ""),
      ))
        seen.add(tag);
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(50);
    }
    const tags = [...seen].sort();
    expect(tags).toEqual(documented);
    for (const section of ["Authentication", "Sessions", "Fleet", "System"]) expect(tags).toContain(section);
    expect(
      tags.every((tag) => ([...SECTIONS, ...UNCOUNTED_SECTIONS, ...TWIN_SECTIONS] as string[]).includes(tag ?? "")),
    ).toBe(true);

    const statuses = await page.evaluate(async () => {
      const body = JSON.stringify({ name: "from-the-browser", role: "read-only" });
      const headers = { "content-type": "application/json" };
      const withoutCsrf = (await fetch("/api/v1/auth/tokens", { method: "POST", headers, body })).status;
      const who = (await (await fetch("/api/v1/auth/whoami")).json()) as { csrfToken: string };
      const withCsrf = (
        await fetch("/api/v1/auth/tokens", {
          method: "POST",
          headers: { ...headers, "X-CSRF-Token": who.csrfToken },
          body,
        })
      ).status;
      return { withoutCsrf, withCsrf };
    });
    expect(statuses).toEqual({ withoutCsrf: 403, withCsrf: 200 });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
