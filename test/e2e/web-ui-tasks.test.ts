/**
 * The web UI's everyday tasks, as a NOC engineer does them in a real browser
 * (Debian's Chromium) against the real launcher, typing what a person types:
 * a plain address into ping and trace, a policy switched off and saved, a
 * wrong current password, a subscriber found on a peer from the header
 * search, an alarm reaching the header badge without a reload, identifiers
 * printed as they are typed, and no page wider than a 1024 px window.
 * Expected values come from the API read at the same moment, or the spec.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./chromium.ts";
import { freePortBase, launchFleet, type RunningFleet } from "./launcher.ts";
import { apiFromPage, axeViolations, firstSignIn, untilLoaded, type Admin } from "./ui-person.ts";
import type { SessionList } from "../../src/schemas/sessions.ts";

const PORT_BASE = await freePortBase(2);
/** `npm run screenshots` points this at docs/screenshots/; a test run writes to a scratch folder. */
const SCREENSHOTS = process.env.BNG_SCREENSHOTS_DIR ? path.resolve(process.env.BNG_SCREENSHOTS_DIR) : await mkdtemp(path.join(tmpdir(), "bngfleet-screenshots-"));
const base = `https://127.0.0.1:${PORT_BASE}`;

let fleet: RunningFleet;
let browser: Browser;
let page: Page;
let admin: Admin;
const pageErrors: string[] = [];

beforeAll(async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-tasks-"));
  const appliance = (name: string, port: number, peers: unknown[]) => ({ name, seed: port, profile: "small", webUi: { listener: { address: "127.0.0.1", port }, hostname: `${name}.bng.localhost`, peers } });
  const file = path.join(dir, "fleet.json");
  await writeFile(file, JSON.stringify({ portBase: 8443, appliances: [appliance("edge-1", 8443, [{ name: "edge-2" }]), appliance("edge-2", 8444, [{ name: "edge-1" }])] }));
  fleet = await launchFleet({ BNG_PORT_BASE: String(PORT_BASE), BNG_FLEET: file, BNG_FRESH: "1" }, [PORT_BASE, PORT_BASE + 1]);
  browser = await launchChromium();
  // bypassCSP only so the test can inject axe-core; the UI's own scripts are same-origin files.
  const context = await browser.newContext({ ignoreHTTPSErrors: true, bypassCSP: true, viewport: { width: 1024, height: 800 } });
  page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  admin = await firstSignIn(page, base);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  if (fleet) expect(await fleet.stop()).toBe(0);
  expect(pageErrors).toEqual([]);
});

/** Opens a page of the UI and waits until it has loaded. */
async function open(href: string, heading: string): Promise<void> {
  await page.goto(`${base}${href}`);
  await page.getByRole("heading", { level: 1, name: heading }).waitFor();
  await untilLoaded(page);
}

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
    const interfaces = (await apiFromPage<{ interfaces: { portId: number | null; label: string | null }[] }>(page, "GET", "/system/interfaces")).body.interfaces;
    const port = interfaces.find((i) => i.portId !== null)!;
    await trace.getByLabel("Port *").selectOption(String(port.portId));
    await trace.getByLabel("Source *").pressSequentially("100.64.0.10");
    await trace.getByLabel("Destination *", { exact: true }).pressSequentially("8.8.8.8");
    await trace.getByRole("button", { name: "Trace" }).click();
    const result = page.getByTestId("trace-result");
    await result.waitFor();
    // The first stage of the pipeline the spec names is the ingress port.
    expect(await result.locator("li").first().textContent()).toMatch(/^ingress-port: /);
  });
});

