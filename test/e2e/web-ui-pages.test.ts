/**
 * The designed section pages (CGN, routing, pools, L2TP, IPsec, GRE, VRFs,
 * local subscribers, RADIUS, licensing, users, OIDC, passkey policy) in a real browser
 * (Debian's Chromium) against the real launcher at 1024 px: each shows the
 * API's values read in the test, fits the window and passes axe; row actions
 * done as a person does them, checked through the API.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENSHOTS, launchUiFleet, type UiFleet } from "./ui-fleet.ts";
import { apiFromPage, axeViolations, untilLoaded } from "./ui-person.ts";

let ui: UiFleet;
let page: Page;

beforeAll(async () => {
  ui = await launchUiFleet();
  ({ page } = ui);
}, 240_000);

afterAll(async () => {
  await ui?.close();
});

const open = (href: string, heading: string) => ui.open(href, heading);

describe("the designed section pages", () => {
  /** The text of the table row (in main) that holds `key`, a cell's identifier. */
  const rowText = (key: string) => page.locator("main table.records tbody tr", { hasText: key }).first().textContent();
  const grouped = (n: number) => n.toLocaleString("en");

  // Each page: its heading, and what it must show, read from the API in the test (values that do not move while the
  // page is read: names, ids, sizes, configuration).
  const pages: [string, string, () => Promise<[string, string][]>][] = [
    [
      "/cgn",
      "CGN",
      async () => {
        const s = (
          await apiFromPage<{
            groups: { name: string; publicSubnets: string[]; utilisation: { totalChunks: number } }[];
          }>(page, "GET", "/cgn/status")
        ).body;
        return s.groups.map((g) => [g.publicSubnets[0]!, grouped(g.utilisation.totalChunks)]);
      },
    ],
    [
      "/routing",
      "Routing",
      async () => {
        const s = (
          await apiFromPage<{ peers: { peer: string; remoteAs: number; description: string }[] }>(
            page,
            "GET",
            "/routing/bgp/summary",
          )
        ).body;
        return s.peers.map((p) => [p.description || p.peer, String(p.remoteAs)]);
      },
    ],
    [
      "/pools",
      "Address pools",
      async () => {
        const pools = (await apiFromPage<{ name: string; size: number }[]>(page, "GET", "/address-pools")).body;
        return pools.map((p) => [p.name, grouped(p.size)]);
      },
    ],
    [
      "/l2tp",
      "L2TP tunnels",
      async () => {
        const t = (
          await apiFromPage<{ tunnels: { localTunnelId: number; peerIp: string }[] }>(page, "GET", "/l2tp/tunnels")
        ).body.tunnels;
        return t.map((x) => [x.peerIp, String(x.localTunnelId)]);
      },
    ],
    [
      "/ipsec",
      "IPsec",
      async () => {
        const s = (await apiFromPage<{ peers: { name: string; proposal: string | null }[] }>(page, "GET", "/ipsec"))
          .body;
        return s.peers.map((p) => [p.name, p.proposal ?? "—"]);
      },
    ],
    [
      "/gre",
      "GRE circuits",
      async () => {
        const c = (await apiFromPage<{ id: string; remote: string }[]>(page, "GET", "/gre-circuits")).body;
        return c.map((x) => [x.id, x.remote]);
      },
    ],
    [
      "/vrfs",
      "VRFs and source-VRF rules",
      async () => {
        const v = (await apiFromPage<{ name: string; configured: boolean; tableId?: number }[]>(page, "GET", "/vrfs"))
          .body;
        return v.filter((x) => x.configured).map((x) => [x.name, String(x.tableId)]);
      },
    ],
    [
      "/local-subscribers",
      "Local subscribers",
      async () => {
        const l = (await apiFromPage<{ items: { key: string; username: string }[] }>(page, "GET", "/subscribers/local"))
          .body.items;
        return l.map((x) => [x.key, x.username]);
      },
    ],
    [
      "/radius",
      "RADIUS servers",
      async () => {
        const r = (
          await apiFromPage<{ servers: { host: string; port: number; weight: number }[] }>(
            page,
            "GET",
            "/radius/servers",
          )
        ).body.servers;
        return r.map((x) => [x.host, String(x.port)]);
      },
    ],
    [
      "/licensing",
      "Licensing",
      async () => {
        const l = (await apiFromPage<{ bandMax: number; bandName: string }>(page, "GET", "/licensing")).body;
        return [
          ["Band", l.bandName],
          ["Sessions", grouped(l.bandMax)],
        ];
      },
    ],
    [
      "/users",
      "Users",
      async () => {
        const u = (await apiFromPage<{ items: { username: string; role: string }[] }>(page, "GET", "/auth/users")).body
          .items;
        return u.map((x) => [x.username, x.role]);
      },
    ],
    ["/oidc", "OIDC providers", async () => [["", "No OIDC providers"]]],
    [
      "/passkey-policy",
      "Passkey policy",
      async () => {
        const p = (await apiFromPage<{ userVerification: string }>(page, "GET", "/auth/providers/passkey")).body;
        return [["", `User verification: ${p.userVerification}`]];
      },
    ],
  ];

  it.each(pages)(
    "%s shows the API's values at 1024 px, with no sideways scroll and no serious axe finding",
    async (href, heading, expected) => {
      // The fleet is live from a fresh start: tunnels (and other rows) open as sessions come up, so a loaded
      // machine can reach a page before its first row exists. Wait until the API lists one, then open the page.
      await expect.poll(async () => (await expected()).length, { timeout: 30_000, interval: 500 }).toBeGreaterThan(0);
      await open(href, heading);
      const pairs = await expected();
      expect(pairs.length).toBeGreaterThan(0);
      for (const [key, value] of pairs) {
        // A row holds its identifier and the value beside it; a page-level figure is in main's text.
        const text =
          key && (await page.locator("main table.records tbody tr", { hasText: key }).count()) > 0
            ? await rowText(key)
            : await page.locator("main").textContent();
        expect(text, `${href}: ${key}`).toContain(value);
      }
      const [scroll, client] = await page.evaluate<number[]>(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
      );
      expect(scroll, href).toBeLessThanOrEqual(client!);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, `${href.slice(1)}.png`), fullPage: true });
    },
    75_000,
  );

  it("prints an L2TP tunnel id as it is typed, without a thousands separator", async () => {
    const tunnelIds = async () =>
      (await apiFromPage<{ tunnels: { localTunnelId: number }[] }>(page, "GET", "/l2tp/tunnels")).body.tunnels.map(
        (t) => t.localTunnelId,
      );
    await expect
      .poll(async () => (await tunnelIds()).some((id) => id > 999), { timeout: 30_000, interval: 500 })
      .toBe(true);
    const id = (await tunnelIds()).find((x) => x > 999);
    expect(id).toBeDefined();
    await open("/l2tp", "L2TP tunnels");
    const text = (await page.locator("main").textContent())!;
    expect(text).toContain(String(id));
    expect(text).not.toContain(grouped(id!));
  }, 75_000);

  it("links a session's page to its pool, VRF, plan, CGN binding and L2TP tunnel", async () => {
    type Detail = {
      id: number;
      vrf: string;
      plan: string;
      addresses: { ipv4: { pool: string | null } };
      cgn: { insideIp: string; publicIp: string } | null;
    };
    const first = async (query: string) =>
      (await apiFromPage<{ items: { id: number }[] }>(page, "GET", `/sessions?${query}&limit=1`)).body.items[0]!.id;
    // A translated subscriber (one whose binding the CGN lists): its binding's public address is the link's text, and
    // the link opens the CGN page on its inside address.
    const bound = (
      await apiFromPage<{ items: { sessionId: number }[] }>(page, "GET", "/cgn/bindings?limit=50")
    ).body.items.filter((b) => b.sessionId > 0);
    const details = await Promise.all(
      bound.map(async (b) => (await apiFromPage<Detail>(page, "GET", `/sessions/${b.sessionId}`)).body),
    );
    const detail = details.find((d) => d?.cgn)!;
    const cgnId = detail.id;
    await open(`/sessions/${cgnId}`, `Session ${cgnId}`);
    const related = page.locator("main");
    await related.getByTestId("session-plan").waitFor();
    expect(
      await related
        .getByRole("region", { name: "Addresses" })
        .getByRole("link", { name: detail.addresses.ipv4.pool!, exact: true })
        .getAttribute("href"),
    ).toBe(`/pools/${detail.addresses.ipv4.pool}`);
    expect(
      await related
        .getByRole("region", { name: "Where it lives" })
        .getByRole("link", { name: detail.vrf, exact: true })
        .getAttribute("href"),
    ).toBe("/vrfs");
    // The plan opens every session on it, and only those: the list's count is the API's for that plan (the fleet
    // runs live, so read at nearly the same moment: within the few sessions that come and go meanwhile).
    await related.getByTestId("session-plan").getByRole("link", { name: detail.plan, exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Sessions" }).waitFor();
    await untilLoaded(page);
    const onPlan = (
      await apiFromPage<{ total: number }>(page, "GET", `/sessions?plan=${encodeURIComponent(detail.plan)}&limit=1`)
    ).body.total;
    const shown = Number(
      /of ([\d,]+)$/.exec((await page.getByTestId("sessions-range").textContent()) ?? "")?.[1]?.replace(/,/g, ""),
    );
    expect(Math.abs(shown - onPlan)).toBeLessThanOrEqual(Math.max(2, onPlan * 0.02));
    expect((await apiFromPage<{ total: number }>(page, "GET", "/sessions?limit=1")).body.total).toBeGreaterThan(onPlan);
    const plansShown = await page
      .getByTestId("sessions-table")
      .locator("tbody tr")
      .evaluateAll((rows) => rows.map((r) => r.textContent ?? ""));
    expect(plansShown.length).toBeGreaterThan(0);
    expect(plansShown.every((row) => row.includes(detail.plan))).toBe(true);
    await open(`/sessions/${cgnId}`, `Session ${cgnId}`);
    await related.getByTestId("session-plan").waitFor();
    const binding = related.getByTestId("session-cgn").getByRole("link", { name: detail.cgn!.publicIp, exact: true });
    expect(await binding.getAttribute("href")).toBe(`/cgn?ip=${detail.cgn!.insideIp}`);
    await binding.click();
    await page.getByRole("heading", { level: 1, name: "CGN" }).waitFor();
    await untilLoaded(page);
    expect(await rowText(detail.cgn!.insideIp)).toContain(String(cgnId));
    // An LNS-terminated session: the tunnel whose session list holds it, as the API says.
    const l2tpId = await first("encap=l2tp");
    const tunnels = (await apiFromPage<{ tunnels: { localTunnelId: number }[] }>(page, "GET", "/l2tp/tunnels")).body
      .tunnels;
    const tunnelDetails = await Promise.all(
      tunnels.map(
        async (t) =>
          (
            await apiFromPage<{ localTunnelId: number; sessionList: { id: number }[] }>(
              page,
              "GET",
              `/l2tp/tunnels/${t.localTunnelId}`,
            )
          ).body,
      ),
    );
    const tunnel = tunnelDetails.find((t) => t.sessionList.some((x) => x.id === l2tpId))!.localTunnelId;
    await open(`/sessions/${l2tpId}`, `Session ${l2tpId}`);
    const link = page
      .getByRole("region", { name: "Where it lives" })
      .getByRole("link", { name: String(tunnel), exact: true });
    await link.waitFor();
    expect(await link.getAttribute("href")).toBe(`/l2tp/${tunnel}`);
  });

  it("says a peer's page is not relayed instead of showing the fleet proxy's refusal", async () => {
    // GET /licensing is not marked x-fleet-proxy (the spec does not mark it FP): the proxy answers 403 for it.
    expect((await apiFromPage(page, "GET", "/fleet/edge-2/licensing")).status).toBe(403);
    await open("/fleet/edge-2/licensing", "Licensing");
    expect(await page.locator("main .notice").textContent()).toContain(
      "The fleet proxy does not relay this page's reads",
    );
    expect(await page.getByRole("alert").count()).toBe(0);
  });

  it(
    "edits an OIDC provider's role map rule by rule, then deletes the provider from " +
      "its row, after a confirm that names it",
    async () => {
      const provider = {
        enabled: true,
        displayName: "Corporate SSO",
        issuer: "https://sso.example.net",
        clientId: "bng-ui",
        clientSecret: "s3cret-value",
        scopes: ["openid"],
        usernameClaim: "preferred_username",
        groupsClaim: "groups",
        fetchUserInfo: false,
        roleMap: [{ group: "noc", role: "operator" }],
      };
      expect((await apiFromPage(page, "PUT", "/auth/providers/oidc/corp-sso", provider)).status).toBeLessThan(300);
      await open("/oidc", "OIDC providers");
      expect(await rowText("corp-sso")).toContain("Corporate SSO");
      // The role map starts from its rules, one row each, the role a select; a rule added as a person types it.
      await page.getByRole("button", { name: "Edit provider corp-sso" }).click();
      const form = page.getByRole("form", { name: "Edit provider corp-sso" });
      const first = form.getByRole("group", { name: "Rule 1" });
      expect([await first.getByLabel("Group *").inputValue(), await first.getByLabel("Role *").inputValue()]).toEqual([
        "noc",
        "operator",
      ]);
      await form.getByRole("button", { name: "Add a rule" }).click();
      const added = form.getByRole("group", { name: "Rule 2" });
      await added.getByLabel("Group *").pressSequentially("noc-viewers");
      await added.getByLabel("Role *").selectOption("read-only");
      await form.getByRole("button", { name: "Save" }).click();
      await form.getByRole("status").waitFor();
      const saved = (
        await apiFromPage<{ roleMap: { group: string; role: string }[]; clientSecretSet: boolean }>(
          page,
          "GET",
          "/auth/providers/oidc/corp-sso",
        )
      ).body;
      expect(saved).toMatchObject({
        roleMap: [
          { group: "noc", role: "operator" },
          { group: "noc-viewers", role: "read-only" },
        ],
        clientSecretSet: true,
      });
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
    },
  );

  it("edits a source-VRF rule from its row, starting from its current values, VRFs as a select", async () => {
    const rules = (
      await apiFromPage<{ name: string; ingestVrf: string; targetVrf: string; sourceSubnets: string[] }[]>(
        page,
        "GET",
        "/source-vrf-rules",
      )
    ).body;
    const rule = rules[0]!;
    await open("/vrfs", "VRFs and source-VRF rules");
    await page.getByRole("button", { name: `Edit rule ${rule.name}` }).click();
    const form = page.getByRole("form", { name: `Edit rule ${rule.name}` });
    expect(await form.getByLabel("Ingest VRF *").inputValue()).toBe(rule.ingestVrf);
    expect(await form.getByLabel("Source subnets").inputValue()).toBe(rule.sourceSubnets.join("\n"));
    await form.getByLabel("Source subnets").fill([...rule.sourceSubnets, "10.201.0.0/24"].join("\n"));
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByRole("status").waitFor();
    const after = (
      await apiFromPage<{ sourceSubnets: string[]; ingestVrf: string }>(page, "GET", `/source-vrf-rules/${rule.name}`)
    ).body;
    expect(after).toMatchObject({ ingestVrf: rule.ingestVrf, sourceSubnets: [...rule.sourceSubnets, "10.201.0.0/24"] });
  });

  it("edits the static route table row by row as a person types it, the refusal " +
    "beside its field, and saves the whole table", {
    timeout: 60_000,
  }, async () => {
    type Route = {
      vrf: string;
      prefix: string;
      nextHop: string;
      distance: number;
      announce: boolean;
      description: string;
    };
    const before = (await apiFromPage<{ staticRoutes: Route[] }>(page, "GET", "/routing/config")).body.staticRoutes;
    await open("/routing", "Routing");
    await page.locator("summary", { hasText: "Edit the static routes" }).click();
    const form = page.getByRole("form", { name: "Edit the static routes" });
    // It starts from the table as it is: one row per route.
    expect(await form.getByRole("group", { name: /^Route \d+$/ }).count()).toBe(before.length);
    if (before[0])
      expect(await form.getByRole("group", { name: "Route 1" }).getByLabel("Prefix *").inputValue()).toBe(
        before[0].prefix,
      );
    await form.getByRole("button", { name: "Add a route" }).click();
    const added = form.getByRole("group", { name: `Route ${before.length + 1}` });
    // Keyboard: the new row's first field has the focus.
    expect(await page.evaluate<string>("document.activeElement.id")).toBe(
      await added.getByLabel("VRF").getAttribute("id"),
    );
    await added.getByLabel("VRF").selectOption("default");
    // Host bits set: configuration validation refuses it (422), and says so beside this row's prefix.
    await added.getByLabel("Prefix *").pressSequentially("198.51.100.1/24");
    await added.getByLabel("Next hop *").pressSequentially("blackhole");
    await added.getByLabel("Distance").pressSequentially("20");
    await added.getByLabel("Announce").check();
    await added.getByLabel("Description").pressSequentially("documentation range, dropped");
    await form.getByRole("button", { name: "Save the static routes" }).click();
    // Playwright's wait, not expect.poll's 1 s: a commit refused under load can take longer.
    await form.getByRole("alert").waitFor();
    expect(await form.getByRole("alert").textContent()).toBe("A value needs attention: see the field marked above.");
    expect(await added.locator(".field-error").count()).toBe(1);
    expect(await added.getByLabel("Prefix *").getAttribute("aria-invalid")).toBe("true");
    expect(await added.getByLabel("Next hop *").inputValue()).toBe("blackhole");
    expect((await apiFromPage<{ staticRoutes: Route[] }>(page, "GET", "/routing/config")).body.staticRoutes).toEqual(
      before,
    );
    // The open editor, its refusal shown, still fits the window and passes axe.
    const [scroll, client] = await page.evaluate<number[]>(
      "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
    );
    expect(scroll).toBeLessThanOrEqual(client!);
    expect(await axeViolations(page)).toEqual([]);
    await form.screenshot({ path: path.join(SCREENSHOTS, "static-routes.png") });
    await added.getByLabel("Prefix *").fill("198.51.100.0/24");
    await form.getByRole("button", { name: "Save the static routes" }).click();
    expect(await form.getByRole("status").textContent()).toMatch(
      /^Saved as configuration version \d+, at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/,
    );
    const after = (await apiFromPage<{ staticRoutes: Route[] }>(page, "GET", "/routing/config")).body.staticRoutes;
    // The whole table: the routes that were there, unchanged, and the new one as typed (distance a number, announce
    // true).
    expect(after).toEqual([
      ...before,
      expect.objectContaining({
        vrf: "default",
        prefix: "198.51.100.0/24",
        nextHop: "blackhole",
        distance: 20,
        announce: true,
        description: "documentation range, dropped",
      }),
    ]);
  });

  it("changes an IGP interface's cost in its row of the routing settings, and reads the interfaces back", async () => {
    type Config = { localAs: number | null; igp: { protocol: string; interfaces: { name: string; cost: number }[] } };
    const before = (await apiFromPage<Config>(page, "GET", "/routing/config")).body;
    const at = before.igp.interfaces.findIndex((i) => i.name !== "lo");
    expect(at).toBeGreaterThanOrEqual(0);
    await open("/routing", "Routing");
    await page.locator("summary", { hasText: "Change the local AS, router ID or IGP" }).click();
    const form = page.getByRole("form", { name: "Change routing settings" });
    expect(await form.getByRole("group", { name: /^Interface \d+$/ }).count()).toBe(before.igp.interfaces.length);
    const row = form.getByRole("group", { name: `Interface ${at + 1}` });
    expect(await row.getByLabel("Name *").inputValue()).toBe(before.igp.interfaces[at]!.name);
    await row.getByLabel("Cost").fill("");
    await row.getByLabel("Cost").pressSequentially("25");
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByRole("status").waitFor();
    const after = (await apiFromPage<Config>(page, "GET", "/routing/config")).body;
    // Only that cost changed: the other interfaces, the protocol and the local AS are as they were.
    expect(after.localAs).toBe(before.localAs);
    expect(after.igp).toEqual({
      ...before.igp,
      interfaces: before.igp.interfaces.map((i, n) => (n === at ? { ...i, cost: 25 } : i)),
    });
  });

  it("adds an auto-learn entry to a CGN group row by row, the VRF from a select, and reads it back", async () => {
    type Group = { name: string; insideVrfs: string[]; autoLearn: { insideVrf: string; prefixes: string[] }[] };
    const group = (await apiFromPage<Group[]>(page, "GET", "/cgn/groups")).body[0]!;
    const elements = (g: Group) => g.autoLearn.flatMap((a) => a.prefixes.map((p) => `${a.insideVrf}:${p}`));
    await open("/cgn", "CGN");
    await page.getByRole("button", { name: `Edit group ${group.name}` }).click();
    const form = page.getByRole("form", { name: `Edit group ${group.name}` });
    expect(await form.getByRole("group", { name: /^Auto-learn entry \d+$/ }).count()).toBe(group.autoLearn.length);
    await form.getByRole("button", { name: "Add an auto-learn entry" }).click();
    const added = form.getByRole("group", { name: `Auto-learn entry ${group.autoLearn.length + 1}` });
    const vrf = group.insideVrfs[0]!;
    await added.getByLabel("Inside VRF *").selectOption(vrf);
    await added.getByLabel("Prefixes *").pressSequentially("100.126.0.0/24\n100.126.1.0/24");
    expect(await axeViolations(page)).toEqual([]);
    await form.screenshot({ path: path.join(SCREENSHOTS, "cgn-group.png") });
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByRole("status").waitFor();
    const after = (await apiFromPage<Group>(page, "GET", `/cgn/groups/${group.name}`)).body;
    // The API keeps auto-learn entries as `<insideVrf>:<prefix>` elements: the old ones and the two typed.
    expect(elements(after).sort()).toEqual(
      [...elements(group), `${vrf}:100.126.0.0/24`, `${vrf}:100.126.1.0/24`].sort(),
    );
  });
});
