/**
 * Issue #47: a browser keeps a cookie per host, not per port (RFC 6265 §8.5), so appliances served at 127.0.0.1
 * on their ports all received each other's session cookie. Each is now served and linked at a `*.localhost` name
 * of its own (Chromium resolves those to loopback itself): a person who follows the banner's link to edge-1 and
 * edge-1's link to edge-2 takes no cookie of edge-1's there. Judged by Debian's Chromium, codes from oathtool.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../scripts/harness/chromium.ts";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const PASSWORD = "cookie-hosts-password-1";
let fleet: RunningFleet;
let browser: Browser;
let portBase = 0;

beforeAll(async () => {
  portBase = await freePortBase(2);
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-cookies-"));
  const appliance = (name: string, port: number, peer: string) => ({
    name,
    seed: port,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port }, hostname: `${name}.bng.localhost`, peers: [{ name: peer }] },
  });
  const file = path.join(dir, "fleet.json");
  await writeFile(
    file,
    JSON.stringify({
      portBase: 8443,
      appliances: [appliance("edge-1", 8443, "edge-2"), appliance("edge-2", 8444, "edge-1")],
    }),
  );
  fleet = await launchFleet(
    { BNG_PORT_BASE: String(portBase), BNG_FLEET: file, BNG_FRESH: "1", BNG_ADMIN_PASSWORD: PASSWORD },
    [portBase, portBase + 1],
    dir,
  );
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

describe("each appliance's session cookie", () => {
  it("is not sent to another appliance a person reaches by the fleet's own links", { timeout: 60_000 }, async () => {
    // The link a person follows: the banner's, for edge-1.
    const edge1 = new RegExp(`^\\s+edge-1\\s+(\\S+)`, "m").exec(fleet.output())![1]!;
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await page.goto(`${edge1}/`);
    // Signed in from the page (its fetch keeps the cookie as the UI's does): password, then TOTP enrolment.
    const challenge = await page.evaluate(async (password) => {
      const login = await fetch("/api/v1/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password }),
      });
      return (await login.json()) as { enrolmentToken: string; secret: string };
    }, PASSWORD);
    const code = execFileSync("oathtool", ["--totp", "-b", challenge.secret], { encoding: "utf8" }).trim();
    const enrolled = await page.evaluate(
      async ([enrolmentToken, totpCode]) => {
        const enrol = await fetch("/api/v1/auth/enrol", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ enrolmentToken, totpCode }),
        });
        return enrol.status;
      },
      [challenge.enrolmentToken, code] as const,
    );
    expect(enrolled).toBe(200);
    expect((await context.cookies()).map((c) => c.name)).toEqual(["bng_session"]);
    // The link edge-1's fleet page gives for edge-2 (GET /fleet/appliances, read by the signed-in page).
    const edge2 = await page.evaluate(async () => {
      const list = (await (await fetch("/api/v1/fleet/appliances")).json()) as { name: string; url: string | null }[];
      return list.find((a) => a.name === "edge-2")!.url!;
    });
    expect(new URL(edge2).port).toBe(String(portBase + 1));

    const answer = (await page.goto(`${edge2}/api/v1/auth/whoami`))!;
    expect(answer.status()).toBe(401);
    // What Chromium sent: no Cookie header at all.
    expect((await answer.request().allHeaders()).cookie).toBeUndefined();
    // Back on edge-1, the cookie is still its own.
    expect((await page.goto(`${edge1}/api/v1/auth/whoami`))!.status()).toBe(200);
    await context.close();
  });
});
