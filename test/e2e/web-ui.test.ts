/**
 * The bundled web UI in a real browser (Debian's Chromium, driven by
 * playwright-core) against the real launcher: first sign-in with TOTP
 * enrolment (codes from oathtool), every page rendered with the API's own
 * numbers, axe-core on every page, the live log, a
 * disconnect, the fleet overview with a stopped peer, a read-only account,
 * and nothing fetched from anywhere but the appliance. Its screenshots go to a
 * scratch folder; `npm run screenshots` points BNG_SCREENSHOTS_DIR at the
 * README's pictures in docs/screenshots/, so a test run never rewrites tracked files.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchChromium } from "../../scripts/harness/chromium.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { newToken } from "../../src/trust/tokens.ts";
import { LIVE_PATH } from "../../src/schemas/live.ts";

const PORT_BASE = await freePortBase(2);
const PEER_PORT = await freePortBase(1);
const base = `https://127.0.0.1:${PORT_BASE}`;
const PEER_TOKEN = newToken();
const SCREENSHOTS = process.env.BNG_SCREENSHOTS_DIR
  ? path.resolve(process.env.BNG_SCREENSHOTS_DIR)
  : await mkdtemp(path.join(tmpdir(), "bngfleet-screenshots-"));

let fleet: RunningFleet;
/** edge-3, run by a launcher of its own so that it can be stopped while edge-1 keeps serving. */
let edge3: RunningFleet | undefined;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let axeSource: string;
/** The admin's TOTP secret and the last code used: each code is accepted once. */
let adminSecret = "";
let lastAdminCode = "";
/** The password admin chooses at first sign-in, replacing the published development default. */
const ADMIN_PASSWORD = "noc-chosen-password-1";
const offOrigin: string[] = [];
const pageErrors: string[] = [];

/**
 * Waits until nothing on the page is still loading. Polled through a locator, which the page's CSP does not
 * govern; waitForFunction() compiles its predicate in the page, which `script-src 'self'` rightly refuses.
 */
async function untilLoaded(p: Page, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await p.locator("body").textContent())?.includes("Loading…") ?? true) {
    if (Date.now() > deadline) throw new Error(`still loading after ${timeoutMs} ms: ${p.url()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const totp = (secret: string) => execFileSync("oathtool", ["--totp", "-b", secret], { encoding: "utf8" }).trim();

/** Collects errors and any request for another origin; data: URLs (the QR code) stay in the page. */
function watch(p: Page) {
  p.on("pageerror", (error) => pageErrors.push(String(error)));
  // "Failed to load resource" is Chromium reporting an HTTP status (the 401 of whoami before sign-in); the UI handles
  // those.
  p.on(
    "console",
    (message) =>
      message.type() === "error" &&
      !message.text().startsWith("Failed to load resource") &&
      pageErrors.push(message.text()),
  );
  p.on("request", (request) => {
    const url = request.url();
    if (!url.startsWith(`${base}/`) && !url.startsWith("data:") && !url.startsWith("blob:")) offOrigin.push(url);
  });
}

/** Signs in through the UI, enrolling TOTP on the way; returns the secret. */
async function signIn(p: Page, username: string, password: string): Promise<string> {
  await p.getByLabel("Username").fill(username);
  await p.getByLabel("Password").fill(password);
  await p.getByRole("button", { name: "Sign in", exact: true }).click();
  const secret = (await p.getByTestId("totp-secret").textContent({ timeout: 15_000 }))!.trim();
  await p.getByLabel("Authenticator code").fill(totp(secret));
  await p.getByRole("button", { name: "Confirm and sign in" }).click();
  await p.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 15_000 });
  return secret;
}

/**
 * Signs admin in again with its chosen password and a code not used yet (each code is accepted once, so this may wait
 * for the next 30 s step).
 */
async function signInAgain(): Promise<void> {
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByLabel("Authenticator code").waitFor();
  while (totp(adminSecret) === lastAdminCode) await new Promise((resolve) => setTimeout(resolve, 1000));
  lastAdminCode = totp(adminSecret);
  await page.getByLabel("Authenticator code").fill(lastAdminCode);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** A call to the API from inside the signed-in page (same cookie), with the CSRF token unless told otherwise. */
function call<T>(
  method: string,
  apiPath: string,
  body?: unknown,
  withCsrf = true,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ([method, apiPath, body, withCsrf]) => {
      const who = (await (await fetch("/api/v1/auth/whoami")).json()) as { csrfToken: string };
      const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
      if (withCsrf && method !== "GET") headers["x-csrf-token"] = who.csrfToken;
      const response = await fetch(`/api/v1${apiPath}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    [method, apiPath, body, withCsrf] as const,
  ) as Promise<{ status: number; body: T }>;
}

