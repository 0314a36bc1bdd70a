/**
 * The web UI as a NOC engineer meets it on day one (issue #51), in a real
 * browser (Debian's Chromium) against the real launcher: inputs typed as a
 * person types them, every figure read back through the API at that moment
 * (the fleet runs live, so never an exact simulated number), at 1024 px.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCREENSHOTS, launchUiFleet, type UiFleet } from "./ui-fleet.ts";
import { apiFromPage, axeViolations, untilLoaded } from "./ui-person.ts";
import type { SessionDetail, SessionList, SessionRates, SessionSummaryCounts } from "../../src/schemas/sessions.ts";

let ui: UiFleet;
let page: Page;
let base: string;

beforeAll(async () => {
  ui = await launchUiFleet();
  ({ page, base } = ui);
}, 240_000);

afterAll(async () => {
  await ui?.close();
});

const open = (href: string, heading: string | RegExp) => ui.open(href, heading as string);

/**
 * A rate as the page writes it (`300 Mb/s`, `17.1 kb/s`), in bits per second: read by the test, not by the UI's
 * formatter.
 */
function bitsPerSecond(text: string): number {
  const m = /^([\d.]+) (b|kb|Mb|Gb|Tb)\/s$/.exec(text.trim());
  if (!m) throw new Error(`not a rate: '${text}'`);
  return Number(m[1]) * { b: 1, kb: 1e3, Mb: 1e6, Gb: 1e9, Tb: 1e12 }[m[2] as "b"];
}
/** A byte count as the page writes it (`5.00 GiB`, `830 B`), in bytes. */
function byteCount(text: string): number {
  const m = /^([\d.]+) (B|KiB|MiB|GiB|TiB)$/.exec(text.trim());
  if (!m) throw new Error(`not a byte count: '${text}'`);
  return Number(m[1]) * 1024 ** ["B", "KiB", "MiB", "GiB", "TiB"].indexOf(m[2]!);
}
/** Three significant figures, as the page rounds: within half a unit of the third. */
const close = (shown: number, exact: number) => Math.abs(shown - exact) <= Math.max(0.5, Math.abs(exact) * 0.005);

/** Whether the page fits a 1024 px window, and which of main's boxes a value overflows. */
async function overflow(): Promise<{ page: number[]; boxes: string[] }> {
  // A string: this runs in the page, where document is a global.
  return page.evaluate(`({
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
    boxes: [...document.querySelectorAll("main dd, main .card")]
      .filter((e) => e.scrollWidth > e.clientWidth + 1)
      .map((e) => (e.textContent ?? "").slice(0, 60)),
  })`);
}

/** A session of the local appliance with a plan whose rates are whole megabits, and its record now. */
async function sessionWithPlan(): Promise<SessionDetail> {
  await expect
    .poll(async () => (await apiFromPage<SessionList>(page, "GET", "/sessions?limit=20")).body.items.length, {
      timeout: 60_000,
    })
    .toBeGreaterThan(5);
  const items = (await apiFromPage<SessionList>(page, "GET", "/sessions?limit=50")).body.items.filter(
    (s) => s.encap !== "l2tp",
  );
  for (const s of items) {
    const d = (await apiFromPage<SessionDetail>(page, "GET", `/sessions/${s.id}`)).body;
    if (d && d.planRates.downloadKbps >= 10_000) return d;
  }
  throw new Error("no session with a plan of 10 Mb/s or more");
}

