/**
 * OpenID Connect sign-in as a relying party: authorization code flow with
 * PKCE (S256), a `state` bound to the browser by a cookie, and a `nonce` in
 * the ID token (OpenID Connect Core 1.0 §3.1; RFC 7636; RFC 9700 §2.1). The
 * ID token is verified with jose against the provider's published keys:
 * signature, issuer, audience, expiry and nonce. Nothing here trusts the
 * browser: everything it brings back is checked against what was stored.
 * Every request to the provider (discovery, token, JWKS, userinfo) goes
 * through the appliance's one destination policy (src/config/destinations.ts,
 * purpose `oidc`): the allowlist is the caller's `alarms.webhookAllowlist`.
 */
import { createRemoteJWKSet, customFetch, jwtVerify, type JWTPayload } from "jose";
import { DestinationRefused, outboundFetch } from "../config/destinations.ts";
import type { Role } from "../auth/roles.ts";
import { refuse, type Outcome } from "../schemas/outcome.ts";
import { randomBytes, toBase64Url, utf8 } from "./encoding.ts";

/** How long the provider has to answer discovery, token and userinfo requests. */
export const OIDC_TIMEOUT_MS = 5_000;
/** How long a browser has to come back from the provider. */
export const OIDC_PENDING_SECONDS = 10 * 60;
/**
 * Pending sign-ins kept at most; a start beyond it is refused (429) until the
 * oldest expires. The login buckets admit at most 20 + 2 a second, 1,220 in
 * ten minutes, so this bounds the table against anything unforeseen without
 * refusing anyone the buckets admit.
 */
export const OIDC_PENDING_MAX = 2_000;
/**
 * How long a provider's discovery document is reused: every anonymous
 * sign-in start needs it, and a provider changes its endpoints rarely (its
 * keys are read at each callback, by jose). Five minutes: an endpoint move
 * is picked up quickly, and a burst of starts costs the provider one read.
 */
export const OIDC_DISCOVERY_TTL_MS = 5 * 60_000;
/** The cookie binding a pending sign-in to the browser that started it. */
export const OIDC_COOKIE = "bng_oidc";

/** When a sign-in sent to the provider at `startedMs` stops waiting for the browser's return. */
export const oidcPendingExpiresMs = (startedMs: number): number => startedMs + OIDC_PENDING_SECONDS * 1000;

/** Whether a browser's return from the provider may continue a pending sign-in, and if not, why. */
export type OidcReturnDecision =
  | { ok: true }
  | { ok: false; reason: "unknown" | "expired" | "other-provider" | "other-browser" };

/**
 * The return rule (RFC 9700 §2.1, OpenID Connect Core §3.1.2.7): the state
 * must name a pending sign-in (the store forgets it on first use, so a replay
 * is `unknown`), before its expiry instant, for the provider it was sent to,
 * from the browser holding its binding cookie.
 */
export function checkOidcReturn(
  pending: { expiresMs: number; provider: string; bindingSha256: string } | null,
  returned: { provider: string; bindingSha256: string | null },
  nowMs: number,
): OidcReturnDecision {
  if (!pending) return { ok: false, reason: "unknown" };
  if (pending.expiresMs <= nowMs) return { ok: false, reason: "expired" };
  if (pending.provider !== returned.provider) return { ok: false, reason: "other-provider" };
  if (pending.bindingSha256 !== returned.bindingSha256) return { ok: false, reason: "other-browser" };
  return { ok: true };
}

export interface Discovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  jwks_uri: string;
  userinfo_endpoint?: string;
}

/** The provider settings a sign-in needs, client secret included (the object hands them to this module only). */
export interface SignInProvider {
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  usernameClaim: string;
  groupsClaim: string;
  fetchUserInfo: boolean;
  roleMap: { group: string; role: Role }[];
}

/** A fresh state, nonce, PKCE verifier and browser binding. */
export async function newSignIn(): Promise<{
  state: string;
  nonce: string;
  verifier: string;
  challenge: string;
  binding: string;
}> {
  const verifier = toBase64Url(randomBytes(32));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(verifier)));
  return {
    state: toBase64Url(randomBytes(32)),
    nonce: toBase64Url(randomBytes(32)),
    verifier,
    challenge: toBase64Url(digest),
    binding: toBase64Url(randomBytes(32)),
  };
}

/** Only https issuers, except a lab provider on this machine's loopback. */
export function isAllowedIssuer(issuer: string): boolean {
  try {
    const url = new URL(issuer);
    return (
      url.protocol === "https:" ||
      (url.protocol === "http:" && ["127.0.0.1", "[::1]", "localhost"].includes(url.hostname))
    );
  } catch {
    return false;
  }
}

async function fetchJson(
  url: string,
  allowlist: readonly string[],
  init: RequestInit = {},
): Promise<Outcome<{ body: Record<string, unknown> }>> {
  let response: Response;
  try {
    response = await outboundFetch(url, "oidc", allowlist, { ...init, signal: AbortSignal.timeout(OIDC_TIMEOUT_MS) });
  } catch (error) {
    if (error instanceof DestinationRefused)
      return refuse("upstream", `the identity provider's endpoint is not an allowed destination: ${error.message}`);
    return refuse("upstream", `the identity provider did not answer at ${new URL(url).origin}`);
  }
  const text = await response.text();
  if (!response.ok)
    return refuse("upstream", `the identity provider answered ${response.status} at ${new URL(url).pathname}`);
  try {
    const body = JSON.parse(text) as unknown;
    if (body && typeof body === "object" && !Array.isArray(body))
      return { ok: true, body: body as Record<string, unknown> };
  } catch {
    // fall through
  }
  return refuse("upstream", `the identity provider's answer at ${new URL(url).pathname} is not a JSON object`);
}

