/**
 * OIDC sign-in as a person does it (issue #13): Debian's Chromium, the real
 * launcher, and `oidc-provider` (the OpenID-certified Node.js provider) on
 * loopback with its development login and consent pages. Code flow with PKCE
 * (required by the provider) and client_secret_basic (the only method the
 * client is registered for); groups from the ID token and from UserInfo; a
 * signing-key rotation; the provider down; a disabled provider; a role map
 * that matches nothing; the first page after sign-in signed in with the
 * cookie still SameSite=Strict; and a provider edited by read-modify-write.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider, { type Configuration } from "oidc-provider";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../scripts/harness/chromium.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePortBase, fetchJson, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { newToken } from "../../src/trust/tokens.ts";

const PORT_BASE = await freePortBase(3);
const BOOTSTRAP = newToken();
const CLIENT = { id: "bng-edge", secret: "certified-client-secret" };
const HOST = `https://edge-1.bng.localhost:${PORT_BASE}`;
/** Who belongs to which group at the provider. */
const GROUPS: Record<string, string[]> = { alice: ["noc-ops"], mallory: ["guests"] };

let fleet: RunningFleet;
let browser: Browser;

/**
 * One provider on loopback: `groupsInIdToken` false keeps every scope claim in UserInfo only (OIDC Core §5.4, the
 * provider's default).
 */
class LabProvider {
  server: Server | undefined;
  port = 0;
  kid = "";
  readonly groupsInIdToken: boolean;
  constructor(groupsInIdToken: boolean) {
    this.groupsInIdToken = groupsInIdToken;
  }

