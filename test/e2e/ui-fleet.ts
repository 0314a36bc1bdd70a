/**
 * A two-appliance fleet (edge-1 peering with edge-2) under the real launcher,
 * and Chromium signed in to edge-1's web UI at 1024 px, for the browser tests
 * that share one each per file (web-ui-tasks, web-ui-pages): a file of its own
 * runs beside the others instead of after them.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { launchChromium } from "../../scripts/harness/chromium.ts";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { firstSignIn, untilLoaded, type Admin } from "./ui-person.ts";

/** `npm run screenshots` points this at docs/screenshots/; a test run writes to a scratch folder. */
export const SCREENSHOTS = process.env.BNG_SCREENSHOTS_DIR
  ? path.resolve(process.env.BNG_SCREENSHOTS_DIR)
  : await mkdtemp(path.join(tmpdir(), "bngfleet-screenshots-"));

export interface UiFleet {
  /** edge-1's origin. */
  base: string;
  page: Page;
  admin: Admin;
  /** Opens a page of the UI and waits until it has loaded. */
  open(href: string, heading: string): Promise<void>;
  /** Closes the browser and stops the fleet, asserting a clean stop and no script error on the page. */
  close(): Promise<void>;
}

/** Launches the fleet and the browser, and signs in for the first time (the enrolment a person goes through). */
export async function launchUiFleet(): Promise<UiFleet> {
  const portBase = await freePortBase(2);
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-ui-"));
  const appliance = (name: string, port: number, peers: unknown[]) => ({
    name,
    seed: port,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port }, hostname: `${name}.bng.localhost`, peers },
  });
  const file = path.join(dir, "fleet.json");
  await writeFile(
    file,
    JSON.stringify({
      portBase: 8443,
      appliances: [appliance("edge-1", 8443, [{ name: "edge-2" }]), appliance("edge-2", 8444, [{ name: "edge-1" }])],
    }),
  );
  const fleet: RunningFleet = await launchFleet({ BNG_PORT_BASE: String(portBase), BNG_FLEET: file, BNG_FRESH: "1" }, [
    portBase,
    portBase + 1,
  ]);
  const browser: Browser = await launchChromium();
  // bypassCSP only so the test can inject axe-core; the UI's own scripts are same-origin files.
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    bypassCSP: true,
    viewport: { width: 1024, height: 800 },
  });
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(String(error)));
  const base = `https://127.0.0.1:${portBase}`;
  const admin = await firstSignIn(page, base);
  return {
    base,
    page,
    admin,
    async open(href, heading) {
      await page.goto(`${base}${href}`);
      await page.getByRole("heading", { level: 1, name: heading }).waitFor();
      await untilLoaded(page);
    },
    async close() {
      await browser.close();
      expect(await fleet.stop()).toBe(0);
      expect(pageErrors).toEqual([]);
    },
  };
}
