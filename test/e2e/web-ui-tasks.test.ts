/**
 * The web UI's everyday tasks, as a NOC engineer does them in a real browser
 * (Debian's Chromium) against the real launcher, typing what a person types:
 * a plain address into ping and trace, a policy switched off and saved, a
 * wrong current password, a subscriber found on a peer from the header
 * search, an alarm reaching the header badge without a reload, identifiers
 * printed as they are typed, and no page wider than a 1024 px window.
 * Expected values come from the API read at the same moment, or the spec.
 * The designed section pages have a file of their own (web-ui-pages).
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENSHOTS, launchUiFleet, type UiFleet } from "./ui-fleet.ts";
import { apiFromPage, axeViolations, untilLoaded, type Admin } from "./ui-person.ts";
import type { SessionList } from "../../src/schemas/sessions.ts";

let ui: UiFleet;
let page: Page;
let admin: Admin;
let base: string;

beforeAll(async () => {
  ui = await launchUiFleet();
  ({ page, admin, base } = ui);
}, 240_000);

afterAll(async () => {
  await ui?.close();
});

const open = (href: string, heading: string) => ui.open(href, heading);

describe("troubleshooting with plain inputs", () => {
  it("pings an address typed as it is written, and says what answered", async () => {
    await open("/troubleshooting", "Troubleshooting");
    const ping = page.getByRole("form", { name: "Ping" });
    await ping.getByLabel("Destination *").pressSequentially("10.0.255.1");
    await ping.getByRole("button", { name: "Ping" }).click();
    const result = page.getByTestId("ping-result");
    await result.waitFor();
    // The spec's default count is 5 probes; a plain address is no longer "not valid JSON".
    expect(await result.textContent()).toMatch(/^10\.0\.255\.1 in default: 5 sent, \d received/);
    expect(await ping.getByRole("alert").count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, "troubleshooting.png"), fullPage: true });
  });

  it("traces a frame between two plain addresses on a port chosen by its label", async () => {
    await open("/troubleshooting", "Troubleshooting");
    const trace = page.getByRole("form", { name: "Trace a frame" });
    const interfaces = (
      await apiFromPage<{ interfaces: { portId: number | null; label: string | null }[] }>(
        page,
        "GET",
        "/system/interfaces",
      )
    ).body.interfaces;
    const port = interfaces.find((i) => i.portId !== null)!;
    await trace.getByLabel("Port *").selectOption(String(port.portId));
    await trace.getByLabel("Source *").pressSequentially("100.64.0.10");
    await trace.getByLabel("Destination *", { exact: true }).pressSequentially("8.8.8.8");
    await trace.getByRole("button", { name: "Trace" }).click();
    const result = page.getByTestId("trace-result");
    await result.waitFor();
    // The first stage of the pipeline the spec names is the ingress port, named as the port is: by its name.
    expect(await result.locator("li").first().textContent()).toBe(
      `Ingress port: entered on ${port.label}, ` +
        `a ${/(\d+)-byte/.exec((await result.locator("p").first().textContent())!)![1]}-byte frame.`,
    );
    // A dry run is what would happen, not a drop in red.
    expect(await result.locator("p").first().textContent()).toMatch(
      /^The \d+-byte frame (would be forwarded out of .+\. Nothing was sent: a dry run\.|is dropped at .+)$/,
    );
  });
});

describe("forms that save what a person sets", () => {
  it("switches passkey sign-in off and saves it, starting from the current policy", async () => {
    expect(
      (
        await apiFromPage(page, "PUT", "/auth/providers/passkey", {
          enabled: true,
          rpId: null,
          userVerification: "preferred",
          replacesTotp: true,
        })
      ).status,
    ).toBe(200);
    await open("/passkey-policy", "Passkey policy");
    const form = page.getByRole("form", { name: "Change the policy" });
    const enabled = form.getByLabel("Enabled");
    const replacesTotp = form.getByLabel("Replaces TOTP");
    await expect.poll(() => enabled.isChecked()).toBe(true);
    expect(await replacesTotp.isChecked()).toBe(true);
    expect(await form.getByLabel("User verification *").inputValue()).toBe("preferred");
    await enabled.uncheck();
    await replacesTotp.uncheck();
    await form.getByRole("button", { name: "Save the policy" }).click();
    expect(await form.getByRole("status").textContent()).toBe("Saved: passkey sign-in is off.");
    // Unticked boxes are answers: both saved as false, the rest as it was.
    const policy = (
      await apiFromPage<{ enabled: boolean; rpId: string | null; userVerification: string; replacesTotp: boolean }>(
        page,
        "GET",
        "/auth/providers/passkey",
      )
    ).body;
    expect(policy).toEqual({ enabled: false, rpId: null, userVerification: "preferred", replacesTotp: false });
  });

  it("keeps the session and what was typed when the current password is wrong", async () => {
    await open("/account", "My account");
    const form = page.getByRole("form", { name: "Change my password" });
    await form.getByLabel("Current password *").pressSequentially("not-my-password");
    await form.getByLabel("New password *").pressSequentially("another-chosen-password-2");
    await form.getByRole("button", { name: "Change my password" }).click();
    await expect.poll(() => form.textContent()).toContain("The current password is wrong.");
    expect(await form.getByLabel("New password *").inputValue()).toBe("another-chosen-password-2");
    // Still signed in: the page, its navigation and the API answer.
    expect(await page.getByRole("heading", { level: 1, name: "My account" }).count()).toBe(1);
    expect((await apiFromPage(page, "GET", "/auth/whoami")).status).toBe(200);
    expect(admin.password).not.toBe("another-chosen-password-2");
  });
});

describe("subscriber search from the header", () => {
  /**
   * A live session on the peer, read through the fleet proxy (a freshly started peer brings its subscribers up over its
   * first minute).
   */
  async function peerSession(): Promise<SessionList["items"][number]> {
    const first = async () =>
      (await apiFromPage<SessionList>(page, "GET", "/fleet/edge-2/sessions?limit=1")).body.items[0];
    await expect.poll(first, { timeout: 60_000 }).toBeDefined();
    return (await first())!;
  }

  async function search(text: string, appliance: string, id: number): Promise<void> {
    await open("/", "Dashboard");
    await page.getByRole("searchbox", { name: "Search subscribers across the fleet" }).pressSequentially(text);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Subscriber search" }).waitFor();
    const link = page
      .locator(`section[data-appliance="${appliance}"]`)
      .getByRole("link", { name: `Open session ${id} on ${appliance}` });
    await link.waitFor({ timeout: 15_000 });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "search.png") });
    await link.click();
    await expect.poll(() => new URL(page.url()).pathname).toBe(`/fleet/${appliance}/sessions/${id}`);
  }

  it("finds a session on a peer by its username", { timeout: 90_000 }, async () => {
    const session = await peerSession();
    expect(session.username).toBeTruthy();
    await search(session.username!, "edge-2", session.id);
  });

  it("finds a session on a peer by its MAC typed in Cisco's dotted form", { timeout: 90_000 }, async () => {
    const session = await peerSession();
    const dotted = session.mac.replace(/:/g, "").toUpperCase().match(/.{4}/g)!.join(".");
    await search(dotted, "edge-2", session.id);
  });

  it("finds a session on a peer by its IPv4 address", { timeout: 90_000 }, async () => {
    const session = await peerSession();
    expect(session.ipv4).toBeTruthy();
    await search(session.ipv4!, "edge-2", session.id);
  });

  it("shows a peer's newest five matches, and its newest 50 when asked", { timeout: 90_000 }, async () => {
    const session = await peerSession();
    // The realm's domain: every session of that realm matches, more than a card shows once the peer is up.
    const needle = session.username!.slice(session.username!.indexOf("@"));
    const pagePath = `/fleet/edge-2/sessions?username=${encodeURIComponent(needle)}&limit=50`;
    const apiPage = async () => (await apiFromPage<SessionList>(page, "GET", pagePath)).body;
    await expect.poll(async () => (await apiPage()).total, { timeout: 60_000 }).toBeGreaterThan(5);
    await open("/", "Dashboard");
    await page.getByRole("searchbox", { name: "Search subscribers across the fleet" }).pressSequentially(needle);
    await page.keyboard.press("Enter");
    const card = page.locator('section[data-appliance="edge-2"]');
    await card.waitFor({ timeout: 15_000 });
    const shownIds = async () =>
      (
        await card
          .getByRole("link", { name: /^Open session \d+ on edge-2$/ })
          .evaluateAll((links) => links.map((a) => a.getAttribute("aria-label")))
      ).map((label) => Number(/\d+/.exec(label!)![0]));
    expect(await shownIds()).toHaveLength(5);
    // The page as the API gives it just before and just after the click: the clock ticks every 10 s, so the one shown
    // is one of the two.
    const before = await apiPage();
    const button = card.getByRole("button", { name: `Show the newest ${Math.min(before.total, 50)}` });
    await button.click();
    await expect.poll(async () => (await shownIds()).length, { timeout: 15_000 }).toBeGreaterThan(5);
    const after = await apiPage();
    const shown = await shownIds();
    expect([before.items.map((r) => r.id), after.items.map((r) => r.id)]).toContainEqual(shown);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "search-more.png"), fullPage: true });
    // Read: the button has done its work.
    expect(await card.getByRole("button", { name: /^Show the newest/ }).count()).toBe(0);
  });
});

