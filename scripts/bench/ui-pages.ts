/**
 * `npm run bench:ui`'s page bar: every page of the navigation, opened as a
 * person opens it (a click on its link, the app routing in the page), on
 * one `large` appliance. Each sample is the gap between the last API answer
 * the page waited for (Resource Timing `responseEnd`) and the first frame in
 * which the page shows no "Loading…": the UI's own share of opening a page
 * (parsing, rendering, layout), against the 200 ms bar. A super-user's view,
 * so every page is measured. Figures, not pass/fail.
 */
import type { Browser } from "playwright-core";
import { quantile } from "./load.ts";
import { signInAs } from "./ui-sign-in.ts";

const ROUNDS = 3;
const BAR_MS = 200;

/**
 * Runs in the page before its scripts: notes, at the next frame, each time main stops saying it is loading (or a new
 * page shows without saying it).
 */
const LOADED_PROBE = `
  window.__loaded = [];
  new MutationObserver(() => {
    const main = document.querySelector("main");
    const loading = !main || /Loading…|Searching…|Waiting…/.test(main.textContent || "");
    // Loaded: after "Loading…" went, or on a new path that never said it (a page drawn from what it has, the live log).
    if (!loading && (window.__wasLoading !== false || window.__lastPath !== location.pathname)) {
      const path = location.pathname;
      requestAnimationFrame(() => window.__loaded.push({ path, at: performance.now() }));
    }
    window.__wasLoading = loading;
    window.__lastPath = location.pathname;
  }).observe(document, { subtree: true, childList: true, characterData: true });
`;

export async function pagesBench(browser: Browser, base: string): Promise<void> {
  const context = await browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.addInitScript(LOADED_PROBE);
  await signInAs(page, base, "super-user");
  await page.goto(`${base}/`);
  await page.locator("nav[aria-label='Sections'] a").first().waitFor({ timeout: 30_000 });
  const hrefs = await page
    .locator("nav[aria-label='Sections'] a")
    .evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
  const gaps: Record<string, number[]> = {};
  // Each opening comes from another page: start on the last, so the first link is a change.
  await page.locator(`nav[aria-label='Sections'] a[href='${hrefs[hrefs.length - 1]}']`).click();
  await page.waitForTimeout(2000);
  for (let round = 0; round < ROUNDS; round++) {
    for (const href of hrefs) {
      // From another page, so each opening renders the page anew.
      const start = await page.evaluate(() => performance.now());
      await page.locator(`nav[aria-label='Sections'] a[href='${href}']`).click();
      const sample = await page.evaluate(
        async ([href, start]) => {
          const w = globalThis as unknown as { __loaded: { path: string; at: number }[] };
          for (let tries = 0; tries < 600; tries++) {
            const shown = w.__loaded.find((s) => s.path === href && s.at > start);
            if (shown) {
              const answers = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
                (e) => e.name.includes("/api/v1/") && e.startTime >= start && e.responseEnd <= shown.at,
              );
              const lastAnswer = Math.max(start, ...answers.map((e) => e.responseEnd));
              return { gap: shown.at - lastAnswer };
            }
            await new Promise((resolve) => setTimeout(resolve, 25));
          }
          return null;
        },
        [href, start] as const,
      );
      if (!sample) throw new Error(`${href} never finished loading`);
      (gaps[href] ??= []).push(sample.gap);
    }
  }
  console.log(
    `Web UI pages (Chromium, ${hrefs.length} pages of the navigation, ${ROUNDS} openings each, a super-user's view)`,
  );
  const all: number[] = [];
  for (const [href, samples] of Object.entries(gaps)) {
    samples.sort((a, b) => a - b);
    all.push(...samples);
    console.log(
      `  ${href.padEnd(20)} API answer → page shown   ` +
        `median ${quantile(samples, 0.5).toFixed(1)} ms, ` +
        `max ${samples[samples.length - 1]!.toFixed(1)} ms`,
    );
  }
  all.sort((a, b) => a - b);
  console.log(
    `  every page                p50 ${quantile(all, 0.5).toFixed(1)} ms, ` +
      `p95 ${quantile(all, 0.95).toFixed(1)} ms, ` +
      `max ${all[all.length - 1]!.toFixed(1)} ms (bar ${BAR_MS} ms)`,
  );
  await context.close();
}