describe("forms that save what a person sets", () => {
  it("switches passkey sign-in off and saves it, starting from the current policy", async () => {
    expect((await apiFromPage(page, "PUT", "/auth/providers/passkey", { enabled: true, rpId: null, userVerification: "preferred", replacesTotp: false })).status).toBe(200);
    await open("/passkey-policy", "Passkey policy");
    const form = page.getByRole("form", { name: "Change the policy" });
    const enabled = form.getByLabel("Enabled");
    await expect.poll(() => enabled.isChecked()).toBe(true);
    await enabled.uncheck();
    await form.getByRole("button", { name: "Change the policy" }).click();
    await form.getByRole("status").waitFor();
    const policy = (await apiFromPage<{ enabled: boolean; userVerification: string }>(page, "GET", "/auth/providers/passkey")).body;
    expect(policy).toMatchObject({ enabled: false, userVerification: "preferred" });
  });

  it("keeps the session and what was typed when the current password is wrong", async () => {
    await open("/account", "My account");
    const form = page.getByRole("form", { name: "Change my password" });
    await form.getByLabel("Current password *").pressSequentially("not-my-password");
    await form.getByLabel("New password *").pressSequentially("another-chosen-password-2");
    await form.getByRole("button", { name: "Change my password" }).click();
    await expect.poll(() => form.textContent()).toContain("the current password is wrong");
    expect(await form.getByLabel("New password *").inputValue()).toBe("another-chosen-password-2");
    // Still signed in: the page, its navigation and the API answer.
    expect(await page.getByRole("heading", { level: 1, name: "My account" }).count()).toBe(1);
    expect((await apiFromPage(page, "GET", "/auth/whoami")).status).toBe(200);
    expect(admin.password).not.toBe("another-chosen-password-2");
  });
});

describe("subscriber search from the header", () => {
  /** A live session on the peer, read through the fleet proxy (a freshly started peer brings its subscribers up over its first minute). */
  async function peerSession(): Promise<SessionList["items"][number]> {
    const first = async () => (await apiFromPage<SessionList>(page, "GET", "/fleet/edge-2/sessions?limit=1")).body.items[0];
    await expect.poll(first, { timeout: 60_000 }).toBeDefined();
    return (await first())!;
  }

  async function search(text: string, appliance: string, id: number): Promise<void> {
    await open("/", "Dashboard");
    await page.getByRole("searchbox", { name: "Search subscribers across the fleet" }).pressSequentially(text);
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { level: 1, name: "Subscriber search" }).waitFor();
    const link = page.locator(`section[data-appliance="${appliance}"]`).getByRole("link", { name: `Open session ${id} on ${appliance}` });
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
});

describe("what the screen shows", () => {
  it("offers no capture or disconnect on a session that has ended", async () => {
    // Session ids are uint32; one this high has never been handed out.
    await page.goto(`${base}/sessions/4000000000`);
    await page.getByRole("heading", { level: 1, name: "Session 4000000000" }).waitFor();
    await expect.poll(() => page.getByRole("status").allTextContents()).toContain("Session 4000000000 has ended: it is no longer live.");
    expect(await page.locator("form.action").count()).toBe(0);
  });

  it("shows a refused filter's problem without the previous filter's rows and count under it", async () => {
    await open("/sessions", "Sessions");
    await page.getByTestId("sessions-range").waitFor();
    await page.getByLabel("Port id").pressSequentially("abc");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => page.getByRole("alert").count()).toBeGreaterThan(0);
    expect(await page.getByRole("alert").first().textContent()).toContain("400");
    expect(await page.getByTestId("sessions-range").count()).toBe(0);
    expect(await page.getByTestId("sessions-table").count()).toBe(0);
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
      const [scroll, client] = await page.evaluate<number[]>("[document.documentElement.scrollWidth, document.documentElement.clientWidth]");
      if (scroll! > client!) wide.push(`${href}: ${scroll} > ${client}`);
      if (href === "/system") await page.screenshot({ path: path.join(SCREENSHOTS, "system.png"), fullPage: true });
    }
    expect(wide).toEqual([]);
  }, 120_000);
});