describe("a session's page answers 'what is this subscriber doing'", () => {
  it("shows the plan's rates as the API gives them in kbps: 300000 kbps is 300 Mb/s, not 300 kb/s", async () => {
    const session = await sessionWithPlan();
    // Found as a person finds it: the username typed into the sessions filter, then its row.
    await open("/sessions", "Sessions");
    await page.getByLabel("Username").pressSequentially(session.username);
    await page.getByRole("button", { name: "Apply" }).click();
    await page
      .getByTestId("sessions-table")
      .getByRole("link", { name: String(session.id), exact: true })
      .click();
    await page.getByRole("heading", { level: 1, name: new RegExp(`^Session ${session.id}`) }).waitFor();
    await untilLoaded(page);
    const shown = (await page.getByTestId("plan-rates").textContent())!;
    const [down, up] = shown.split(",").map((part) => part.trim().replace(/ (down|up)$/, ""));
    // The plan does not change while the page is open: its rates are the API's, kbps × 1000 bits per second.
    expect(
      close(bitsPerSecond(down!), session.planRates.downloadKbps * 1000),
      `${shown} vs ${session.planRates.downloadKbps} kbps`,
    ).toBe(true);
    expect(
      close(bitsPerSecond(up!), session.planRates.uploadKbps * 1000),
      `${shown} vs ${session.planRates.uploadKbps} kbps`,
    ).toBe(true);
    expect(await page.getByTestId("session-plan").getByRole("link", { name: session.plan, exact: true }).count()).toBe(
      1,
    );
  });

  it("shows both directions' rates and counters as the API reads them, download being the API's tx", async () => {
    const session = await sessionWithPlan();
    await open(`/sessions/${session.id}`, `Session ${session.id} · ${session.username}`);
    const cell = (direction: string, field: string) =>
      page
        .locator(`[data-testid="session-traffic"] tr[data-direction="${direction}"] [data-field="${field}"]`)
        .textContent();
    // The page and the API are read within moments of each other; the rates renew every 30 s and the counters every 10
    // s, so compare with the reads on both sides.
    await expect
      .poll(
        async () => {
          const before = (await apiFromPage<SessionDetail>(page, "GET", `/sessions/${session.id}`)).body;
          await page.reload();
          await page.getByTestId("session-traffic").waitFor();
          const shown = {
            down: bitsPerSecond((await cell("Download", "rate"))!),
            up: bitsPerSecond((await cell("Upload", "rate"))!),
            downPps: Number((await cell("Download", "packetRate"))!.replace(/[, pps]/g, "")),
            upPps: Number((await cell("Upload", "packetRate"))!.replace(/[, pps]/g, "")),
            downBytes: byteCount((await cell("Download", "bytes"))!),
            upBytes: byteCount((await cell("Upload", "bytes"))!),
            downPackets: Number((await cell("Download", "packets"))!.replace(/,/g, "")),
            upPackets: Number((await cell("Upload", "packets"))!.replace(/,/g, "")),
          };
          const after = (await apiFromPage<SessionDetail>(page, "GET", `/sessions/${session.id}`)).body;
          const rates = (await apiFromPage<SessionRates>(page, "GET", `/sessions/${session.id}/rates`)).body;
          return [before, after].some((d) => {
            const r = d === after ? rates : d.rates;
            return (
              close(shown.down, r.txBps) &&
              close(shown.up, r.rxBps) &&
              // The API keeps 64ths of a packet a second; the page shows whole packets, as a router does.
              shown.downPps === Math.round(r.txPps) &&
              shown.upPps === Math.round(r.rxPps) &&
              close(shown.downBytes, d.counters.txBytes) &&
              close(shown.upBytes, d.counters.rxBytes) &&
              shown.downPackets === d.counters.txPackets &&
              shown.upPackets === d.counters.rxPackets
            );
          });
        },
        { timeout: 60_000, interval: 1000 },
      )
      .toBe(true);
  });

  it("fits a 1024 px window, its own and a peer's, each value inside its box", async () => {
    const session = await sessionWithPlan();
    await open(`/sessions/${session.id}`, `Session ${session.id} · ${session.username}`);
    expect(await overflow()).toEqual({ page: [1024, 1024], boxes: [] });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "session.png"), fullPage: true });
    // A peer's session, read through the fleet proxy: the same page, read-only.
    await expect
      .poll(
        async () => (await apiFromPage<SessionList>(page, "GET", "/fleet/edge-2/sessions?limit=1")).body.items.length,
        { timeout: 60_000 },
      )
      .toBe(1);
    const peer = (await apiFromPage<SessionList>(page, "GET", "/fleet/edge-2/sessions?limit=1")).body.items[0]!;
    await open(`/fleet/edge-2/sessions/${peer.id}`, `Session ${peer.id} · ${peer.username}`);
    await page.getByTestId("session-traffic").waitFor();
    expect(await overflow()).toEqual({ page: [1024, 1024], boxes: [] });
    expect(await page.locator("form.action").count()).toBe(0);
  });
});

