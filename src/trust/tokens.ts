/**
 * API tokens. Plaintext form: `bngtok_` + 30 base62 characters of entropy
 * (≈178 bits) + a 6-character base62 CRC-32 of those 30, the scheme GitHub and
 * Grafana tokens use so that secret scanners can recognise a leaked token
 * offline without asking the appliance. Only the SHA-256 of the plaintext is
 * ever stored.
 */
import { ROLES, type Role } from "../auth/role-order.ts";
import { constantTimeEqual, hmacSha256, randomBytes, utf8 } from "./encoding.ts";

export const TOKEN_PREFIX = "bngtok_";
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const BODY_LENGTH = 30;
const CHECKSUM_LENGTH = 6;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(text: string): number {
  let crc = 0xffffffff;
  const bytes = utf8(text);
  for (let i = 0; i < bytes.length; i++) crc = CRC_TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  let n = crc32(body);
  let out = "";
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** Maps bytes to base62 by rejection sampling (bytes ≥ 248 are skipped), so every character is uniform. */
function base62(bytes: Iterable<number>, length: number): string {
  let out = "";
  for (const b of bytes) {
    if (b < 248) out += ALPHABET[b % 62];
    if (out.length === length) return out;
  }
  throw new Error("not enough entropy for a token");
}

function assemble(body: string): string {
  return `${TOKEN_PREFIX}${body}${checksum(body)}`;
}

/** A new random token plaintext. */
export function newToken(): string {
  return assemble(base62(randomBytes(64), BODY_LENGTH));
}

/**
 * A token derived from a secret and a label: the credential one fleet member
 * presents to another, computable by both from the shared fleet secret so no
 * plaintext ever sits in configuration.
 */
export async function deriveToken(secretHex: string, label: string): Promise<string> {
  const key = utf8(secretHex);
  const stream = [...(await hmacSha256(key, `${label}#0`)), ...(await hmacSha256(key, `${label}#1`))];
  return assemble(base62(stream, BODY_LENGTH));
}

/**
 * Whether an `Authorization` header presents `token` as `Bearer <token>` (compared in constant time): the fleet's
 * processes' own calls, never an API credential.
 */
export function presentsToken(authorization: string | null, token: string): boolean {
  const sent = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  return sent !== undefined && constantTimeEqual(sent, token);
}

/** True when a string has the token shape and its checksum matches (recognisable offline). */
export function isWellFormedToken(token: string): boolean {
  const match = /^bngtok_([0-9A-Za-z]{30})([0-9A-Za-z]{6})$/.exec(token);
  return match !== null && checksum(match[1]!) === match[2];
}

/** The displayable, non-secret start of a token (prefix plus 5 characters), shown in token lists. */
export function tokenHint(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 5);
}

/** A token's "last used" time is rewritten at most this often, so a script's requests stay reads. */
export const TOKEN_TOUCH_SECONDS = 60;

/**
 * Whether a stored token still authenticates at `nowMs` (an expiring one
 * until the millisecond before its end), and whether to record this use. A
 * revoked token has no row left, so it never gets here.
 */
export type TokenDecision = { ok: true; touch: boolean } | { ok: false; reason: "expired" };

/** The token rules at use: refused from its expiry on; "last used" refreshed once a minute. */
export function checkToken(
  token: { expiresMs: number | null; lastUsedMs: number | null },
  nowMs: number,
): TokenDecision {
  if (token.expiresMs !== null && token.expiresMs <= nowMs) return { ok: false, reason: "expired" };
  return { ok: true, touch: token.lastUsedMs === null || nowMs - token.lastUsedMs > TOKEN_TOUCH_SECONDS * 1000 };
}

/** A new token's expiry, which must lie in the future (null: never expires). */
export type ExpiryDecision = { ok: true; expiresMs: number | null } | { ok: false; reason: "expiry-not-in-future" };

/** Checks the expiry a creator asked for (an RFC 3339 time the schema already accepted). */
export function newTokenExpiry(expiresUtc: string | null, nowMs: number): ExpiryDecision {
  if (expiresUtc === null) return { ok: true, expiresMs: null };
  const expiresMs = Date.parse(expiresUtc);
  return expiresMs > nowMs ? { ok: true, expiresMs } : { ok: false, reason: "expiry-not-in-future" };
}

/**
 * Whether the API may revoke a token: not one the fleet configuration
 * provisions (`bootstrap`, `fleet:<peer>`), which the configuration would
 * only put back; those change with the configuration.
 */
export type RevocationDecision = { ok: true } | { ok: false; reason: "provisioned" };

/** The revocation rule for one token. */
export const mayRevoke = (token: { source: "api" | "config" }): RevocationDecision =>
  token.source === "config" ? { ok: false, reason: "provisioned" } : { ok: true };

/**
 * The tokens an account's change revokes, of those it created: all of them
 * when the account goes (`newRole` null), else those whose role outranks its
 * new one, so a demoted account keeps no credential above its rank.
 */
export function tokensRevokedBy<T extends { role: Role }>(created: T[], newRole: Role | null): T[] {
  return newRole === null ? created : created.filter((token) => ROLES.indexOf(token.role) > ROLES.indexOf(newRole));
}
