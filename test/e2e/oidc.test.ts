/**
 * OIDC sign-in through the real launcher against a lab identity provider (a
 * small Node server here, on loopback): the browser's round trip, PKCE and
 * client authentication checked by the provider, the ID token verified by
 * the appliance, the role mapped from the groups claim, and fail-closed
 * refusals.
 */
import { createHash, randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SignJWT, exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fetchJson,
  freePortBase,
  launchFleet,
  type HttpResult,
  type RunningFleet,
} from "../../scripts/harness/fleet-process.ts";

const PORT_BASE = await freePortBase(3);
const BOOTSTRAP = "bngtok_" + "Oid".repeat(10) + "0r0ici"; // well-formed: the checksum is CRC-32 in base62
const CLIENT = { id: "bng-edge", secret: "lab-client-secret" };

let fleet: RunningFleet;
let idp: Server;
let issuer: string;
/** A person at the lab provider: the claims its ID token carries. */
type LabUser = { preferred_username: string; groups: string[] };
const ALICE: LabUser = { preferred_username: "alice", groups: ["noc-ops"] };
/** The codes the lab provider has issued, each with the person it signed in. */
const codes = new Map<string, { nonce: string; challenge: string; redirectUri: string; user: LabUser }>();

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "lab-1", alg: "RS256", use: "sig" };
  idp = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res
        .writeHead(status, { "content-type": "application/json", ...headers })
        .end(body === null ? undefined : JSON.stringify(body));
    if (url.pathname === "/.well-known/openid-configuration") {
      return send(200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
      });
    }
    if (url.pathname === "/jwks") return send(200, { keys: [jwk] });
    if (url.pathname === "/authorize") {
      // Consent is automatic: straight back to the client with a code.
      const code = randomUUID();
      const q = url.searchParams;
      if (q.get("client_id") !== CLIENT.id || q.get("code_challenge_method") !== "S256")
        return send(400, { error: "invalid_request" });
      // Who signs in travels with the request (as a person typing their name at the provider), not in shared state.
      const user = JSON.parse(q.get("lab_user") ?? JSON.stringify(ALICE)) as LabUser;
      codes.set(code, {
        nonce: q.get("nonce")!,
        challenge: q.get("code_challenge")!,
        redirectUri: q.get("redirect_uri")!,
        user,
      });
      return send(302, null, {
        location: `${q.get("redirect_uri")}?code=${code}&state=${encodeURIComponent(q.get("state")!)}`,
      });
    }
    if (url.pathname === "/token" && req.method === "POST") {
      let raw = "";
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const basic = Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString("base64");
      const issued = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const pkceOk = issued && createHash("sha256").update(verifier).digest("base64url") === issued.challenge;
      if (
        req.headers.authorization !== `Basic ${basic}` ||
        !issued ||
        !pkceOk ||
        form.get("redirect_uri") !== issued.redirectUri
      )
        return send(400, { error: "invalid_grant" });
      const idToken = await new SignJWT({ nonce: issued.nonce, ...issued.user })
        .setProtectedHeader({ alg: "RS256", kid: "lab-1" })
        .setIssuer(issuer)
        .setAudience(CLIENT.id)
        .setSubject(`sub-${issued.user.preferred_username}`)
        .setIssuedAt()
        .setExpirationTime("5m")
        .sign(privateKey);
      return send(200, { access_token: randomUUID(), token_type: "Bearer", id_token: idToken });
    }
    send(404, { error: "not_found" });
  });
  await new Promise<void>((resolve) => idp.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
  fleet = await launchFleet({ BNG_PORT_BASE: String(PORT_BASE), BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" }, [
    PORT_BASE,
  ]);
}, 120_000);