/** The provider's discovery document; its `issuer` must be the configured one (OIDC Discovery §4.3). */
export async function discover(
  issuer: string,
  allowlist: readonly string[],
): Promise<Outcome<{ discovery: Discovery }>> {
  const fetched = await fetchJson(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, allowlist);
  if (!fetched.ok) return fetched;
  const d = fetched.body;
  const endpoints = ["authorization_endpoint", "token_endpoint", "jwks_uri"] as const;
  if (d.issuer !== issuer || endpoints.some((k) => typeof d[k] !== "string")) {
    return refuse(
      "upstream",
      "the identity provider's discovery document does not match its configured issuer or lacks an endpoint",
    );
  }
  return { ok: true, discovery: d as unknown as Discovery };
}

/** Where the browser goes to sign in. */
export function authorizationUrl(
  discovery: Discovery,
  provider: SignInProvider,
  redirectUri: string,
  signIn: { state: string; nonce: string; challenge: string },
): string {
  const url = new URL(discovery.authorization_endpoint);
  const params = {
    response_type: "code",
    client_id: provider.clientId,
    redirect_uri: redirectUri,
    scope: provider.scopes.join(" "),
    state: signIn.state,
    nonce: signIn.nonce,
    code_challenge: signIn.challenge,
    code_challenge_method: "S256",
  };
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}

/**
 * Exchanges the code for tokens (client_secret_basic), verifies the ID token
 * and, when configured, merges the userinfo claims (whose `sub` must match).
 */
export async function redeem(
  discovery: Discovery,
  provider: SignInProvider,
  redirectUri: string,
  pending: { nonce: string; verifier: string },
  code: string,
  allowlist: readonly string[],
): Promise<Outcome<{ claims: JWTPayload }>> {
  const basic = btoa(`${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.clientSecret)}`);
  const tokens = await fetchJson(discovery.token_endpoint, allowlist, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${basic}`,
      accept: "application/json",
    },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: pending.verifier,
    }).toString(),
  });
  if (!tokens.ok) return tokens;
  const idToken = tokens.body.id_token;
  if (typeof idToken !== "string") return refuse("upstream", "the identity provider's token answer has no id_token");
  let claims: JWTPayload;
  try {
    const keys = createRemoteJWKSet(new URL(discovery.jwks_uri), {
      timeoutDuration: OIDC_TIMEOUT_MS,
      [customFetch]: (url: string, init: RequestInit) => outboundFetch(url, "oidc", allowlist, init),
    });
    ({ payload: claims } = await jwtVerify(idToken, keys, {
      issuer: provider.issuer,
      audience: provider.clientId,
      clockTolerance: 60,
    }));
  } catch (error) {
    return refuse("bad-credentials", `the ID token was refused: ${error instanceof Error ? error.message : "invalid"}`);
  }
  if (claims.nonce !== pending.nonce)
    return refuse("bad-credentials", "the ID token's nonce does not match this sign-in");
  if (provider.fetchUserInfo && discovery.userinfo_endpoint && typeof tokens.body.access_token === "string") {
    const info = await fetchJson(discovery.userinfo_endpoint, allowlist, {
      headers: { authorization: `Bearer ${tokens.body.access_token}`, accept: "application/json" },
    });
    if (!info.ok) return info;
    if (info.body.sub !== claims.sub) return refuse("bad-credentials", "the userinfo answer is about another subject");
    claims = { ...info.body, ...claims };
  }
  return { ok: true, claims };
}

/** The groups a claim holds: an array of strings, or one string. */
const groupsOf = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.filter((g): g is string => typeof g === "string")
    : typeof value === "string"
      ? [value]
      : [];

/** The account name and role the claims map to; no matching rule refuses (the spec: role mapping fails closed). */
export function identityOf(provider: SignInProvider, claims: JWTPayload): Outcome<{ username: string; role: Role }> {
  const name = claims[provider.usernameClaim];
  if (typeof name !== "string" || !/^[\x21-\x7e]{1,64}$/.test(name))
    return refuse("forbidden", `the ID token has no usable '${provider.usernameClaim}' claim`);
  const groups = groupsOf(claims[provider.groupsClaim]);
  const rule = provider.roleMap.find((r) => groups.includes(r.group));
  if (!rule)
    return refuse(
      "forbidden",
      `no role mapping of provider '${provider.name}' matches the groups of '${name}'; access is refused`,
    );
  // Named with the provider, so an external identity is never mistaken for the local account of the same name.
  return { ok: true, username: `${name}@${provider.name}`, role: rule.role };
}

/**
 * The cookie carrying the browser binding while the provider has the browser (sent back on its redirect: SameSite=Lax).
 */
export function oidcCookie(binding: string, secure: boolean): string {
  return [
    `${OIDC_COOKIE}=${binding}`,
    "Path=/api/v1/auth/oidc",
    "HttpOnly",
    "SameSite=Lax",
    `Max-Age=${OIDC_PENDING_SECONDS}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** Removes the binding cookie once the sign-in is over. */
export const clearedOidcCookie = (secure: boolean): string =>
  [
    `${OIDC_COOKIE}=`,
    "Path=/api/v1/auth/oidc",
    "HttpOnly",
    "SameSite=Lax",
    "Max-Age=0",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
