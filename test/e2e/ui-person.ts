/**
 * A person at the web UI, for the browser tests: signs in the way the first
 * administrator does on a fresh appliance (the development password, TOTP
 * enrolment with codes from oathtool, choosing a password of their own),
 * reads the API from inside the signed-in page, and runs axe-core.
 */
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";

const totp = (secret: string) => execFileSync("oathtool", ["--totp", "-b", secret], { encoding: "utf8" }).trim();

/** The admin's credentials once signed in: each TOTP code is accepted once, so the last one used is kept. */
export interface Admin {
  password: string;
  secret: string;
  lastCode: string;
}

/** First sign-in of `admin` on a fresh appliance: enrol TOTP, replace the published password, sign in again. */
export async function firstSignIn(page: Page, base: string, password = "noc-chosen-password-1"): Promise<Admin> {
  await page.goto(`${base}/`);
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill("bngfleet-admin");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  const secret = (await page.getByTestId("totp-secret").textContent({ timeout: 15_000 }))!.trim();
  const admin: Admin = { password, secret, lastCode: totp(secret) };
  await page.getByLabel("Authenticator code").fill(admin.lastCode);
  await page.getByRole("button", { name: "Confirm and sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Choose your own password" }).waitFor();
  await page.getByLabel("Current password").fill("bngfleet-admin");
  await page.getByLabel("New password", { exact: true }).fill(password);
  await page.getByLabel("Repeat the new password").fill(password);
  await page.getByRole("button", { name: "Change password and sign in again" }).click();
  await page.getByLabel("Username").waitFor();
  await signInAgain(page, admin);
  return admin;
}

/** Signs admin in with its own password and a code not used yet (this may wait for the next 30 s step). */
export async function signInAgain(page: Page, admin: Admin): Promise<void> {
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(admin.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByLabel("Authenticator code").waitFor();
  while (totp(admin.secret) === admin.lastCode) await new Promise((resolve) => setTimeout(resolve, 1000));
  admin.lastCode = totp(admin.secret);
  await page.getByLabel("Authenticator code").fill(admin.lastCode);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 15_000 });
}

/** A call to the API from inside the signed-in page (same cookie, its CSRF token). */
export function apiFromPage<T>(
  page: Page,
  method: string,
  apiPath: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ([method, apiPath, body]) => {
      const who = (await (await fetch("/api/v1/auth/whoami")).json()) as { csrfToken: string };
      const headers: Record<string, string> = body === undefined ? {} : { "content-type": "application/json" };
      if (method !== "GET") headers["x-csrf-token"] = who.csrfToken;
      const response = await fetch(`/api/v1${apiPath}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: await response.json().catch(() => null) };
    },
    [method, apiPath, body] as const,
  ) as Promise<{ status: number; body: T }>;
}

let axeSource: string | undefined;

/** axe-core's serious and critical violations on the current page. */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= await readFile(
    path.join(import.meta.dirname, "..", "..", "node_modules", "axe-core", "axe.min.js"),
    "utf8",
  );
  await page.addScriptTag({ content: axeSource });
  // A string: this runs in the page, where axe is a global.
  return page.evaluate<string[]>(
    `axe.run(document).then((r) => r.violations.filter((v) => v.impact === "serious" ` +
      `|| v.impact === "critical").map((v) => v.id + " at " + v.nodes.map((n) => ` +
      `n.target.join(" ")).join(", ")))`,
  );
}

/**
 * Waits until nothing on the page says it is still loading (polled from outside: the page's CSP refuses compiled
 * predicates).
 */
export async function untilLoaded(page: Page, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    (
      await page
        .locator("main")
        .textContent()
        .catch(() => "Loading…")
    )?.match(/Loading…|Searching…|Waiting…/)
  ) {
    if (Date.now() > deadline) throw new Error(`still loading after ${timeoutMs} ms: ${page.url()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
