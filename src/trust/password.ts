/**
 * Password hashing. PBKDF2-HMAC-SHA-256 is the slow KDF that WebCrypto offers
 * in every runtime this code runs in; workerd caps PBKDF2 at 100,000
 * iterations, so that is the work factor (a 16-byte random salt per hash),
 * below OWASP's 600,000 for SHA-256: the lockout, the login throttle and the
 * common-password list carry the rest (docs/decisions.md, Authentication choices).
 * Stored form: `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`, so the
 * factor can be raised later without invalidating existing hashes.
 */
import { constantTimeEqual, fromHex, randomBytes, toHex, utf8 } from "./encoding.ts";

const ITERATIONS = 100_000;
const SCHEME = "pbkdf2-sha256";

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", utf8(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, 256);
  return toHex(new Uint8Array(bits));
}

/** Hashes a password for storage. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return `${SCHEME}$${ITERATIONS}$${toHex(salt)}$${await derive(password, salt, ITERATIONS)}`;
}

/** Checks a password against a stored hash; a malformed hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== SCHEME || !iterations || !salt || !hash || !/^[0-9a-f]{32}$/.test(salt)) return false;
  return constantTimeEqual(await derive(password, fromHex(salt), Number(iterations)), hash);
}

/**
 * True for a hash in the stored form that this runtime can verify: workerd
 * refuses PBKDF2 above 100,000 iterations, so a hash with more never could.
 */
export function isPasswordHash(value: string): boolean {
  const match = /^pbkdf2-sha256\$(\d{1,6})\$[0-9a-f]{32}\$[0-9a-f]{64}$/.exec(value);
  return match !== null && Number(match[1]) >= 1_000 && Number(match[1]) <= ITERATIONS;
}

/**
 * The fewest iterations a hash brought in from elsewhere (an import, a
 * rollback to one) may have: as many as this appliance uses itself, so an
 * imported hash is never cheaper to crack than one made here. Hashes already
 * held stay valid: the floor applies to what a change brings in.
 */
export const IMPORTED_ITERATIONS_FLOOR = ITERATIONS;

/** The iterations of a hash in the stored form, or null for anything else. */
export function iterationsOf(stored: string): number | null {
  return isPasswordHash(stored) ? Number(stored.split("$")[1]) : null;
}

/**
 * A hash of no real password, checked when the username is unknown so that a
 * wrong username costs the same time as a wrong password (no user enumeration
 * by timing).
 */
export const DECOY_HASH = `${SCHEME}$${ITERATIONS}$${"00".repeat(16)}$${"00".repeat(32)}`;
