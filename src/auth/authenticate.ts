/**
 * Per-request authentication and authorization, in two halves around the
 * one call a request makes into its appliance. In the Worker, `presented`
 * reads the credential (a bearer token or the session cookie), refuses a
 * malformed one before any lookup and hashes it: only the hash crosses the
 * wire. In the object, `authorizeOperation` (./authorize.ts) resolves the
 * hash to a principal with the identity store and enforces the CSRF token,
 * the password-change gate, the route's credential kind and the role floor,
 * in that order.
 */
import { StatusError } from "../http/problem.ts";
import type { RequestHeaders, Route } from "../http/route.ts";
import type { PresentedCredential } from "../schemas/operation.ts";
import { sha256Hex } from "../trust/encoding.ts";
import { BEARER_CHALLENGE } from "../http/refusal.ts";
import { floorOf } from "./authorize.ts";
import { readSessionCookie } from "../trust/session.ts";
import { TOKEN_PREFIX, isWellFormedToken } from "../trust/tokens.ts";

const unauthorized = (detail: string) => new StatusError(401, detail, { headers: BEARER_CHALLENGE });

/**
 * The credential a request presents to a route, hashed (bearer token first); `null` for anonymous routes. Throws 401
 * for a missing or malformed one.
 */
export async function presented(route: Route, headers: RequestHeaders): Promise<PresentedCredential | null> {
  if (floorOf(route) === "anonymous") return null;
  const authorization = headers.get("authorization");
  if (authorization !== null) return bearerCredential(/^Bearer +(\S+)$/i.exec(authorization)?.[1]);
  const sessionId = readSessionCookie(headers.get("cookie"));
  if (sessionId !== null) {
    if (route.credentials === "bearer")
      throw unauthorized("this endpoint accepts a bearer token only; session cookies are refused");
    return { via: "session", sha256: await sha256Hex(sessionId) };
  }
  throw unauthorized(
    route.credentials === "bearer" ? "a bearer token is required" : "a bearer token or session cookie is required",
  );
}

/**
 * Bearer tokens as presented, hashed, by token: an automation's or a dashboard's token comes with every request,
 * and the fleet proxy presents each peer's (from `webUi.peers`, one per peer); the checksum and SHA-256 of each
 * were 4 % of a 100-row page's CPU. Sized for a fleet of 1,000 read by fan-out reads and its API clients besides.
 * Only a well-formed token is kept, and the map is cleared when full: a caller inventing tokens costs only itself
 * the hashing. It holds nothing the isolate did not already hold for the request.
 */
const presentedTokens = new Map<string, PresentedCredential>();
const PRESENTED_TOKENS_MAX = 4096;

/**
 * A bearer token as presented (the `Authorization` header's, or a fleet peer's): 401 when it is malformed, else its
 * hash.
 */
export async function bearerCredential(token: string | undefined): Promise<PresentedCredential> {
  const known = token === undefined ? undefined : presentedTokens.get(token);
  if (known) return known;
  if (!token?.startsWith(TOKEN_PREFIX)) throw unauthorized("the Authorization header must be 'Bearer bngtok_…'");
  // The checksum is verified before any lookup: typos and scanners' guesses never reach the appliance's object.
  if (!isWellFormedToken(token))
    throw unauthorized("the bearer token is not well-formed (its checksum does not match): check it was copied whole");
  const credential: PresentedCredential = Object.freeze({ via: "token", sha256: await sha256Hex(token) });
  if (presentedTokens.size >= PRESENTED_TOKENS_MAX) presentedTokens.clear();
  presentedTokens.set(token, credential);
  return credential;
}