describe("the sessions list", () => {
  it("shows at least 20 sessions on a 1024×768 screen, each port by its name", async () => {
    await page.setViewportSize({ width: 1024, height: 768 });
    try {
      await open("/sessions", "Sessions");
      const summary = (await apiFromPage<SessionSummaryCounts>(page, "GET", "/sessions/summary")).body;
      const rows = page.getByTestId("sessions-table").locator("tbody tr");
      const inView = await rows.evaluateAll(
        (trs) => trs.filter((tr) => tr.getBoundingClientRect().bottom <= 768).length,
      );
      expect(inView).toBeGreaterThanOrEqual(20);
      // The Port column names the port as every other page does, never its number.
      const names = new Set(summary.byPort.map((p) => p.label.split(" ")[0]));
      const ports = await page.getByTestId("sessions-table").locator("tbody tr td:nth-child(7)").allTextContents();
      expect(ports.length).toBeGreaterThan(0);
      expect(
        ports.every((p) => names.has(p) || p === "—"),
        ports.join(","),
      ).toBe(true);
      expect(await overflow()).toEqual({ page: [1024, 1024], boxes: [] });
      await page.screenshot({ path: path.join(SCREENSHOTS, "sessions-1024x768.png") });
    } finally {
      await page.setViewportSize({ width: 1024, height: 800 });
    }
  });

  it("filters by a port chosen by its name, as the API filters by its id", async () => {
    const summary = (await apiFromPage<SessionSummaryCounts>(page, "GET", "/sessions/summary")).body;
    const port = summary.byPort.find((p) => p.count > 0)!;
    await open("/sessions", "Sessions");
    await page.getByLabel("Port").selectOption({ label: port.label });
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(() => new URL(page.url()).search).toBe(`?port=${port.portId}`);
    await untilLoaded(page);
    const api = async () =>
      (await apiFromPage<SessionList>(page, "GET", `/sessions?port=${port.portId}&limit=1`)).body.total;
    const shown = async () =>
      Number(
        /of ([\d,]+)$/.exec((await page.getByTestId("sessions-range").textContent()) ?? "")?.[1]?.replace(/,/g, ""),
      );
    // Sessions come and go meanwhile: within a few of the API's count read just after.
    await expect
      .poll(async () => Math.abs((await shown()) - (await api())), { timeout: 30_000 })
      .toBeLessThanOrEqual(3);
    const ports = await page.getByTestId("sessions-table").locator("tbody tr td:nth-child(7)").allTextContents();
    expect(new Set(ports)).toEqual(new Set([port.label.split(" ")[0]]));
  });

  it("sorts by a column and exports what it shows as CSV", async () => {
    await open("/sessions", "Sessions");
    const table = page.getByTestId("sessions-table");
    await table.getByRole("button", { name: "Username" }).click();
    expect(await table.locator("th[aria-sort='ascending']").textContent()).toContain("Username");
    const usernames = await table
      .locator("tbody tr td:nth-child(2) span")
      .evaluateAll((spans) => spans.map((s) => s.getAttribute("title")!));
    expect(usernames).toEqual([...usernames].sort((a, b) => a.localeCompare(b, "en", { numeric: true })));
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    const csv = await readFile((await (await download).path())!, "utf8");
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe("ID,Username,Encap,IPv4,IPv6,VRF,Port,VLANs,Plan,Up for");
    // Row by row as shown: the same sessions in the same order.
    const ids = await table.locator("tbody tr td:first-child").allTextContents();
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(ids);
    expect(lines.slice(1).map((line) => line.split(",")[1])).toEqual(usernames);
  });

  it("shows a refused filter's problem beside that filter, without the previous rows under it", async () => {
    await open("/sessions", "Sessions");
    await page.getByTestId("sessions-range").waitFor();
    await page.getByRole("button", { name: "More filters" }).click();
    // A C-VLAN is 0 to 4094 (IEEE 802.1Q): 5000 is typed by mistake.
    await page.getByLabel("C-VLAN").pressSequentially("5000");
    await page.getByRole("button", { name: "Apply" }).click();
    const field = page.locator(".field", { has: page.getByLabel("C-VLAN") });
    await expect.poll(() => field.locator(".field-error").count()).toBe(1);
    const said = (await field.locator(".field-error").textContent())!;
    expect(said).toMatch(/4094/);
    expect(said).not.toMatch(/^\d{3}\b|#\//);
    expect(await page.getByRole("alert").first().textContent()).not.toMatch(/^\d{3}:/);
    expect(await page.getByTestId("sessions-range").count()).toBe(0);
    expect(await page.getByTestId("sessions-table").count()).toBe(0);
  });
});

describe("signing in", () => {
  it(
    "names the appliance, takes the code with the cursor already in it, and tells a " + "lock in one plain sentence",
    async () => {
      const username = "noc-lock-test";
      expect(
        (
          await apiFromPage(page, "POST", "/auth/users", {
            username,
            password: "a-good-long-password-1",
            role: "read-only",
          })
        ).status,
      ).toBeLessThan(300);
      // Another browser, not signed in: the sign-in page a colleague sees.
      const other = await page
        .context()
        .browser()!
        .newContext({ ignoreHTTPSErrors: true, bypassCSP: true, viewport: { width: 1024, height: 800 } });
      try {
        const signIn = await other.newPage();
        await signIn.goto(`${base}/`);
        await signIn.getByRole("heading", { level: 1, name: "Sign in to edge-1" }).waitFor();
        // The password accepted, the code step takes the cursor: the person types the code at once (not submitted
        // here).
        await signIn.getByLabel("Username").pressSequentially("admin");
        await signIn.getByLabel("Password").pressSequentially(ui.admin.password);
        await signIn.getByRole("button", { name: "Sign in", exact: true }).click();
        await signIn.getByLabel("Authenticator code").waitFor();
        await expect
          .poll(() => signIn.evaluate<string | null>("document.activeElement?.getAttribute('name')"))
          .toBe("totpCode");
        await signIn.reload();
        await signIn.getByLabel("Username").waitFor();
        // Five wrong passwords from one address lock the account there for 15 minutes (the appliance's rule).
        for (let attempt = 1; attempt <= 5; attempt++) {
          await signIn.getByLabel("Username").fill("");
          await signIn.getByLabel("Username").pressSequentially(username);
          await signIn.getByLabel("Password").fill("");
          await signIn.getByLabel("Password").pressSequentially(`wrong-password-${attempt}`);
          await signIn.getByRole("button", { name: "Sign in", exact: true }).click();
          await expect.poll(() => signIn.getByRole("alert").textContent()).toBe("Invalid username, password or code.");
        }
        await signIn.getByRole("button", { name: "Sign in", exact: true }).click();
        const locked = signIn.getByTestId("locked");
        await locked.waitFor();
        const text = (await locked.textContent())!;
        expect(text).toMatch(
          new RegExp(
            String.raw`^This account is locked after too many failed sign-ins\. ` +
              String.raw`Try again in (\d+ minutes|about a minute), at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.`,
          ),
        );
        expect(text).not.toMatch(/\d{3}:|T\d\d:\d\d:\d\d|too many failed logins/);
        // Whether an account has an authenticator is not told before sign-in: the offer says when it applies.
        expect(text).toContain("If you have set up an authenticator app for this account");
        expect(await axeViolations(signIn)).toEqual([]);
        await signIn.screenshot({ path: path.join(SCREENSHOTS, "sign-in-locked.png") });
      } finally {
        await other.close();
        await apiFromPage(page, "DELETE", `/auth/users/${username}`);
      }
    },
  );
});

type ConfigValues = {
  fields: Record<string, string | null>;
  lists: Record<string, { key: string; values: Record<string, string | null> }[]>;
};
type HistoryPage = { items: { version: number; comment: string | null; operation: string }[] };
const config = async () => (await apiFromPage<ConfigValues>(page, "GET", "/config")).body;
const history = async () => (await apiFromPage<HistoryPage>(page, "GET", "/config/history?limit=5")).body.items;
/** Whether an element is inside the window, where the person is looking. */
const inView = (selector: ReturnType<Page["locator"]>): Promise<boolean> =>
  selector.evaluate((e) => {
    // Runs in the page: the element is a DOM node there (the tests' types have no DOM).
    const r = (
      e as unknown as { getBoundingClientRect(): { top: number; bottom: number; height: number } }
    ).getBoundingClientRect();
    return r.top >= 0 && r.bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight && r.height > 0;
  });

describe("the configuration page", () => {
  it(
    "edits values with the control their type calls for, checked beside the field as " +
      "typed, and commits them with a comment typed at the review",
    async () => {
      const before = await config();
      await open("/config", "Configuration");
      expect(await page.locator("main textarea").count()).toBe(0);
      await page
        .getByRole("navigation", { name: "Configuration sections" })
        .getByRole("link", { name: "Certificate (ACME)" })
        .click();
      // A boolean is a switch, a number says its unit and range and takes a thousands separator.
      expect(await page.getByRole("switch", { name: "Use ACME" }).count()).toBe(1);
      const renew = page.getByLabel("Renew before");
      await renew.fill("");
      await renew.pressSequentially("3,500");
      const renewRow = page.locator("#cfg-acme\\.renewBeforeDays");
      await expect.poll(() => renewRow.locator(".field-error").textContent()).toBe("Type a number from 1 to 365.");
      expect(await renew.getAttribute("aria-invalid")).toBe("true");
      await renew.fill("");
      await renew.pressSequentially("45");
      await expect.poll(() => renewRow.locator(".field-error").count()).toBe(0);
      // Another section: the candidate keeps what was set in the first.
      await page
        .getByRole("navigation", { name: "Configuration sections" })
        .getByRole("link", { name: "Routing" })
        .click();
      const routerId = page.getByLabel("Router ID");
      await routerId.fill("");
      await routerId.pressSequentially("10.9.9.300");
      const routerRow = page.locator("#cfg-routing\\.routerId");
      await expect
        .poll(() => routerRow.locator(".field-error").textContent())
        .toBe("Type an IPv4 address, such as 192.0.2.1.");
      // The appliance's own check says so too, at the foot of the window where the person is looking.
      const check = page.getByTestId("pending-check");
      await expect
        .poll(() => check.textContent(), { timeout: 10_000 })
        .toBe("1 value is refused: see the field marked above.");
      expect(await inView(check)).toBe(true);
      await routerId.fill("");
      await routerId.pressSequentially("10.9.9.9");
      await expect.poll(() => check.textContent(), { timeout: 10_000 }).toBe("The appliance accepts them.");
      expect(await page.getByTestId("pending-changes").locator("strong").textContent()).toBe("2 pending changes");
      await page.getByRole("button", { name: "Review and commit" }).click();
      const review = page.getByTestId("commit-review");
      expect((await review.locator("tbody tr").allTextContents()).map((t) => t.trim())).toEqual([
        `Certificate (ACME) · Renew before${before.fields["acme.renewBeforeDays"]}45`,
        `Routing · Router ID${before.fields["routing.routerId"] ?? "unset"}10.9.9.9`,
      ]);
      // Nothing is committed before the commit; the comment is typed now, with the review open.
      expect((await config()).fields["routing.routerId"]).toBe(before.fields["routing.routerId"]);
      await review.getByLabel("Comment for the history").pressSequentially("NOC-4711 router id and renewal");
      await page.screenshot({ path: path.join(SCREENSHOTS, "configuration-review.png") });
      await review.getByRole("button", { name: "Commit 2 changes" }).click();
      const outcome = page.getByTestId("config-outcome");
      await expect
        .poll(() => outcome.textContent(), { timeout: 15_000 })
        .toMatch(/^Committed as version \d+ at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\.$/);
      expect(await inView(outcome)).toBe(true);
      const after = await config();
      expect([after.fields["routing.routerId"], after.fields["acme.renewBeforeDays"]]).toEqual(["10.9.9.9", "45"]);
      const [newest] = await history();
      expect(newest).toMatchObject({ comment: "NOC-4711 router id and renewal", operation: "config" });
      expect((await outcome.textContent())!).toContain(`version ${newest!.version} `);
    },
  );

  it("rolls back from the history, the change shown before and the outcome beside the button pressed", async () => {
    const [newest, previous] = await history();
    const before = await config();
    await open("/config/history", "Configuration");
    await page.getByRole("button", { name: `Roll back to version ${previous!.version}` }).click();
    const review = page.getByTestId("rollback-review");
    expect((await review.locator("tbody tr").allTextContents()).length).toBeGreaterThan(0);
    expect((await config()).fields).toEqual(before.fields);
    await review.getByRole("button", { name: "Roll back now" }).click();
    const outcome = page.getByTestId("rollback-outcome");
    await expect
      .poll(() => outcome.textContent(), { timeout: 15_000 })
      .toBe(`Rolled back: version ${newest!.version + 1} restores version ${previous!.version}.`);
    expect(await inView(outcome)).toBe(true);
    const [rolled] = await history();
    expect(rolled).toMatchObject({
      version: newest!.version + 1,
      operation: "rollback",
      comment: `roll back to version ${previous!.version}`,
    });
  });

  it("shows the appliance's own refusal beside the field it concerns", async () => {
    // A local AS is required while BGP neighbors are configured: a rule across values, which only the appliance knows.
    const neighbors = (await config()).lists["bgp.neighbors"] ?? [];
    expect(neighbors.length).toBeGreaterThan(0);
    await open("/config/routing", "Configuration");
    await page.getByLabel("Local AS").fill("");
    const row = page.locator("#cfg-bgp\\.localAs");
    await expect.poll(() => row.locator(".field-error").textContent(), { timeout: 10_000 }).toMatch(/\S/);
    const said = (await row.locator(".field-error").textContent())!;
    expect(said).not.toMatch(/#\/|^\d{3}\b/);
    expect(await page.getByRole("button", { name: "Review and commit" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Discard all" }).click();
    expect(await page.getByTestId("pending-changes").count()).toBe(0);
  });

  it("adds an item to a list as rows of controls, not JSON, and deletes it again", async () => {
    await open("/config/vrfs", "Configuration");
    await page.getByRole("button", { name: "Add to VRFs" }).click();
    await page.getByLabel("Name of the new item").pressSequentially("noc-test-vrf");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    const editor = page.getByRole("region", { name: "New VRF noc-test-vrf" });
    await editor.getByLabel("Table ID *").pressSequentially("4,242");
    await editor.getByLabel("RD").pressSequentially("64500:4242");
    await editor.getByRole("group", { name: "Import RT" }).getByRole("textbox").last().pressSequentially("64500:4242");
    await editor.getByRole("button", { name: "Done" }).click();
    await expect
      .poll(() => page.getByTestId("pending-check").textContent(), { timeout: 10_000 })
      .toBe("The appliance accepts it.");
    await page.getByRole("button", { name: "Review and commit" }).click();
    await page.getByRole("button", { name: "Commit 1 change" }).click();
    await expect
      .poll(() => page.getByTestId("config-outcome").textContent(), { timeout: 15_000 })
      .toMatch(/^Committed as version/);
    const vrf = (await config()).lists.vrfs!.find((v) => v.key === "noc-test-vrf");
    expect(vrf?.values).toMatchObject({ tableId: "4242", rd: "64500:4242", importRt: "64500:4242" });
    await page.getByRole("button", { name: "Delete VRFs noc-test-vrf" }).click();
    await page.getByRole("button", { name: "Review and commit" }).click();
    expect(await page.getByTestId("commit-review").locator("tbody tr").first().textContent()).toBe(
      "VRFs · noc-test-vrfpresentdeleted",
    );
    await page.getByRole("button", { name: "Commit 1 change" }).click();
    await expect
      .poll(async () => (await config()).lists.vrfs!.some((v) => v.key === "noc-test-vrf"), { timeout: 15_000 })
      .toBe(false);
  });

  it("finds a setting by a word of its description, and opens a value from its link", async () => {
    await open("/config", "Configuration");
    await page.getByLabel("Find a setting").pressSequentially("adjacency");
    const found = await page.locator(".config-panel h2").allTextContents();
    expect(found).toEqual(["Routing"]);
    expect(await page.locator("#cfg-routing\\.routerId").count()).toBe(1);
    expect(await page.locator("#cfg-acme\\.enabled").count()).toBe(0);
    // A link to one value opens its section with the cursor in it.
    await page.goto(`${base}/config#cgn.maxBindings`);
    await page.getByRole("heading", { level: 2, name: "CGN" }).waitFor();
    await expect
      .poll(() => page.evaluate<string | null>("document.activeElement?.id"))
      .toBe("cfg-input-cgn.maxBindings");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SCREENSHOTS, "configuration.png"), fullPage: true });
  });
});

/** A scenario action on edge-1, as the tasks test sends one (the twin's control surface, this session's CSRF token). */
async function scenario(body: Record<string, unknown>): Promise<number> {
  return page.evaluate(async (body) => {
    const who = (await (await fetch("/api/v1/auth/whoami")).json()) as { csrfToken: string };
    return (
      await fetch("/twin/v1/scenario", {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": who.csrfToken },
        body: JSON.stringify(body),
      })
    ).status;
  }, body);
}
type Alarms = {
  active: { id: string; instance: string | null; severity: string }[];
  countBySeverity: Record<string, number>;
};
type LogTail = {
  entries: { seq: number; timestamp: string; msgId: string; fields: Record<string, unknown> }[];
  lastSeq: number;
};
/** A computed style of an element, as the browser paints it. */
const styleOf = (element: ReturnType<Page["locator"]>, property: "color" | "backgroundColor"): Promise<string> =>
  // Runs in the page, where getComputedStyle is a global (the tests' types have no DOM).
  element.evaluate(
    (e, p) =>
      (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(e)[p]!,
    property,
  );
/** Raw ISO 8601 instants, which no page should print (every time reads `2026-12-01 21:41:00 UTC`). */
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d/;

describe("alarms, their history, and the fleet's state", () => {
  const pool = "wholesale-v4";
  const alarmId = "pool.utilisation.high";

  it(
    "shows an alarm a pool raises in its severity's colour, in the history as the " +
      "log has it, and in the fleet's state",
    async () => {
      expect(await scenario({ action: "fill-pool", pool, percent: 100 })).toBe(200);
      const active = async () =>
        (await apiFromPage<Alarms>(page, "GET", "/alarms")).body.active.find(
          (a) => a.id === alarmId && a.instance === pool,
        );
      await expect.poll(active, { timeout: 30_000 }).toBeDefined();
      const alarm = (await active())!;
      await open("/alarms", "Alarms");
      const row = page.getByTestId("alarm-table").locator("tbody tr", { hasText: pool });
      await row.waitFor();
      const badge = row.locator(".sev").first();
      expect(await badge.textContent()).toBe(alarm.severity);
      // The severity's colour, not the page's: a major alarm is orange.
      expect(await styleOf(badge, "backgroundColor")).toBe("rgb(194, 65, 12)");
      // The id stays on one line (it broke mid-word).
      const id = row.locator("code", { hasText: alarmId });
      expect((await id.boundingBox())!.height).toBeLessThan(20);
      expect(await row.getByRole("link", { name: pool }).getAttribute("href")).toBe(`/pools/${pool}`);
      // The history: the raise as the log ring holds it, at its own time.
      const raise = (await apiFromPage<LogTail>(page, "GET", "/logs/tail?count=1000")).body.entries
        .filter((e) => e.msgId === "alarm.raise" && e.fields.id === alarmId && e.fields.instance === pool)
        .pop()!;
      const history = page.getByTestId("alarm-history");
      const raised = history.locator("tbody tr", { hasText: String(raise.seq) });
      await raised.waitFor({ timeout: 15_000 });
      expect(await raised.textContent()).toContain(
        `${raise.timestamp.slice(0, 10)} ${raise.timestamp.slice(11, 19)} UTC`,
      );
      expect(await raised.textContent()).toContain("raised");
      expect(ISO.test((await page.locator("main").textContent())!)).toBe(false);
      // Filtered by severity and by object: only what matches.
      const filters = page.getByRole("form", { name: "Filter the history" });
      await filters.getByLabel("Severity").selectOption("critical");
      expect(await history.locator("tbody tr", { hasText: pool }).count()).toBe(0);
      await filters.getByLabel("Severity").selectOption(alarm.severity);
      await filters.getByLabel("Alarm or object contains").pressSequentially(pool.toUpperCase());
      const shown = await history.locator("tbody tr").allTextContents();
      expect(shown.length).toBeGreaterThan(0);
      expect(shown.every((t) => t.includes(pool) && t.includes(alarm.severity))).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(SCREENSHOTS, "alarms.png"), fullPage: true });
      // The fleet: this appliance runs, with a major alarm: not a green "running".
      await open("/fleet", "Fleet");
      const state = page
        .getByTestId("fleet-table")
        .locator("tbody tr", { has: page.locator('[data-appliance="edge-1"]') })
        .getByTestId("health");
      await expect.poll(() => state.textContent()).toMatch(/^running, \d+ (critical|major) alarms?$/);
      expect(await state.getAttribute("class")).toMatch(/tone-(bad|major)/);
      expect(await styleOf(state, "color")).not.toBe("rgb(21, 128, 61)");
    },
  );

  it("clears an alarm from its row and shows the clear, by an operator, in the history", async () => {
    await open("/alarms", "Alarms");
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: `Clear ${alarmId} on ${pool}` }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `${alarmId} on ${pool} cleared.` })
      .waitFor();
    const clear = async () =>
      (await apiFromPage<LogTail>(page, "GET", "/logs/tail?count=1000")).body.entries
        .filter((e) => e.msgId === "alarm.clear" && e.fields.id === alarmId && e.fields.manual === true)
        .pop();
    await expect.poll(clear).toBeDefined();
    const seq = (await clear())!.seq;
    const row = page.getByTestId("alarm-history").locator("tbody tr", { hasText: String(seq) });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain("cleared by an operator");
    expect(await scenario({ action: "drain-pool", pool })).toBe(200);
  });
});