  get issuer(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Starts (or restarts, on the same port) with a fresh signing key. */
  async start(): Promise<void> {
    const { privateKey } = await generateKeyPair("RS256", { extractable: true });
    this.kid = `key-${crypto.randomUUID().slice(0, 8)}`;
    const jwk: JWK = { ...(await exportJWK(privateKey)), kid: this.kid, alg: "RS256", use: "sig" };
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(this.port, "127.0.0.1", resolve));
    this.port = (server.address() as AddressInfo).port;
    const callbacks = ["corp", "corpui", "corpid"].map((name) => `${HOST}/api/v1/auth/oidc/${name}/callback`);
    const configuration: Configuration = {
      clients: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          redirect_uris: callbacks,
          token_endpoint_auth_method: "client_secret_basic",
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      jwks: { keys: [jwk] },
      pkce: { required: () => true },
      conformIdTokenClaims: !this.groupsInIdToken,
      scopes: ["openid", "profile", "groups"],
      claims: { openid: ["sub"], profile: ["preferred_username"], groups: ["groups"] },
      findAccount: (_ctx, sub) => ({
        accountId: sub,
        claims: () => ({ sub, preferred_username: sub, groups: GROUPS[sub] ?? [] }),
      }),
      cookies: { keys: ["e2e-only-cookie-key"] },
      features: { devInteractions: { enabled: true } },
    };
    const provider = new Provider(this.issuer, configuration);
    server.on("request", provider.callback());
    this.server = server;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

const idTokenIdp = new LabProvider(true);
const userInfoIdp = new LabProvider(false);

beforeAll(async () => {
  await Promise.all([idTokenIdp.start(), userInfoIdp.start()]);
  fleet = await launchFleet({ BNG_PORT_BASE: String(PORT_BASE), BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" }, [
    PORT_BASE,
  ]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([idTokenIdp.stop(), userInfoIdp.stop()]);
  if (fleet) expect(await fleet.stop()).toBe(0);
});

const api = (path: string, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${path}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });

async function putProvider(name: string, idp: LabProvider, extra: Record<string, unknown> = {}): Promise<void> {
  const body = {
    enabled: true,
    displayName: `Lab ${name}`,
    issuer: idp.issuer,
    clientId: CLIENT.id,
    clientSecret: CLIENT.secret,
    scopes: ["profile", "groups"],
    roleMap: { "noc-ops": "operator" },
    ...extra,
  };
  const put = await api(`/api/v1/auth/providers/oidc/${name}`, body, "PUT");
  expect(put.status, put.text).toBe(200);
}

/**
 * A person signing in, in a fresh browser: start at the appliance, log in and
 * consent at the provider, and come back. Answers the page where it ended,
 * the callback's status and the session cookie as the browser holds it.
 */
async function signIn(provider: string, user: string, returnTo = "/api/v1/auth/whoami") {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  const callback = page.waitForResponse((r) => r.url().includes(`/api/v1/auth/oidc/${provider}/callback`), {
    timeout: 20_000,
  });
  await page.goto(`${HOST}/api/v1/auth/oidc/${provider}/login?returnTo=${encodeURIComponent(returnTo)}`);
  await page.fill('input[name="login"]', user);
  await page.fill('input[name="password"]', "any password will do");
  await page.click('button[type="submit"]');
  await page.click('button:has-text("Continue")');
  const callbackStatus = (await callback).status();
  await page.waitForLoadState("load");
  const session = (await context.cookies(HOST)).find((c) => c.name === "bng_session");
  return { page, callbackStatus, session, close: () => context.close() };
}

const bodyJson = async (page: Page) =>
  JSON.parse((await page.textContent("body")) ?? "null") as Record<string, unknown>;

describe("OIDC sign-in against oidc-provider, in Chromium", () => {
  it(
    "lands signed in on the first page after sign-in, with the cookie still " +
      "SameSite=Strict (groups from the ID token)",
    async () => {
      await putProvider("corp", idTokenIdp);
      const { page, callbackStatus, session, close } = await signIn("corp", "alice");
      await page.waitForURL(`${HOST}/api/v1/auth/whoami`);
      // A redirect at the end of the provider's chain would get a 401 here: the browser withholds the Strict cookie.
      expect(await bodyJson(page)).toMatchObject({ via: "session", username: "alice@corp", role: "operator" });
      expect(session).toMatchObject({ sameSite: "Strict", httpOnly: true, secure: true });
      expect(callbackStatus).toBe(200);
      await close();
    },
  );

  it(
    "offers one button per enabled provider on the web UI's sign-in page, which " +
      "signs in and returns to the page the person opened",
    async () => {
      await putProvider("corp", idTokenIdp);
      await putProvider("dormant", userInfoIdp, { enabled: false });
      const context = await browser.newContext({ ignoreHTTPSErrors: true });
      const page = await context.newPage();
      await page.goto(`${HOST}/alarms`);
      const buttons = page.getByRole("link", { name: /^Sign in with / });
      await buttons.first().waitFor({ timeout: 15_000 });
      // The disabled provider is not offered; the enabled one by its display name.
      expect(await buttons.allTextContents()).toEqual(["Sign in with Lab corp"]);
      await buttons.first().click();
      await page.fill('input[name="login"]', "alice");
      await page.fill('input[name="password"]', "any password will do");
      await page.click('button[type="submit"]');
      await page.click('button:has-text("Continue")');
      await page.waitForURL(`${HOST}/alarms`, { timeout: 20_000 });
      await page.getByRole("button", { name: "Sign out" }).waitFor({ timeout: 15_000 });
      expect(await page.locator("header").textContent()).toContain("alice@corp");
      await context.close();
    },
  );

  it("takes the groups from UserInfo when the provider keeps them out of the ID token", async () => {
    await putProvider("corpui", userInfoIdp, { fetchUserInfo: true });
    const { page, close } = await signIn("corpui", "alice");
    await page.waitForURL(`${HOST}/api/v1/auth/whoami`);
    expect(await bodyJson(page)).toMatchObject({ username: "alice@corpui", role: "operator" });
    await close();
    // The same provider without the UserInfo call sees no groups: the role above came from UserInfo.
    await putProvider("corpid", userInfoIdp, { fetchUserInfo: false, usernameClaim: "sub" });
    const without = await signIn("corpid", "alice");
    expect(without.callbackStatus).toBe(403);
    await without.close();
  });

  it("fails closed with a page the person can read when no role mapping matches", async () => {
    await putProvider("corp", idTokenIdp);
    const { page, callbackStatus, session, close } = await signIn("corp", "mallory");
    expect(callbackStatus).toBe(403);
    expect(await page.textContent("h1")).toBe("403 Forbidden");
    expect(await page.textContent("body")).toContain("no role mapping");
    expect(await page.getAttribute("a", "href")).toBe("/");
    expect(session).toBeUndefined();
    await close();
  });

  it("follows a signing-key rotation at the provider (its keys are fetched afresh)", async () => {
    await putProvider("corp", idTokenIdp);
    const before = idTokenIdp.kid;
    await idTokenIdp.stop();
    await idTokenIdp.start();
    expect(idTokenIdp.kid).not.toBe(before);
    const jwks = (await (await fetch(`${idTokenIdp.issuer}/jwks`)).json()) as { keys: { kid: string }[] };
    expect(jwks.keys.map((k) => k.kid)).toEqual([idTokenIdp.kid]);
    const { page, close } = await signIn("corp", "alice");
    await page.waitForURL(`${HOST}/api/v1/auth/whoami`);
    expect(await bodyJson(page)).toMatchObject({ username: "alice@corp" });
    await close();
  });

  it("keeps working after the provider is edited by read-modify-write (the secret placeholder sent back)", async () => {
    await putProvider("corp", idTokenIdp);
    const read = await api("/api/v1/auth/providers/oidc/corp");
    const { clientSecretSet: _set, callbackPath: _path, ...record } = read.json<Record<string, unknown>>();
    const written = await api(
      "/api/v1/auth/providers/oidc/corp",
      { ...record, displayName: "Renamed SSO", clientSecret: "********" },
      "PUT",
    );
    expect(written.status, written.text).toBe(200);
    const { page, callbackStatus, close } = await signIn("corp", "alice");
    expect(callbackStatus).toBe(200);
    await page.waitForURL(`${HOST}/api/v1/auth/whoami`);
    expect(await bodyJson(page)).toMatchObject({ username: "alice@corp", role: "operator" });
    await close();
  });

  it("shows a page to act on, not raw JSON, for a disabled provider and for a provider that is down", async () => {
    const context = await browser.newContext({ ignoreHTTPSErrors: true });
    const page = await context.newPage();
    await putProvider("corp", idTokenIdp, { enabled: false });
    const disabled = await page.goto(`${HOST}/api/v1/auth/oidc/corp/login`);
    expect(disabled?.status()).toBe(404);
    expect(await page.textContent("h1")).toBe("404 Not Found");

    await putProvider("corp", idTokenIdp);
    await idTokenIdp.stop();
    const down = await page.goto(`${HOST}/api/v1/auth/oidc/corp/login`);
    expect(down?.status()).toBe(502);
    expect(down?.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(await page.textContent("h1")).toBe("502 Bad Gateway");
    expect(await page.textContent("body")).toContain("the identity provider did not answer");
    await page.click("a");
    expect(new URL(page.url()).pathname).toBe("/");
    await context.close();
    await idTokenIdp.start();
  });
});