afterAll(async () => {
  idp?.close();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

const appliance = (path: string, headers: Record<string, string> = {}, body?: unknown, method?: string) =>
  fetchJson(`https://127.0.0.1:${PORT_BASE}${path}`, {
    insecure: true,
    headers,
    ...(body === undefined ? {} : { body }),
    ...(method ? { method } : {}),
  });
const cookies = (result: HttpResult) =>
  ([] as string[]).concat(result.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]!);
const pathOf = (location: string) => {
  const url = new URL(location);
  return `${url.pathname}${url.search}`;
};

/**
 * Configures the lab provider as `corp` (a PUT creates or replaces it): each test calls it, so none relies on another
 * having run.
 */
async function configureCorp(): Promise<void> {
  const put = await appliance(
    "/api/v1/auth/providers/oidc/corp",
    { authorization: `Bearer ${BOOTSTRAP}` },
    {
      enabled: true,
      displayName: "Lab SSO",
      issuer,
      clientId: CLIENT.id,
      clientSecret: CLIENT.secret,
      roleMap: { "noc-ops": "operator" },
    },
    "PUT",
  );
  expect(put.status, put.text).toBe(200);
}

/**
 * A browser's sign-in as `user`: the appliance, the provider, and back; answers the callback's result and the session
 * cookie it set.
 */
async function signIn(
  user: LabUser = ALICE,
): Promise<{ callback: HttpResult; session: string | undefined; callbackPath: string; binding: string }> {
  const start = await appliance("/api/v1/auth/oidc/corp/login?returnTo=/api/v1/auth/whoami");
  expect(start.status, start.text).toBe(302);
  const binding = cookies(start).find((c) => c.startsWith("bng_oidc="))!;
  const authorize = new URL(String(start.headers.location));
  expect(authorize.origin).toBe(issuer);
  expect(authorize.searchParams.get("redirect_uri")).toBe(
    `https://edge-1.bng.localhost:${PORT_BASE}/api/v1/auth/oidc/corp/callback`,
  );
  authorize.searchParams.set("lab_user", JSON.stringify(user));
  const atProvider = await fetch(authorize, { redirect: "manual" });
  expect(atProvider.status).toBe(302);
  const callbackPath = pathOf(atProvider.headers.get("location")!);
  const callback = await appliance(callbackPath, { cookie: binding });
  return {
    callback,
    session: cookies(callback).find((c) => c.startsWith("bng_session=") && c !== "bng_session="),
    callbackPath,
    binding,
  };
}

describe("OIDC sign-in", () => {
  it("signs a browser in with the role its groups map to, as <user>@<provider>", async () => {
    await configureCorp();
    const { callback, session } = await signIn();
    // A page that moves on by itself (a same-site navigation, so the Strict cookie goes with it).
    expect(callback.status, callback.text).toBe(200);
    expect(callback.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(callback.text).toContain('<meta http-equiv="refresh" content="0;url=/api/v1/auth/whoami">');
    expect(session).toBeDefined();
    const whoami = await appliance("/api/v1/auth/whoami", { cookie: session! });
    expect(whoami.json()).toMatchObject({ via: "session", username: "alice@corp", role: "operator" });
  });

  it("refuses a replayed callback, and one from a browser that did not start the sign-in", async () => {
    await configureCorp();
    const { callbackPath, binding } = await signIn();
    expect((await appliance(callbackPath, { cookie: binding })).status).toBe(401);
    const start = await appliance("/api/v1/auth/oidc/corp/login");
    const atProvider = await fetch(String(start.headers.location), { redirect: "manual" });
    const stolen = await appliance(pathOf(atProvider.headers.get("location")!), { cookie: binding });
    expect(stolen.status).toBe(401);
  });

  it("fails closed when no role mapping matches the groups", async () => {
    await configureCorp();
    const { callback, session } = await signIn({ preferred_username: "mallory", groups: ["guests"] });
    expect(callback.status).toBe(403);
    expect(callback.json<{ detail: string }>().detail).toContain("no role mapping");
    expect(session).toBeUndefined();
  });
});