describe("tables that read as a vendor's", () => {
  it("prints times one way, colours log severities, and links a log entry's session", async () => {
    await open("/logs", "Logs");
    const table = page.getByTestId("log-table");
    await table.locator("tbody tr").first().waitFor();
    expect(ISO.test((await table.textContent())!)).toBe(false);
    expect(await table.locator("tbody tr td:nth-child(2)").first().textContent()).toMatch(
      /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/,
    );
    expect(await table.locator("tbody .sev").count()).toBeGreaterThan(0);
    const link = table.locator("tbody a[href^='/sessions/']").first();
    await link.waitFor({ timeout: 30_000 });
    const id = (await link.textContent())!;
    await link.click();
    await page.getByRole("heading", { level: 1, name: new RegExp(`^Session ${id}`) }).waitFor();
  });

  it(
    "creates a token that expires in 30 days as typed, offers the three roles, and " + "revokes it from its row",
    async () => {
      await open("/tokens", "Tokens");
      const form = page.getByRole("form", { name: "Create a token" });
      expect(await form.getByLabel("Role *").locator("option").allTextContents()).toEqual([
        "read-only",
        "operator",
        "super-user",
      ]);
      await form.getByLabel("Name *").pressSequentially("noc grafana");
      await form.getByLabel("Expires", { exact: true }).fill("");
      await form.getByLabel("Expires", { exact: true }).pressSequentially("30d");
      const asked = Date.now();
      await form.getByRole("button", { name: "Create the token" }).click();
      await page.getByTestId("new-token").waitFor();
      type Tokens = { items: { id: string; name: string; expiresUtc: string | null; role: string }[] };
      const token = (await apiFromPage<Tokens>(page, "GET", "/auth/tokens?limit=500")).body.items.find(
        (t) => t.name === "noc grafana",
      )!;
      expect(token.role).toBe("read-only");
      // Thirty days of 86,400 s from the moment it was asked, within the seconds the request took.
      expect(Math.abs(Date.parse(token.expiresUtc!) - (asked + 30 * 86_400_000))).toBeLessThan(60_000);
      expect(ISO.test((await page.locator("main").textContent())!)).toBe(false);
      page.once("dialog", (dialog) => void dialog.accept());
      await page.getByRole("button", { name: "Revoke token noc grafana" }).click();
      await expect
        .poll(async () =>
          (await apiFromPage<Tokens>(page, "GET", "/auth/tokens?limit=500")).body.items.some(
            (t) => t.name === "noc grafana",
          ),
        )
        .toBe(false);
    },
  );

  it(
    "covers no cell with a row's actions at 1024 px, and keeps every table with row " + "actions inside its box",
    async () => {
      const pages = [
        ["/routing", "Routing"],
        ["/cgn", "CGN"],
        ["/gre", "GRE circuits"],
        ["/vrfs", "VRFs and source-VRF rules"],
        ["/local-subscribers", "Local subscribers"],
        ["/pools", "Address pools"],
        ["/tokens", "Tokens"],
        ["/users", "Users"],
        ["/alarms", "Alarms"],
      ] as const;
      for (const [href, heading] of pages) {
        await open(href, heading);
        // A table whose rows carry actions fits its box: the actions are never off to the side, behind a scroll.
        const wide = await page.evaluate<string[]>(
          `[...document.querySelectorAll("main .table-wrap")].filter((w) => ` +
            `w.querySelector(".row-actions") && w.scrollWidth > w.clientWidth + 1).map((w) ` +
            `=> w.querySelector("caption")?.textContent + " " + w.scrollWidth + " > " + ` +
            `w.clientWidth)`,
        );
        expect(wide, href).toEqual([]);
        // Every cell of every table's first row: the element drawn at its centre is the cell or inside it.
        const covered = await page.evaluate<
          string[]
        >(`[...document.querySelectorAll("main table.records tbody tr:first-child td")].filter((td) => {
        const r = td.getBoundingClientRect();
        if (r.width === 0 || r.right > window.innerWidth) return false;
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return at !== null && !td.contains(at);
      }).map((td) => td.textContent)`);
        expect(covered, href).toEqual([]);
      }
    },
  );
});