describe("the designed section pages", () => {
  /** The text of the table row (in main) that holds `key`, a cell's identifier. */
  const rowText = (key: string) => page.locator("main table.records tbody tr", { hasText: key }).first().textContent();
  const grouped = (n: number) => n.toLocaleString("en");

  // Each page: its heading, and what it must show, read from the API in the test (values that do not move while the page is read: names, ids, sizes, configuration).
  const pages: [string, string, () => Promise<[string, string][]>][] = [
    ["/cgn", "CGN", async () => {
      const s = (await apiFromPage<{ groups: { name: string; publicSubnets: string[]; utilisation: { totalChunks: number } }[] }>(page, "GET", "/cgn/status")).body;
      return s.groups.map((g) => [g.publicSubnets[0]!, grouped(g.utilisation.totalChunks)]);
    }],
    ["/routing", "Routing", async () => {
      const s = (await apiFromPage<{ peers: { peer: string; remoteAs: number; description: string }[] }>(page, "GET", "/routing/bgp/summary")).body;
      return s.peers.map((p) => [p.description || p.peer, String(p.remoteAs)]);
    }],
    ["/pools", "Address pools", async () => {
      const pools = (await apiFromPage<{ name: string; size: number }[]>(page, "GET", "/address-pools")).body;
      return pools.map((p) => [p.name, grouped(p.size)]);
    }],
    ["/l2tp", "L2TP tunnels", async () => {
      const t = (await apiFromPage<{ tunnels: { localTunnelId: number; peerIp: string }[] }>(page, "GET", "/l2tp/tunnels")).body.tunnels;
      return t.map((x) => [x.peerIp, String(x.localTunnelId)]);
    }],
    ["/ipsec", "IPsec", async () => {
      const s = (await apiFromPage<{ peers: { name: string; proposal: string | null }[] }>(page, "GET", "/ipsec")).body;
      return s.peers.map((p) => [p.name, p.proposal ?? "—"]);
    }],
    ["/gre", "GRE circuits", async () => {
      const c = (await apiFromPage<{ id: string; remote: string }[]>(page, "GET", "/gre-circuits")).body;
      return c.map((x) => [x.id, x.remote]);
    }],
    ["/vrfs", "VRFs and source-VRF rules", async () => {
      const v = (await apiFromPage<{ name: string; configured: boolean; tableId?: number }[]>(page, "GET", "/vrfs")).body;
      return v.filter((x) => x.configured).map((x) => [x.name, String(x.tableId)]);
    }],
    ["/local-subscribers", "Local subscribers", async () => {
      const l = (await apiFromPage<{ items: { key: string; username: string }[] }>(page, "GET", "/subscribers/local")).body.items;
      return l.map((x) => [x.key, x.username]);
    }],
    ["/radius", "RADIUS servers", async () => {
      const r = (await apiFromPage<{ servers: { host: string; port: number; weight: number }[] }>(page, "GET", "/radius/servers")).body.servers;
      return r.map((x) => [x.host, String(x.port)]);
    }],
    ["/licensing", "Licensing", async () => {
      const l = (await apiFromPage<{ bandMax: number; bandName: string }>(page, "GET", "/licensing")).body;
      return [["Band", l.bandName], ["Sessions", grouped(l.bandMax)]];
    }],
    ["/users", "Users", async () => {
      const u = (await apiFromPage<{ items: { username: string; role: string }[] }>(page, "GET", "/auth/users")).body.items;
      return u.map((x) => [x.username, x.role]);
    }],
    ["/oidc", "OIDC providers", async () => [["", "No OIDC providers"]]],
  ];

  it.each(pages)("%s shows the API's values at 1024 px, with no sideways scroll and no serious axe finding", async (href, heading, expected) => {
    await open(href, heading);
    const pairs = await expected();
    expect(pairs.length).toBeGreaterThan(0);
    for (const [key, value] of pairs) {
      // A row holds its identifier and the value beside it; a page-level figure is in main's text.
      const text = key && (await page.locator("main table.records tbody tr", { hasText: key }).count()) > 0 ? await rowText(key) : await page.locator("main").textContent();
      expect(text, `${href}: ${key}`).toContain(value);
    }
    const [scroll, client] = await page.evaluate<number[]>("[document.documentElement.scrollWidth, document.documentElement.clientWidth]");
    expect(scroll, href).toBeLessThanOrEqual(client!);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, `${href.slice(1)}.png`), fullPage: true });
  });

  it("prints an L2TP tunnel id as it is typed, without a thousands separator", async () => {
    const t = (await apiFromPage<{ tunnels: { localTunnelId: number }[] }>(page, "GET", "/l2tp/tunnels")).body.tunnels;
    const id = t.find((x) => x.localTunnelId > 999)?.localTunnelId;
    expect(id).toBeDefined();
    await open("/l2tp", "L2TP tunnels");
    const text = (await page.locator("main").textContent())!;
    expect(text).toContain(String(id));
    expect(text).not.toContain(grouped(id!));
  });

  it("links a session's page to its pool, VRF, CGN binding and L2TP tunnel", async () => {
    type Detail = { id: number; vrf: string; addresses: { ipv4: { pool: string | null } }; cgn: { insideIp: string; publicIp: string } | null };
    const first = async (query: string) => (await apiFromPage<{ items: { id: number }[] }>(page, "GET", `/sessions?${query}&limit=1`)).body.items[0]!.id;
    // A translated subscriber (one whose binding the CGN lists): its binding's public address is the link's text, and the link opens the CGN page on its inside address.
    const bound = (await apiFromPage<{ items: { sessionId: number }[] }>(page, "GET", "/cgn/bindings?limit=50")).body.items.filter((b) => b.sessionId > 0);
    const details = await Promise.all(bound.map(async (b) => (await apiFromPage<Detail>(page, "GET", `/sessions/${b.sessionId}`)).body));
    const detail = details.find((d) => d?.cgn)!;
    const cgnId = detail.id;
    await open(`/sessions/${cgnId}`, `Session ${cgnId}`);
    const related = page.getByRole("list", { name: "Related objects" });
    await related.waitFor();
    expect(await related.getByRole("link", { name: detail.addresses.ipv4.pool!, exact: true }).getAttribute("href")).toBe(`/pools/${detail.addresses.ipv4.pool}`);
    expect(await related.getByRole("link", { name: detail.vrf, exact: true }).getAttribute("href")).toBe("/vrfs");
    const binding = related.getByRole("link", { name: new RegExp(`^${detail.cgn!.publicIp.replace(/\./g, "\\.")} ports`) });
    expect(await binding.getAttribute("href")).toBe(`/cgn?ip=${detail.cgn!.insideIp}`);
    await binding.click();
    await page.getByRole("heading", { level: 1, name: "CGN" }).waitFor();
    await untilLoaded(page);
    expect(await rowText(detail.cgn!.insideIp)).toContain(String(cgnId));
    // An LNS-terminated session: the tunnel whose session list holds it, as the API says.
    const l2tpId = await first("encap=l2tp");
    const tunnels = (await apiFromPage<{ tunnels: { localTunnelId: number }[] }>(page, "GET", "/l2tp/tunnels")).body.tunnels;
    const tunnelDetails = await Promise.all(tunnels.map(async (t) => (await apiFromPage<{ localTunnelId: number; sessionList: { id: number }[] }>(page, "GET", `/l2tp/tunnels/${t.localTunnelId}`)).body));
    const tunnel = tunnelDetails.find((t) => t.sessionList.some((x) => x.id === l2tpId))!.localTunnelId;
    await open(`/sessions/${l2tpId}`, `Session ${l2tpId}`);
    const link = page.getByRole("list", { name: "Related objects" }).getByRole("link", { name: String(tunnel), exact: true });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`/l2tp/${tunnel}`);
  });

  it("says a peer's page is not relayed instead of showing the fleet proxy's refusal", async () => {
    // GET /licensing is not marked x-fleet-proxy (the spec does not mark it FP): the proxy answers 403 for it.
    expect((await apiFromPage(page, "GET", "/fleet/edge-2/licensing")).status).toBe(403);
    await open("/fleet/edge-2/licensing", "Licensing");
    expect(await page.locator("main .notice").textContent()).toContain("The fleet proxy does not relay this page's reads");
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  it("deletes an OIDC provider from its row, after a confirm that names it", async () => {
    const provider = { enabled: true, displayName: "Corporate SSO", issuer: "https://sso.example.net", clientId: "bng-ui", clientSecret: "s3cret-value", scopes: ["openid"], usernameClaim: "preferred_username", groupsClaim: "groups", fetchUserInfo: false, roleMap: [{ group: "noc", role: "operator" }] };
    expect((await apiFromPage(page, "PUT", "/auth/providers/oidc/corp-sso", provider)).status).toBeLessThan(300);
    await open("/oidc", "OIDC providers");
    expect(await rowText("corp-sso")).toContain("Corporate SSO");
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.accept();
    });
    await page.getByRole("button", { name: "Delete provider corp-sso" }).click();
    await expect.poll(() => page.getByRole("status").allTextContents()).toContain("OIDC provider corp-sso deleted.");
    expect(asked).toEqual(["Delete OIDC provider corp-sso (Corporate SSO)? Its sign-in button goes."]);
    expect((await apiFromPage(page, "GET", "/auth/providers/oidc/corp-sso")).status).toBe(404);
    expect(await page.locator("main table.records tbody tr", { hasText: "corp-sso" }).count()).toBe(0);
  });

  it("edits a source-VRF rule from its row, starting from its current values, VRFs as a select", async () => {
    const rules = (await apiFromPage<{ name: string; ingestVrf: string; targetVrf: string; sourceSubnets: string[] }[]>(page, "GET", "/source-vrf-rules")).body;
    const rule = rules[0]!;
    await open("/vrfs", "VRFs and source-VRF rules");
    await page.getByRole("button", { name: `Edit rule ${rule.name}` }).click();
    const form = page.getByRole("form", { name: `Edit rule ${rule.name}` });
    expect(await form.getByLabel("Ingest VRF *").inputValue()).toBe(rule.ingestVrf);
    expect(await form.getByLabel("Source subnets").inputValue()).toBe(rule.sourceSubnets.join("\n"));
    await form.getByLabel("Source subnets").fill([...rule.sourceSubnets, "10.201.0.0/24"].join("\n"));
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByRole("status").waitFor();
    const after = (await apiFromPage<{ sourceSubnets: string[]; ingestVrf: string }>(page, "GET", `/source-vrf-rules/${rule.name}`)).body;
    expect(after).toMatchObject({ ingestVrf: rule.ingestVrf, sourceSubnets: [...rule.sourceSubnets, "10.201.0.0/24"] });
  });
});