describe("what the screen shows", () => {
  it("offers no capture or disconnect on a session that has ended", async () => {
    // Session ids are uint32; one this high has never been handed out.
    await page.goto(`${base}/sessions/4000000000`);
    await page.getByRole("heading", { level: 1, name: "Session 4000000000" }).waitFor();
    await expect
      .poll(() => page.getByRole("status").allTextContents())
      .toContain("Session 4000000000 has ended: it is no longer live.");
    expect(await page.locator("form.action").count()).toBe(0);
  });

  it("prints the BGP local AS as it is typed, without a thousands separator", async () => {
    const { localAs } = (await apiFromPage<{ localAs: number }>(page, "GET", "/routing/config")).body;
    expect(localAs).toBeGreaterThan(999);
    await open("/routing", "Routing");
    const text = (await page.locator("main").textContent())!;
    expect(text).toContain(String(localAs));
    expect(text).not.toContain(localAs.toLocaleString("en"));
  });

  // The axis labels are drawn on the canvas; their format is test/ui/format.test.ts's.
  it("shows a chart's values where the pointer rests, with the instant in UTC", { timeout: 90_000 }, async () => {
    await open("/", "Dashboard");
    const chart = page.locator("figure.chart").first();
    // The history's points arrive as the appliance runs: rest the pointer again until one is under it.
    await expect
      .poll(
        async () => {
          await chart.locator(".u-over").hover({ position: { x: 200, y: 60 } });
          return chart.locator(".u-legend").textContent();
        },
        { timeout: 60_000 },
      )
      .toMatch(/UTC\s*\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
  });

  it("fits every page of the navigation in a 1024 px window, without a sideways scrollbar", async () => {
    await open("/", "Dashboard");
    const hrefs = await page.locator("nav a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
    expect(hrefs.length).toBeGreaterThan(15);
    const wide: string[] = [];
    for (const href of hrefs) {
      await page.goto(`${base}${href}`);
      await page.locator("h1").first().waitFor();
      await untilLoaded(page);
      // A string: this runs in the page, where document is a global.
      const [scroll, client] = await page.evaluate<number[]>(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
      );
      if (scroll! > client!) wide.push(`${href}: ${scroll} > ${client}`);
      if (href === "/system") await page.screenshot({ path: path.join(SCREENSHOTS, "system.png"), fullPage: true });
    }
    expect(wide).toEqual([]);
  }, 120_000);
});

describe("the header strip", () => {
  /** The live channel's sockets the pages opened, each with the statuses pushed over it and whether it has closed. */
  const sockets: { url: string; statuses: { alarms: { count: number } }[]; closed: boolean }[] = [];
  /** When the page read GET /system/status itself (the fallback poller). */
  const polls: number[] = [];

  it("shows an alarm a scenario raises in the badge, without a reload and without a " +
    "poll: the live channel carried it", async () => {
    page.on("websocket", (ws) => {
      const socket = { url: ws.url(), statuses: [] as { alarms: { count: number } }[], closed: false };
      sockets.push(socket);
      ws.on("framereceived", ({ payload }) =>
        socket.statuses.push((JSON.parse(String(payload)) as { status: { alarms: { count: number } } }).status),
      );
      ws.on("close", () => (socket.closed = true));
    });
    page.on(
      "request",
      (request) => new URL(request.url()).pathname === "/api/v1/system/status" && polls.push(Date.now()),
    );
    await open("/sessions", "Sessions");
    const badge = page.getByTestId("alarm-badge");
    const before = (await apiFromPage<{ count: number }>(page, "GET", "/alarms")).body.count;
    await expect
      .poll(() => badge.textContent())
      .toBe(before === 0 ? "No alarms" : `${before} alarm${before === 1 ? "" : "s"}`);
    // One socket, to this appliance's live path, open and already sent the status (the previous page's closes as it
    // unloads: on a loaded machine its close can come after the new page's open).
    await expect.poll(() => sockets.filter((socket) => !socket.closed).length, { timeout: 15_000 }).toBe(1);
    const live = sockets.filter((socket) => !socket.closed);
    expect(live.map((socket) => new URL(socket.url).pathname)).toEqual(["/ui/live"]);
    expect(live[0]!.statuses.length).toBeGreaterThan(0);
    // A mark on the page: a reload would lose it. From here on the page must not read the status itself.
    await page.evaluate("document.body.dataset.mark = 'kept'");
    const pollsBefore = polls.length;
    const pools = (await apiFromPage<{ name: string }[]>(page, "GET", "/address-pools")).body;
    for (const pool of pools) {
      const answer = await page.evaluate(
        async ([pool]) => {
          const who = (await (await fetch("/api/v1/auth/whoami")).json()) as { csrfToken: string };
          const response = await fetch("/twin/v1/scenario", {
            method: "POST",
            headers: { "content-type": "application/json", "x-csrf-token": who.csrfToken },
            body: JSON.stringify({ action: "fill-pool", pool, percent: 100 }),
          });
          return response.status;
        },
        [pool.name] as const,
      );
      expect(answer).toBe(200);
    }
    // The pool alarm is raised at the model's next step, which the object pushes to the page.
    await expect
      .poll(async () => (await apiFromPage<{ count: number }>(page, "GET", "/alarms")).body.count, { timeout: 30_000 })
      .toBeGreaterThan(before);
    const after = (await apiFromPage<{ count: number }>(page, "GET", "/alarms")).body.count;
    await expect.poll(() => badge.textContent(), { timeout: 15_000 }).toBe(`${after} alarm${after === 1 ? "" : "s"}`);
    expect(await page.evaluate("document.body.dataset.mark")).toBe("kept");
    expect(live[0]!.statuses.some((status) => status.alarms.count === after)).toBe(true);
    expect(polls.length).toBe(pollsBefore);
  }, 60_000);

  it("is closed by the appliance when the session ends, and the page asks to sign in again", async () => {
    const live = sockets.filter((socket) => !socket.closed);
    expect(live).toHaveLength(1);
    // Ended as another tab of the same session would end it: the page itself never closes its socket.
    const status = await page.evaluate(async () => {
      const who = (await (await fetch("/api/v1/auth/whoami")).json()) as { csrfToken: string };
      return (await fetch("/api/v1/auth/logout", { method: "POST", headers: { "x-csrf-token": who.csrfToken } }))
        .status;
    });
    expect(status).toBe(200);
    await expect.poll(() => live[0]!.closed, { timeout: 15_000 }).toBe(true);
    await page.getByText("Your session has ended.").waitFor({ timeout: 15_000 });
  }, 60_000);
});
