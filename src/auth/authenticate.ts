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
import type { Route } from "../http/route.ts";
import type { PresentedCredential } from "../schemas/operation.ts";
import { sha256Hex } from "../trust/encoding.ts";
import { BEARER_CHALLENGE } from "../http/refusal.ts";
import { floorOf } from "./authorize.ts";
import { readSessionCookie } from "../trust/session.ts";
import { TOKEN_PREFIX, isWellFormedToken } from "../trust/tokens.ts";

const unauthorized = (detail: string) => new StatusError(401, detail, { headers: BEARER_CHALLENGE });

/** The credential a request presents to a route, hashed (bearer token first); `null` for anonymous routes. Throws 401 for a missing or malformed one. */
export async function presented(route: Route, headers: Headers): Promise<PresentedCredential | null> {
  if (floorOf(route) === "anonymous") return null;
  const authorization = headers.get("authorization");
  if (authorization !== null) return bearerCredential(/^Bearer +(\S+)$/i.exec(authorization)?.[1]);
  const sessionId = readSessionCookie(headers.get("cookie"));
  if (sessionId !== null) {
    if (route.credentials === "bearer") throw unauthorized("this endpoint accepts a bearer token only; session cookies are refused");
    return { via: "session", sha256: await sha256Hex(sessionId) };
  }
  throw unauthorized(route.credentials === "bearer" ? "a bearer token is required" : "a bearer token or session cookie is required");
}

/** A bearer token as presented (the `Authorization` header's, or a fleet peer's): 401 when it is malformed, else its hash. */
export async function bearerCredential(token: string | undefined): Promise<PresentedCredential> {
  if (!token?.startsWith(TOKEN_PREFIX)) throw unauthorized("the Authorization header must be 'Bearer bngtok_…'");
  // The checksum is verified before any lookup: typos and scanners' guesses never reach the appliance's object.
  if (!isWellFormedToken(token)) throw unauthorized("the bearer token is not well-formed (its checksum does not match): check it was copied whole");
  return { via: "token", sha256: await sha256Hex(token) };
}

/**
 * Fleet peer credentials as presented, by credential: they come from `webUi.peers` (one per peer, derived from the
 * fleet secret or configured), and a relay would otherwise hash one per call. Sized for a fleet of 1,000 read by
 * fan-out reads: at 32 a fleet-wide read cleared it every 32 peers and hashed every credential each time.
 */
const presentedPeers = new Map<string, PresentedCredential>();
const PRESENTED_PEERS_MAX = 2048;

/** The credential the fleet proxy presents to a member of this deployment, as `bearerCredential` presents it. */
export async function peerCredential(token: string): Promise<PresentedCredential> {
  const known = presentedPeers.get(token);
  if (known) return known;
  const credential = await bearerCredential(token);
  // Bounded all the same: a configuration that keeps changing its peers' credentials cannot grow it.
  if (presentedPeers.size >= PRESENTED_PEERS_MAX) presentedPeers.clear();
  presentedPeers.set(token, credential);
  return credential;
}
