/**
 * Browser sessions: the `bng_session` cookie (name from the spec) carries 256
 * random bits; the appliance stores only its SHA-256. Each session has its
 * own CSRF token, returned by login and whoami and required in
 * `X-CSRF-Token` on cookie-authenticated mutations.
 */
import { randomBytes, toBase64Url } from "./encoding.ts";

export const SESSION_COOKIE = "bng_session";
/** A session ends after this long without a request. */
export const SESSION_IDLE_SECONDS = 30 * 60;
/** A session ends this long after login, however active. */
export const SESSION_ABSOLUTE_SECONDS = 12 * 60 * 60;

/** A session's "last seen" time is rewritten at most this often, so a burst of requests stays a burst of reads. */
export const SESSION_TOUCH_SECONDS = 30;

/** When a session ends unless used again: the earlier of its idle end and its absolute end. */
export function sessionExpiresMs(session: { createdMs: number; lastSeenMs: number }): number {
  return Math.min(
    session.lastSeenMs + SESSION_IDLE_SECONDS * 1000,
    session.createdMs + SESSION_ABSOLUTE_SECONDS * 1000,
  );
}

/**
 * Whether a stored session still authenticates at `nowMs` (up to and
 * including its last millisecond), and whether to record this use.
 */
export type SessionDecision = { ok: true; touch: boolean } | { ok: false; reason: "idle" | "expired" };

/** The session rules: ended after 30 minutes without a request, or 12 hours after login however active. */
export function checkSession(session: { createdMs: number; lastSeenMs: number }, nowMs: number): SessionDecision {
  if (nowMs - session.createdMs > SESSION_ABSOLUTE_SECONDS * 1000) return { ok: false, reason: "expired" };
  if (nowMs - session.lastSeenMs > SESSION_IDLE_SECONDS * 1000) return { ok: false, reason: "idle" };
  return { ok: true, touch: nowMs - session.lastSeenMs > SESSION_TOUCH_SECONDS * 1000 };
}

/** A new session id (the cookie value) and its CSRF token. */
export function newSessionSecrets(): { sessionId: string; csrfToken: string } {
  return { sessionId: toBase64Url(randomBytes(32)), csrfToken: toBase64Url(randomBytes(32)) };
}

/** The Set-Cookie value for a new session: HttpOnly, SameSite=Strict, Path=/, Secure over HTTPS. */
export function sessionCookie(sessionId: string, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${sessionId}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    `Max-Age=${SESSION_ABSOLUTE_SECONDS}`,
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** The Set-Cookie value that removes the cookie at logout. */
export function clearedSessionCookie(secure: boolean): string {
  return [
    `${SESSION_COOKIE}=`,
    "Path=/",
    "HttpOnly",
    "SameSite=Strict",
    "Max-Age=0",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

/** A cookie's value from a Cookie header, if it is there and not empty. */
export function readCookie(cookieHeader: string | null, cookie: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === cookie) return value.join("=") || null;
  }
  return null;
}

/** The session id from a Cookie header, if any. */
export const readSessionCookie = (cookieHeader: string | null): string | null =>
  readCookie(cookieHeader, SESSION_COOKIE);
