/**
 * TOTP per RFC 6238 through otplib: SHA-1, 6 digits, 30-second step, and one
 * step of tolerance either side for clock drift. A code is accepted once per
 * account: the caller stores the matched time step and passes it back as
 * `afterTimeStep`, so a replayed (or older) code fails.
 */
import { generateSecret, generateURI, verify } from "otplib";

export const TOTP_PERIOD_SECONDS = 30;

/** A new Base32 secret for an authenticator app. */
export function newTotpSecret(): string {
  return generateSecret();
}

/** The `otpauth://` URI an authenticator app reads from a QR code. */
export function totpUri(issuer: string, account: string, secret: string): string {
  return generateURI({ issuer, label: account, secret });
}

/** Verifies a 6-digit code; on success returns the time step it matched, which must exceed `afterTimeStep`. */
export async function verifyTotp(
  secret: string,
  code: string,
  afterTimeStep: number | null,
  nowMs: number,
): Promise<{ ok: true; timeStep: number } | { ok: false }> {
  if (!/^[0-9]{6}$/.test(code)) return { ok: false };
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: TOTP_PERIOD_SECONDS,
    ...(afterTimeStep === null ? {} : { afterTimeStep }),
  });
  return result.valid && "timeStep" in result ? { ok: true, timeStep: result.timeStep } : { ok: false };
}

/**
 * Code replay (RFC 6238 §5.2: a verifier must not accept the second attempt
 * of the same OTP): a matched time step is accepted only after the last one
 * this account used, so a code, or an older one, works once.
 */
export type ReplayDecision = { ok: true } | { ok: false; reason: "replayed" };

/** The replay rule: `matchedStep` must exceed `lastUsedStep` (null: none used yet). */
export const checkReplay = (matchedStep: number, lastUsedStep: number | null): ReplayDecision =>
  lastUsedStep !== null && matchedStep <= lastUsedStep ? { ok: false, reason: "replayed" } : { ok: true };
