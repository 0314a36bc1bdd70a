/**
 * Enrolment tokens: a short-lived HS256 JWT (jose) naming the account and the
 * pending enrolment it belongs to. The signing key is per appliance and never
 * leaves its Durable Object; the pending TOTP secret stays server-side.
 */
import { SignJWT, jwtVerify } from "jose";

/** How long an enrolment token is valid: long enough to find a phone and scan a QR code. */
export const ENROLMENT_TTL_SECONDS = 600;
const AUDIENCE = "bng-enrol";

/**
 * When a pending enrolment started at `startedMs` lapses: its token's lifetime (the token's `exp`, in whole seconds,
 * may come up to a second sooner).
 */
export const enrolmentExpiresMs = (startedMs: number): number => startedMs + ENROLMENT_TTL_SECONDS * 1000;

/**
 * Whether a pending enrolment can still be completed: `superseded` when its
 * row is gone (a later login started another, or it was completed), and
 * `expired` from its expiry instant on (open up to the millisecond before).
 */
export type EnrolmentDecision = { ok: true } | { ok: false; reason: "superseded" | "expired" };

/** The rule for completing an enrolment: its pending row must exist and not have reached its expiry. */
export function checkEnrolment(pending: { expiresMs: number } | null, nowMs: number): EnrolmentDecision {
  if (!pending) return { ok: false, reason: "superseded" };
  if (pending.expiresMs <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true };
}

/** Signs an enrolment token for a pending enrolment. */
export async function signEnrolmentToken(
  key: Uint8Array,
  username: string,
  enrolmentId: string,
  nowMs: number,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(username)
    .setJti(enrolmentId)
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ENROLMENT_TTL_SECONDS)
    .sign(key);
}

/** Verifies an enrolment token; anything malformed, forged or expired is `null`. */
export async function readEnrolmentToken(
  key: Uint8Array,
  token: string,
  nowMs: number,
): Promise<{ username: string; enrolmentId: string } | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      audience: AUDIENCE,
      algorithms: ["HS256"],
      currentDate: new Date(nowMs),
    });
    return payload.sub && payload.jti ? { username: payload.sub, enrolmentId: payload.jti } : null;
  } catch {
    return null;
  }
}
