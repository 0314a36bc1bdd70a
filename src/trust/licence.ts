/**
 * Licence credentials, verifiable with no network: activation tokens and
 * offline leases, both authenticated with HMAC-SHA-256 under the licensing
 * key, itself HMAC-SHA-256(fleet secret, "bngfleet-licensing/1"). The fleet
 * secret stands in for the vendor's licensing service: whoever holds it
 * (`bngfleet licence`, a CI job, the tests) can issue licences that every
 * appliance of the fleet accepts, and nobody else can.
 *
 * Activation token: `bnglic_` + base64url(JSON claims) + `.` + base64url(MAC
 * of everything before the dot). Offline lease: a JSON object whose
 * `signature` is the base64url MAC of its canonical text (`leaseCanonical`).
 */
import { z } from "zod";
import { constantTimeEqual, hmacSha256, sha256Hex, toBase64Url, utf8 } from "./encoding.ts";
import {
  BandMax,
  BandName,
  GraceDays,
  LEASE_FORMAT,
  LeaseUtc,
  LicenceId,
  OfflineLease,
  Role,
} from "../schemas/licensing.ts";

export const LICENCE_TOKEN_PREFIX = "bnglic_";
const KEY_LABEL = "bngfleet-licensing/1";

/** What an activation token carries. */
export const LicenceClaims = z.strictObject({
  licenceId: LicenceId,
  role: Role,
  bandName: BandName,
  bandMax: BandMax,
  contractEndUtc: LeaseUtc.meta({ description: "no entitlement reaches past it" }),
  renewalDays: z
    .int()
    .min(1)
    .max(3650)
    .default(30)
    .meta({ description: "entitlement one activation or renewal grants, in days; default 30" }),
  graceDays: GraceDays,
  issuedUtc: LeaseUtc,
});
export type LicenceClaims = z.output<typeof LicenceClaims>;

export type LeaseFields = Omit<OfflineLease, "format" | "signature">;

/** Why a token does not verify. */
export type TokenRefusal = "malformed" | "bad-signature" | "bad-claims";

/** The licensing key of a fleet secret. */
export async function licensingKey(fleetSecret: string): Promise<Uint8Array<ArrayBuffer>> {
  return hmacSha256(utf8(fleetSecret), KEY_LABEL);
}

/** A new activation token for claims (what the licensing service issues with a licence). */
export async function mintActivationToken(
  key: Uint8Array<ArrayBuffer>,
  claims: z.input<typeof LicenceClaims>,
): Promise<string> {
  const body = `${LICENCE_TOKEN_PREFIX}${toBase64Url(utf8(JSON.stringify(LicenceClaims.parse(claims))))}`;
  return `${body}.${toBase64Url(await hmacSha256(key, body))}`;
}

/** The claims of an activation token whose MAC holds. */
export async function verifyActivationToken(
  key: Uint8Array<ArrayBuffer>,
  token: string,
): Promise<{ ok: true; claims: LicenceClaims } | { ok: false; reason: TokenRefusal; detail: string }> {
  const match = /^(bnglic_([A-Za-z0-9_-]+))\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  if (!match)
    return { ok: false, reason: "malformed", detail: "not an activation token (bnglic_<claims>.<signature>)" };
  const [, body, payload, mac] = match as unknown as [string, string, string, string];
  if (!constantTimeEqual(toBase64Url(await hmacSha256(key, body)), mac)) {
    return {
      ok: false,
      reason: "bad-signature",
      detail: "the token's signature does not verify: it was not issued for this fleet, or it was altered",
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
  } catch {
    return { ok: false, reason: "bad-claims", detail: "the token's claims are not JSON" };
  }
  const claims = LicenceClaims.safeParse(json);
  if (!claims.success)
    return {
      ok: false,
      reason: "bad-claims",
      detail:
        `the token's claims are ` +
        `invalid: ${claims.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`,
    };
  return { ok: true, claims: claims.data };
}

/** The text a lease's signature covers: the format, then every field in a fixed order, as one JSON array. */
export function leaseCanonical(lease: LeaseFields): string {
  const fields = [
    lease.licenceId,
    lease.instanceId,
    lease.role,
    lease.bandName,
    lease.bandMax,
    lease.issuedUtc,
    lease.expiresAtUtc,
    lease.contractEndUtc,
    lease.graceDays,
  ];
  return `${LEASE_FORMAT}\n${JSON.stringify(fields)}`;
}

/** Signs lease fields into a lease (what the licensing portal hands an offline site). */
export async function signLease(
  key: Uint8Array<ArrayBuffer>,
  fields: Omit<z.input<typeof OfflineLease>, "format" | "signature">,
): Promise<OfflineLease> {
  const parsed = OfflineLease.parse({ ...fields, format: LEASE_FORMAT, signature: "A".repeat(43) });
  return { ...parsed, signature: toBase64Url(await hmacSha256(key, leaseCanonical(parsed))) };
}

/** True when a lease's signature holds over its canonical text. */
export async function verifyLease(key: Uint8Array<ArrayBuffer>, lease: OfflineLease): Promise<boolean> {
  return constantTimeEqual(toBase64Url(await hmacSha256(key, leaseCanonical(lease))), lease.signature);
}

/**
 * The instance id the licensing service assigns an appliance for a licence:
 * the first 128 bits of SHA-256(`bngfleet-instance/1:<appliance>:<licenceId>`)
 * as a UUID-shaped string, so an offline site can compute it (and bind a
 * lease to it) without asking anyone.
 */
export async function instanceIdFor(appliance: string, licenceId: string): Promise<string> {
  const h = await sha256Hex(`bngfleet-instance/1:${appliance}:${licenceId}`);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
