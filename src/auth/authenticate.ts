/**
 * Per-request authentication and authorization: a bearer token or the
 * session cookie is resolved to a principal by the appliance's identity
 * store (only hashes cross the wire), then the route's credential kind, the
 * CSRF token and the role floor are enforced, in that order.
 */
import { StatusError } from "../http/problem.ts";
import type { Route } from "../http/route.ts";
import type { ApplianceContext } from "../fleet/context.ts";
import type { Principal } from "../schemas/principal.ts";
import { constantTimeEqual, sha256Hex } from "../trust/encoding.ts";
import { readSessionCookie } from "../trust/session.ts";
import { TOKEN_PREFIX, isWellFormedToken } from "../trust/tokens.ts";
import { defaultFloor, isMutation, meetsFloor } from "./roles.ts";

const CHALLENGE = { "www-authenticate": 'Bearer realm="bngfleet"' };
const unauthorized = (detail: string) => new StatusError(401, detail, { headers: CHALLENGE });

/** The route's floor: its own, or the spec's common rule. */
export const floorOf = (route: Route) => route.floor ?? defaultFloor(route.method, route.path);

/** Resolves and checks the caller of a route; `null` for anonymous routes. */
export async function authenticate(route: Route, request: Request, appliance: ApplianceContext): Promise<Principal | null> {
  const floor = floorOf(route);
  if (floor === "anonymous") return null;

  const principal = await resolve(route, request, appliance);
  if (principal.via === "session" && isMutation(request.method)) {
    const sent = request.headers.get("x-csrf-token") ?? "";
    if (!principal.csrfToken || !constantTimeEqual(sent, principal.csrfToken)) {
      throw new StatusError(403, "cookie-authenticated changes need the session's CSRF token in X-CSRF-Token");
    }
  }
  if (principal.passwordChangeRequired && !route.beforePasswordChange) {
    throw new StatusError(403, "this account still has the published development default password: change it with POST /api/v1/auth/password before anything else");
  }
  if (route.credentials === "session" && principal.via !== "session") {
    throw new StatusError(403, "this operation belongs to a logged-in account (a browser session); a token cannot perform it");
  }
  if (!meetsFloor(principal.role, floor)) {
    throw new StatusError(403, `this operation needs the ${floor} role; the caller has ${principal.role}`);
  }
  return principal;
}

async function resolve(route: Route, request: Request, appliance: ApplianceContext): Promise<Principal> {
  const authorization = request.headers.get("authorization");
  if (authorization !== null) {
    const token = /^Bearer +(\S+)$/i.exec(authorization)?.[1];
    if (!token?.startsWith(TOKEN_PREFIX)) throw unauthorized("the Authorization header must be 'Bearer bngtok_…'");
    // The checksum is verified before any lookup: typos and scanners' guesses never reach the appliance's object.
    if (!isWellFormedToken(token)) throw unauthorized("the bearer token is not well-formed (its checksum does not match): check it was copied whole");
    const principal = await appliance.stub.identity().authenticate("token", await sha256Hex(token));
    if (!principal) throw unauthorized("the bearer token is unknown, revoked or expired");
    return principal;
  }
  const sessionId = readSessionCookie(request.headers.get("cookie"));
  if (sessionId !== null) {
    if (route.credentials === "bearer") throw unauthorized("this endpoint accepts a bearer token only; session cookies are refused");
    const principal = await appliance.stub.identity().authenticate("session", await sha256Hex(sessionId));
    if (!principal) throw unauthorized("the session has ended; log in again");
    return principal;
  }
  throw unauthorized(route.credentials === "bearer" ? "a bearer token is required" : "a bearer token or session cookie is required");
}

/** The SHA-256 of the credential a request presented (bearer token first, as `resolve` reads it), for rechecking it later. */
export async function presentedCredential(request: Request): Promise<{ via: "token" | "session"; sha256: string } | null> {
  const token = /^Bearer +(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (token) return { via: "token", sha256: await sha256Hex(token) };
  const sessionId = readSessionCookie(request.headers.get("cookie"));
  return sessionId === null ? null : { via: "session", sha256: await sha256Hex(sessionId) };
}