describe("forms that speak to a person", () => {
  /** API wording a form must not show a person: pointers, status codes, nulls, paths, the doubled "empty: empty". */
  const API_SPEAK = /#\/|\b[45]\d\d\b|\bnull\b|absent|GET \/|empty: empty|Lists ·|\(\d+, \d+\)/;

  it(
    "checks a GRE circuit's remote as typed before sending, and puts the appliance's " +
      "refusal beside the field it names",
    async () => {
      type Listener = { id: string; localAddress: string };
      const listener = (await apiFromPage<Listener[]>(page, "GET", "/gre-circuits/listeners")).body.find(
        (l) => !l.localAddress.includes(":"),
      )!;
      await open("/gre", "GRE circuits");
      await page.getByText("Add a circuit").click();
      const form = page.getByRole("form", { name: "Add a GRE circuit" });
      expect(API_SPEAK.exec((await form.textContent())!)).toBeNull();
      await form.getByLabel("ID *", { exact: true }).pressSequentially("noc-test");
      await form.getByLabel("Listener *").selectOption(listener.id);
      await form.getByLabel("VRF *").selectOption("default");
      await form.getByLabel("Remote *").pressSequentially("198.51.100.300");
      await form.getByLabel("Local tunnel address *").pressSequentially("10.255.9.1/30");
      await form.getByLabel("Remote tunnel address *").pressSequentially("10.255.9.2/30");
      const sent: string[] = [];
      const watch = (r: { method(): string; url(): string }) =>
        r.method() === "POST" && r.url().includes("/gre-circuits") && sent.push(r.url());
      page.on("request", watch);
      await form.getByRole("button", { name: "Add a GRE circuit" }).click();
      const remote = form.locator(".field", { has: page.getByLabel("Remote *") });
      await expect.poll(() => remote.locator(".field-error").textContent()).toBe("Type an IPv4 or IPv6 address.");
      expect(await form.getByLabel("Remote *").getAttribute("aria-invalid")).toBe("true");
      expect(sent).toEqual([]);
      // A remote of the other family than the listener's: a rule only the appliance knows, refused beside Remote, in
      // words.
      await form.getByLabel("Remote *").fill("");
      await form.getByLabel("Remote *").pressSequentially("2001:db8::5");
      await form.getByRole("button", { name: "Add a GRE circuit" }).click();
      await expect.poll(() => sent.length).toBe(1);
      await expect.poll(() => remote.locator(".field-error").count(), { timeout: 15_000 }).toBe(1);
      expect(API_SPEAK.exec((await form.textContent())!)).toBeNull();
      // Typed right, it is added and reads back as typed.
      await form.getByLabel("Remote *").fill("");
      await form.getByLabel("Remote *").pressSequentially("198.51.100.30");
      await form.getByRole("button", { name: "Add a GRE circuit" }).click();
      await expect
        .poll(
          async () =>
            (await apiFromPage<{ id: string; remote: string }[]>(page, "GET", "/gre-circuits")).body.find(
              (c) => c.id === "noc-test",
            )?.remote,
          { timeout: 15_000 },
        )
        .toBe("198.51.100.30");
      page.off("request", watch);
      expect((await apiFromPage(page, "DELETE", "/gre-circuits/noc-test")).status).toBeLessThan(300);
    },
  );

  it(
    "gives ping's timeout its unit, words every hint for a person, and takes a " +
      "result away once the question changes",
    async () => {
      await open("/troubleshooting", "Troubleshooting");
      const ping = page.getByRole("form", { name: "Ping" });
      expect(await ping.getByLabel("Timeout (ms)").count()).toBe(1);
      for (const name of ["Ping", "Trace a frame"])
        expect(API_SPEAK.exec((await page.getByRole("form", { name }).textContent())!), name).toBeNull();
      await ping.getByLabel("Destination *").pressSequentially("10.0.255.1");
      await ping.getByRole("button", { name: "Ping" }).click();
      await page.getByTestId("ping-result").waitFor();
      // A result describes what was asked: typing another destination takes it away.
      await ping.getByLabel("Destination *").pressSequentially("0");
      expect(await page.getByTestId("ping-result").count()).toBe(0);
      for (const [href, heading] of [
        ["/vrfs", "VRFs and source-VRF rules"],
        ["/local-subscribers", "Local subscribers"],
        ["/cgn", "CGN"],
        ["/oidc", "OIDC providers"],
      ] as const) {
        await open(href, heading);
        for (const fold of await page.locator("details.fold > summary").all()) await fold.click();
        const forms = await page.locator("main form.action").allTextContents();
        expect(
          forms.filter((t) => API_SPEAK.test(t)).map((t) => API_SPEAK.exec(t)![0]),
          href,
        ).toEqual([]);
      }
    },
  );

  it("offers an account's role as one of the three, not admin beside super-user", async () => {
    await open("/users", "Users");
    await page.locator("summary", { hasText: "Add an account" }).click();
    const form = page.getByRole("form", { name: "Add an account" });
    expect(
      (await form.getByLabel("Role *").locator("option").allTextContents()).filter((o) => o !== "choose…"),
    ).toEqual(["read-only", "operator", "super-user"]);
  });
});