describe("the header strip", () => {
  /** The live channel's sockets the pages opened, each with the statuses pushed over it and whether it has closed. */
  const sockets: { url: string; statuses: { alarms: { count: number } }[]; closed: boolean }[] = [];
  /** When the page read GET /system/status itself (the fallback poller). */
  const polls: number[] = [];

  it("shows an alarm a scenario raises in the badge, without a reload and without a poll: the live channel carried it", async () => {
    page.on("websocket", (ws) => {
      const socket = { url: ws.url(), statuses: [] as { alarms: { count: number } }[], closed: false };
      sockets.push(socket);
      ws.on("framereceived", ({ payload }) => socket.statuses.push((JSON.parse(String(payload)) as { status: { alarms: { count: number } } }).status));
      ws.on("close", () => (socket.closed = true));
    });
    page.on("request", (request) => new URL(request.url()).pathname === "/api/v1/system/status" && polls.push(Date.now()));
    await open("/sessions", "Sessions");
    const badge = page.getByTestId("alarm-badge");
    const before = (await apiFromPage<{ count: number }>(page, "GET", "/alarms")).body.count;
    await expect.poll(() => badge.textContent()).toBe(before === 0 ? "No alarms" : `${before} alarm${before === 1 ? "" : "s"}`);
    // One socket, to this appliance's live path, open and already sent the status.
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
          const response = await fetch("/twin/v1/scenario", { method: "POST", headers: { "content-type": "application/json", "x-csrf-token": who.csrfToken }, body: JSON.stringify({ action: "fill-pool", pool, percent: 100 }) });
          return response.status;
        },
        [pool.name] as const,
      );
      expect(answer).toBe(200);
    }
    // The pool alarm is raised at the model's next step, which the object pushes to the page.
    await expect.poll(async () => (await apiFromPage<{ count: number }>(page, "GET", "/alarms")).body.count, { timeout: 30_000 }).toBeGreaterThan(before);
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
      return (await fetch("/api/v1/auth/logout", { method: "POST", headers: { "x-csrf-token": who.csrfToken } })).status;
    });
    expect(status).toBe(200);
    await expect.poll(() => live[0]!.closed, { timeout: 15_000 }).toBe(true);
    await page.getByText("Your session has ended.").waitFor({ timeout: 15_000 });
  }, 60_000);
});