/**
 * A new account of `role`, signed in (enrolling TOTP) in a browser of its own at 1024 px, starting from `firstPage`.
 */
async function newAccountSignedIn(username: string, role: string, password: string, firstPage: string): Promise<Page> {
  expect((await call("POST", "/auth/users", { username, role, password })).status).toBe(200);
  // bypassCSP only so the test can inject axe-core, as for the admin.
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    bypassCSP: true,
    viewport: { width: 1024, height: 800 },
  });
  const p = await context.newPage();
  watch(p);
  await p.goto(`${base}${firstPage}`);
  await signIn(p, username, password);
  return p;
}

/**
 * Every page a signed-in person's navigation offers, opened in turn: axe-core's serious and critical findings by page
 * (none: `{}`).
 */
async function axeEveryPage(p: Page): Promise<Record<string, string[]>> {
  await p.goto(`${base}/`);
  await p.locator("nav a").first().waitFor();
  const report: Record<string, string[]> = {};
  for (const href of await p.locator("nav a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!))) {
    await p.goto(`${base}${href}`);
    await p.locator("h1").first().waitFor();
    await untilLoaded(p);
    const violations = await axeViolations(p);
    if (violations.length) report[href] = violations;
  }
  return report;
}

/** axe-core's serious and critical violations on the current page. */
async function axeViolations(p: Page): Promise<string[]> {
  await p.addScriptTag({ content: axeSource });
  // A string: this runs in the page, where axe is a global.
  return p.evaluate<string[]>(
    `axe.run(document).then((r) => r.violations.filter((v) => v.impact === "serious" ` +
      `|| v.impact === "critical").map((v) => v.id + " at " + v.nodes.map((n) => ` +
      `n.target.join(" ")).join(", ")))`,
  );
}

const tableRows = (p: Page, testid: string) =>
  p
    .getByTestId(testid)
    .locator("tr")
    .evaluateAll((rows) =>
      rows.map((r) => [
        r.querySelector("th")!.textContent!.trim(),
        Number(r.querySelector("td")!.textContent!.replace(/,/g, "")),
      ]),
    );

beforeAll(async () => {
  axeSource = await readFile(
    path.join(import.meta.dirname, "..", "..", "node_modules", "axe-core", "axe.min.js"),
    "utf8",
  );
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-ui-"));
  const appliance = (name: string, port: number, peers: unknown[]) => ({
    name,
    seed: port,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port }, hostname: `${name}.bng.localhost`, peers },
  });
  const mainFleet = path.join(dir, "fleet.json");
  await writeFile(
    mainFleet,
    JSON.stringify({
      portBase: 8443,
      appliances: [
        appliance("edge-1", 8443, [
          { name: "edge-2" },
          { name: "edge-3", url: `http://127.0.0.1:${PEER_PORT}`, credential: PEER_TOKEN, timeoutMs: 3000 },
        ]),
        appliance("edge-2", 8444, [{ name: "edge-1" }]),
      ],
    }),
  );
  const peerFleet = path.join(dir, "edge-3.json");
  await writeFile(peerFleet, JSON.stringify({ portBase: 8443, appliances: [appliance("edge-3", 8443, [])] }));
  fleet = await launchFleet({ BNG_PORT_BASE: String(PORT_BASE), BNG_FLEET: mainFleet, BNG_FRESH: "1" }, [
    PORT_BASE,
    PORT_BASE + 1,
  ]);
  edge3 = await launchFleet(
    {
      BNG_PORT_BASE: String(PEER_PORT),
      BNG_FLEET: peerFleet,
      BNG_FRESH: "1",
      BNG_HTTP: "1",
      BNG_BOOTSTRAP_TOKEN: PEER_TOKEN,
    },
    [PEER_PORT],
  );
  browser = await launchChromium();
  // bypassCSP only so the test can inject axe-core; the UI's own scripts are same-origin files.
  context = await browser.newContext({
    ignoreHTTPSErrors: true,
    bypassCSP: true,
    viewport: { width: 1280, height: 900 },
  });
  page = await context.newPage();
  watch(page);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (edge3) await edge3.stop();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("the web UI", () => {
  it("signs in for the first time with TOTP enrolment and comes back to the page asked for", async () => {
    await page.goto(`${base}/sessions`);
    await expect.poll(() => page.title()).toBe("Sign in · Broadband gateway");
    expect(await page.getAttribute("html", "lang")).toBe("en");
    await page.getByLabel("Username").fill("admin");
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    // The server's one neutral answer, as a sentence: never a status code.
    await expect.poll(() => page.getByRole("alert").textContent()).toBe("Invalid username, password or code.");
    await page.getByLabel("Password").fill("bngfleet-admin");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByTestId("totp-secret").waitFor();
    expect(await page.getByRole("img", { name: "QR code of the TOTP secret" }).count()).toBe(1);
    await page.screenshot({ path: path.join(SCREENSHOTS, "sign-in-enrolment.png") });
    adminSecret = (await page.getByTestId("totp-secret").textContent())!.trim();
    lastAdminCode = totp(adminSecret);
    await page.getByLabel("Authenticator code").fill(lastAdminCode);
    await page.getByRole("button", { name: "Confirm and sign in" }).click();
    // The published development password: nothing but choosing one's own is offered (the server refuses the rest).
    await page.getByRole("heading", { level: 1, name: "Choose your own password" }).waitFor();
    expect(await page.getByRole("navigation").count()).toBe(0);
    await page.getByLabel("Current password").fill("bngfleet-admin");
    await page.getByLabel("New password", { exact: true }).fill(ADMIN_PASSWORD);
    await page.getByLabel("Repeat the new password").fill(ADMIN_PASSWORD);
    await page.getByRole("button", { name: "Change password and sign in again" }).click();
    // The change ends every session of the account: sign in again, with the new password and the next code
    // (hashing the new password takes a moment on a busy machine).
    await expect.poll(() => page.title(), { timeout: 15_000 }).toBe("Sign in · Broadband gateway");
    await signInAgain();
    await page.getByRole("heading", { level: 1, name: "Sessions" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/sessions");
    // The session cookie is HttpOnly: the page cannot read it.
    expect(await page.evaluate("document.cookie")).toBe("");
  }, 90_000);

  it("shows the API's session counts on the dashboard and the sessions page", async () => {
    await page.goto(`${base}/`);
    await page.getByTestId("by-encap").waitFor();
    // The simulation steps every 10 s: compare until one read of each falls in the same step.
    await expect
      .poll(
        async () => {
          await page.getByRole("button", { name: "1h" }).click();
          const shown = {
            total: Number((await page.getByTestId("sessions-total").textContent())!.replace(/,/g, "")),
            byEncap: Object.fromEntries(await tableRows(page, "by-encap")),
          };
          const api = (await call<{ total: number; byEncap: Record<string, number> }>("GET", "/sessions/summary")).body;
          return JSON.stringify(shown) === JSON.stringify({ total: api.total, byEncap: api.byEncap });
        },
        { timeout: 60_000, interval: 3000 },
      )
      .toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, "dashboard.png"), fullPage: true });

    await page.goto(`${base}/sessions?encap=ipoe`);
    await page.getByTestId("sessions-table").waitFor();
    await expect
      .poll(
        async () => {
          const range = (await page.getByTestId("sessions-range").textContent())!;
          const api = (await call<{ total: number; items: { id: number }[] }>("GET", "/sessions?encap=ipoe")).body;
          const firstId = await page.getByTestId("sessions-table").locator("tbody tr td a").first().textContent();
          return range.endsWith(`of ${api.total.toLocaleString("en")}`) && firstId === String(api.items[0]!.id);
        },
        { timeout: 60_000, interval: 3000 },
      )
      .toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, "sessions.png") });

    // The next page shows after the API's answer (how soon is npm run bench:ui's figure, not a test's bound).
    await page.getByRole("button", { name: "Older" }).click();
    await expect.poll(() => page.getByTestId("sessions-range").textContent()).toMatch(/^101/);
  });

  it("renders every page without a problem, and axe-core finds nothing serious on any", async () => {
    await page.goto(`${base}/`);
    await page.locator("nav a").first().waitFor();
    const hrefs = await page.locator("nav a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
    expect(hrefs.length).toBeGreaterThanOrEqual(24);
    const report: Record<string, string[]> = {};
    for (const href of [...hrefs, "/fleet/edge-2/", "/fleet/edge-2/sessions"]) {
      await page.goto(`${base}${href}`);
      await page.locator("h1").first().waitFor();
      await untilLoaded(page);
      const problems = await page.getByRole("alert").allTextContents();
      const violations = await axeViolations(page);
      if (problems.length || violations.length) report[href] = [...problems, ...violations];
    }
    expect(report).toEqual({});
  }, 240_000);

  it("sends the CSRF token with every change, and the server refuses a change without it", async () => {
    await page.goto(`${base}/alarms`);
    const sent = page.waitForRequest((r) => r.url().endsWith("/api/v1/alarms/test") && r.method() === "POST");
    await page.getByRole("button", { name: "Send a test alert" }).click();
    const request = await sent;
    const who = (await call<{ csrfToken: string }>("GET", "/auth/whoami")).body;
    expect(request.headers()["x-csrf-token"]).toBe(who.csrfToken);
    // The answer is the payload the sinks receive, shown under the form.
    await page.getByRole("status").filter({ hasText: "Test alert from edge-1" }).waitFor();
    expect((await call("POST", "/alarms/test", {}, false)).status).toBe(403);
  });

  it("receives a new log entry on the live log page", async () => {
    await page.goto(`${base}/logs`);
    await expect.poll(() => page.getByTestId("log-state").textContent(), { timeout: 15_000 }).toMatch(/^live/);
    const before = (await call<{ lastSeq: number }>("GET", "/logs/tail?count=1")).body.lastSeq;
    // Audited as `audit.alarm.test` with the severity asked for.
    expect((await call("POST", "/alarms/test", { severity: "minor" })).status).toBe(200);
    const tail = (
      await call<{ entries: { seq: number; msgId: string; fields: Record<string, unknown> }[] }>(
        "GET",
        `/logs/tail?count=1000&sinceSeq=${before}`,
      )
    ).body;
    const entry = tail.entries.find((e) => e.msgId === "audit.alarm.test" && e.fields.severity === "minor");
    expect(entry).toBeDefined();
    await page
      .getByTestId("log-table")
      .locator("td span.num", { hasText: new RegExp(`^${entry!.seq}$`) })
      .waitFor({ timeout: 15_000 });
    await page.screenshot({ path: path.join(SCREENSHOTS, "logs.png") });
  });

  it("disconnects a session", async () => {
    const list = (await call<{ items: { id: number }[] }>("GET", "/sessions?limit=1")).body;
    const id = list.items[0]!.id;
    await page.goto(`${base}/sessions/${id}`);
    await page.getByTestId("session-traffic").waitFor();
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Disconnect this session" }).click();
    await page.getByText(`Session ${id} was disconnected.`).waitFor();
    expect((await call("GET", `/sessions/${id}`)).status).toBe(404);
  });

  it("lists the whole fleet, shows a stopped appliance as unreachable, and a peer's pages read-only", async () => {
    await page.goto(`${base}/fleet`);
    const rows = page.getByTestId("fleet-table").locator("tbody tr");
    await expect
      .poll(
        () =>
          rows.locator("[data-appliance]").evaluateAll((cells) => cells.map((c) => c.getAttribute("data-appliance"))),
        { timeout: 15_000 },
      )
      .toEqual(["edge-1", "edge-2", "edge-3"]);
    // Running, and the worst active alarm when there is one ("running, 1 major alarm").
    await expect
      .poll(
        async () =>
          (await rows.locator('[data-testid="health"]').allTextContents()).every((t) =>
            /^running(, \d+ \w+ alarms?)?$/.test(t),
          ),
        { timeout: 20_000 },
      )
      .toBe(true);
    const peerStatus = (await call<{ sessions: { total: number } }>("GET", "/fleet/edge-2/system/status")).body;
    expect(Number((await rows.nth(1).getByTestId("sessions").textContent())!.replace(/,/g, ""))).toBeGreaterThan(0);
    expect(peerStatus.sessions.total).toBeGreaterThan(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "fleet.png") });

    await page.goto(`${base}/fleet/edge-2/sessions`);
    await page.getByRole("note").filter({ hasText: "read-only" }).waitFor();
    await page.getByTestId("sessions-table").waitFor();
    const peerSession = await page.getByTestId("sessions-table").locator("tbody tr td a").first().getAttribute("href");
    await page.goto(`${base}${peerSession}`);
    await page.getByTestId("session-traffic").waitFor();
    expect(await page.locator("form.action").count()).toBe(0);

    expect(await edge3!.stop()).toBe(0);
    edge3 = undefined;
    await page.goto(`${base}/fleet`);
    await expect
      .poll(() => rows.nth(2).getByTestId("health").textContent(), { timeout: 20_000 })
      .toContain("unreachable");
    await expect.poll(() => rows.nth(0).getByTestId("health").textContent()).toMatch(/^running/);
  });

  it("offers a read-only account no write controls", async () => {
    const viewer = await newAccountSignedIn("viewer", "read-only", "viewer-password-1", "/config");
    await viewer.getByRole("heading", { level: 1, name: "Configuration" }).waitFor();
    // The configuration reads as values, with nothing to type into or commit.
    await viewer.locator(".config-panel .cfg-field").first().waitFor();
    expect(
      await viewer.locator(".config-panel input, .config-panel select, [data-testid='pending-changes']").count(),
    ).toBe(0);
    await viewer.goto(`${base}/config/history`);
    await viewer.getByTestId("config-history").waitFor();
    // Accounts and tokens are super-user reads: not in a read-only account's navigation.
    const sections = await viewer.locator("nav a").allTextContents();
    expect(sections).toContain("Sessions");
    expect(sections).not.toContain("Users");
    expect(sections).not.toContain("Tokens");
    expect(await viewer.getByRole("button", { name: /Validate|Roll back/ }).count()).toBe(0);
    const sessionId = (await (await viewer.request.get(`${base}/api/v1/sessions?limit=1`)).json()).items[0]
      .id as number;
    for (const href of [
      "/alarms",
      "/users",
      "/tokens",
      "/vrfs",
      "/upgrade",
      "/licensing",
      "/troubleshooting",
      `/sessions/${sessionId}`,
    ]) {
      await viewer.goto(`${base}${href}`);
      await viewer.locator("h1").first().waitFor();
      await untilLoaded(viewer);
      // Nothing offered that the server would refuse: no change forms, and no failed call on the page.
      expect({
        href,
        forms: await viewer.locator("form.action:not(.lookup)").count(),
        problems: await viewer.getByRole("alert").allTextContents(),
      }).toEqual({ href, forms: 0, problems: [] });
    }
    // Every page the read-only role is offered, as axe-core sees it for that role.
    expect(await axeEveryPage(viewer)).toEqual({});
    await viewer.context().close();
    // Every page read and checked by axe: on a loaded 2-core machine this took up to 100 s before the configuration
    // page grew.
  }, 240_000);

  it("offers an operator its pages, and axe-core finds nothing serious on any of them " +
    "as the operator sees it", async () => {
    const operator = await newAccountSignedIn("noc-op", "operator", "operator-password-1", "/sessions");
    await operator.getByRole("heading", { level: 1, name: "Sessions" }).waitFor();
    // An operator acts on sessions but reads no accounts (a super-user read).
    const sections = await operator.locator("nav a").allTextContents();
    expect(sections).toContain("Troubleshooting");
    expect(sections).not.toContain("Users");
    expect(await axeEveryPage(operator)).toEqual({});
    await operator.context().close();
  }, 240_000);

  it("returns to sign-in the moment the session ends, then back to the page the person was on", async () => {
    // The page follows the appliance over its live channel: open once the status it is sent on connecting arrives.
    const live = page.waitForEvent("websocket", (socket) => new URL(socket.url()).pathname === LIVE_PATH);
    await page.goto(`${base}/alarms`);
    await page.getByRole("heading", { level: 1, name: "Alarms" }).waitFor();
    await (await live).waitForEvent("framereceived");
    // The session ends behind the page's back, as an idle timeout would end it: the live channel closes, and the
    // page says so at once, without the person doing anything (a link clicked meanwhile would race that close).
    expect((await call("POST", "/auth/logout")).status).toBe(200);
    await page.getByText("Your session has ended").waitFor();
    await signInAgain();
    await page.getByRole("heading", { level: 1, name: "Alarms" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/alarms");
  }, 60_000);

  it("stages a software package with an upload progress bar and follows its apply", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-pkg-")), "bngfleet-0.2.0.bngpkg");
    // Signed with the fleet's own development key, in its data dir.
    await writeFile(
      file,
      execFileSync(process.execPath, ["scripts/bngfleet.ts", "upgrade-package", "0.2.0"], {
        env: { ...process.env, BNG_DATA_DIR: fleet.dataDir },
      }),
    );
    await page.goto(`${base}/upgrade`);
    await page.getByTestId("upgrade-state").waitFor();
    const staged = page.waitForResponse((response) => response.url().endsWith("/api/v1/system/upgrade/stage"));
    await page.getByLabel("Package file (.bngpkg)").setInputFiles(file);
    expect((await staged).status()).toBe(200);
    await page.getByRole("heading", { name: "Staged package" }).waitFor();
    // The whole file went up as the request body: the appliance counts the bytes it staged.
    const stagedSize = (await call<{ staged: { size: number } | null }>("GET", "/system/upgrade")).body.staged?.size;
    expect(stagedSize).toBe((await readFile(file)).length);
    expect(await page.getByTestId("upgrade-state").textContent()).toContain("staged");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Apply 0.2.0" }).click();
    await page.locator("#upgrade-progress").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("upgrade-state").textContent()).toMatch(/applying|draining|rebooting/);
    const status = (await call<{ state: string; applying: { toVersion: string } | null }>("GET", "/system/upgrade"))
      .body;
    expect(status.applying?.toVersion).toBe("0.2.0");
    await page.screenshot({ path: path.join(SCREENSHOTS, "upgrade.png") });
  });

  it("fetched nothing from outside the appliance and raised no errors", () => {
    expect(offOrigin).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