describe("every page at the two widths a NOC uses", () => {
  // Some 28 pages each read, drawn, checked by axe and kept whole: minutes on a loaded 2-core machine.
  it.each([1024, 1440])(
    "draws every page at %i px inside the window, with no serious axe finding, and keeps a picture of each",
    { timeout: 600_000 },
    async (width) => {
      await open("/", "Dashboard");
      const hrefs = await page
        .locator("nav[aria-label='Sections'] a")
        .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
      const session = (await apiFromPage<SessionList>(page, "GET", "/sessions?limit=1")).body.items[0]!;
      const pages = [...hrefs, `/sessions/${session.id}`, "/config/routing", "/config/history", "/fleet/edge-2/"];
      const report: Record<string, string[]> = {};
      await page.setViewportSize({ width, height: width === 1024 ? 768 : 900 });
      for (const href of pages) {
        await page.goto(`${base}${href}`);
        await page.locator("h1").first().waitFor();
        await untilLoaded(page);
        const [scroll, client] = await page.evaluate<number[]>(
          "[document.documentElement.scrollWidth, document.documentElement.clientWidth]",
        );
        const problems = [
          ...(scroll! > client! ? [`${scroll} px wide in ${client}`] : []),
          ...(await axeViolations(page)),
        ];
        if (problems.length) report[href] = problems;
        const name = href.replace(/^\/|\/$/g, "").replace(/[^a-z0-9]+/gi, "-") || "dashboard";
        // Whole pages, but at most 2,400 px of one (the log's 500 rows would be megabytes of the same row).
        const height = Math.min(2400, await page.evaluate<number>("document.documentElement.scrollHeight"));
        await page.screenshot({
          path: path.join(SCREENSHOTS, `${width}`, `${name}.png`),
          fullPage: true,
          clip: { x: 0, y: 0, width, height },
        });
      }
      await page.setViewportSize({ width: 1024, height: 800 });
      expect(report).toEqual({});
    },
  );
});
