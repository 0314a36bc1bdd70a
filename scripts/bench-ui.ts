/**
 * `npm run bench:ui`: the web UI's bars of issues #24 and #51, in Debian's
 * Chromium (playwright-core), an account signed in through the API as a
 * browser would. `-- --only sessions`, `-- --only pages` (the sessions page
 * too: they share the appliance) or `-- --only search` runs part.
 *
 * The sessions page: how long it takes to show a page of 128,000 sessions
 * after the API has answered (bar: 200 ms). One `large` appliance. Each
 * sample pages the table ("Older"), then reads, in the page, the Resource
 * Timing `responseEnd` of that page's `GET /api/v1/sessions` and the first
 * animation frame after the range line showed the new page: the gap is
 * parsing, rendering and layout, the UI's own share.
 *
 * Every page of the navigation on that appliance, opened from its link:
 * the same gap, per page (scripts/bench/ui-pages.ts).
 *
 * The fleet search over 100 appliances (scripts/bench/ui-search.ts).
 * Figures, not pass/fail.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Browser } from "playwright-core";
import { launchChromium } from "./harness/chromium.ts";
import { freePortBase, launchFleet } from "./harness/fleet-process.ts";
import { TOKEN } from "./bench/fleet.ts";
import { quantile } from "./bench/load.ts";
import { signInReadOnly } from "./bench/ui-sign-in.ts";
import { fleetSearchBench } from "./bench/ui-search.ts";
import { pagesBench } from "./bench/ui-pages.ts";

const SAMPLES = 30;
/** The sessions page's page size (ui/pages/sessions.tsx). */
const PAGE_SIZE = 100;
const BAR_MS = 200;

/**
 * Runs in the page before its scripts: notes when the range line changes, at the next frame (when it can be painted).
 */
const RENDER_PROBE = `
  window.__shown = [];
  new MutationObserver(() => {
    const range = document.querySelector('[data-testid="sessions-range"]');
    const text = range ? range.textContent : null;
    if (text && text !== window.__lastRange) {
      window.__lastRange = text;
      requestAnimationFrame(() => window.__shown.push({ text, at: performance.now() }));
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

async function sessionsPageBench(browser: Browser, pages: boolean) {
  const port = await freePortBase(1);
  const base = `http://127.0.0.1:${port}`;
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-bench-ui-"));
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(
    fleetFile,
    JSON.stringify({
      portBase: port,
      appliances: [{ name: "bench-1", seed: 7, profile: "large", webUi: { listener: { address: "127.0.0.1", port } } }],
    }),
  );
  const fleet = await launchFleet(
    { BNG_FLEET: fleetFile, BNG_HTTP: "1", BNG_BOOTSTRAP_TOKEN: TOKEN, BNG_FRESH: "1" },
    [port],
    path.join(dir, "data"),
  );
  try {
    const api = (method: string, apiPath: string, body?: unknown) =>
      fetch(`${base}${apiPath}`, {
        method,
        headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => {
        if (!r.ok) throw new Error(`${method} ${apiPath}: ${r.status} ${await r.text()}`);
        return r.json() as Promise<Record<string, unknown>>;
      });
    let sessions = 0;
    for (let simulated = 0; sessions < 128_000 && simulated < 900; simulated += 60) {
      sessions = (
        (await api("POST", "/twin/v1/scenario", { action: "advance-clock", seconds: 60 })) as {
          state: { sessions: number };
        }
      ).state.sessions;
    }

    // bypassCSP only for the probe script; the measured UI is the shipped one.
    const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.addInitScript(RENDER_PROBE);
    await signInReadOnly(page, base);

    await page.goto(`${base}/sessions`);
    await page.getByTestId("sessions-table").locator("tbody tr").first().waitFor({ timeout: 30_000 });
    const gaps: number[] = [];
    for (let i = 1; i <= SAMPLES; i++) {
      const offset = i * PAGE_SIZE;
      await page.getByRole("button", { name: "Older" }).click();
      const sample = await page.evaluate(async (offset) => {
        const w = globalThis as unknown as { __shown: { text: string; at: number }[] };
        const wanted = `${(offset + 1).toLocaleString("en")}–`;
        for (let tries = 0; tries < 600; tries++) {
          const shown = w.__shown.find((s) => s.text.startsWith(wanted));
          const list = new RegExp(`/api/v1/sessions\\?(.*&)?offset=${offset}(&|$)`);
          const fetched = performance
            .getEntriesByType("resource")
            .filter((e) => list.test(e.name)) as PerformanceResourceTiming[];
          if (shown && fetched.length > 0)
            return { shownAt: shown.at, answeredAt: fetched[fetched.length - 1]!.responseEnd };
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return null;
      }, offset);
      if (!sample) throw new Error(`page at offset ${offset} never showed`);
      gaps.push(sample.shownAt - sample.answeredAt);
    }
    gaps.sort((a, b) => a - b);
    const total = ((await api("GET", "/api/v1/sessions/summary")) as { total: number }).total;
    console.log(
      `Web UI sessions page at ${total.toLocaleString("en-GB")} sessions ` +
        `(Chromium, ${SAMPLES} pages of ${PAGE_SIZE} via "Older")`,
    );
    console.log(
      `  API answer → page shown   p50 ${quantile(gaps, 0.5).toFixed(1)} ms, ` +
        `p95 ${quantile(gaps, 0.95).toFixed(1)} ms, ` +
        `max ${gaps[gaps.length - 1]!.toFixed(1)} ms (bar ${BAR_MS} ms)`,
    );
    await context.close();
    // Every page of the navigation on the same appliance (scripts/bench/ui-pages.ts).
    if (pages) await pagesBench(browser, base);
  } finally {
    await fleet.stop();
    // A fleet's state is gigabytes at a thousand appliances: none is kept once its figures are printed.
    await rm(dir, { recursive: true, force: true });
  }
}

const { values } = parseArgs({ options: { only: { type: "string" } } });
if (values.only !== undefined && !["sessions", "pages", "search"].includes(values.only))
  throw new Error(`--only takes sessions, pages or search, not '${values.only}'`);
const browser = await launchChromium();
try {
  if (values.only !== "search") await sessionsPageBench(browser, values.only !== "sessions");
  if (values.only === undefined || values.only === "search") await fleetSearchBench(browser);
} finally {
  await browser.close();
}
