/**
 * Software packages are signed by the vendor, as a real appliance's are: an
 * Ed25519 signature (RFC 8032) in the manifest over the manifest's other
 * fields, which bind the payload through its SHA-256. The appliance verifies
 * it against the one public key it is given (`BNG_UPGRADE_PUBLIC_KEY`, SPKI
 * PEM) before staging anything. The signed message is the JSON array
 * `["bngfleet-package-v1", name, version, sha256, notes]`: canonical without
 * a JSON canonicalisation scheme, and never valid as any other message.
 */
import { assemblePackage, fromBase64, manifestFor, toBase64, type Manifest } from "../upgrade/package.ts";

const ED25519 = { name: "Ed25519" } as const;
const DOMAIN = "bngfleet-package-v1";

/** Why a package's signature was refused. */
export type SignatureRefusal = "no-key" | "unsigned" | "bad-signature";

/** The bytes the vendor signs for a manifest. */
function signedMessage(manifest: Manifest): Uint8Array<ArrayBuffer> {
  const fields = [DOMAIN, manifest.name, manifest.version, manifest.sha256, manifest.notes ?? null];
  return new TextEncoder().encode(JSON.stringify(fields)) as Uint8Array<ArrayBuffer>;
}

/** The DER inside a PEM block of `label`, or null when there is none. */
function pemBody(pem: string, label: string): Uint8Array<ArrayBuffer> | null {
  const match = new RegExp(`-----BEGIN ${label}-----([A-Za-z0-9+/=\\s]+)-----END ${label}-----`).exec(pem);
  return match ? (fromBase64(match[1]!.replace(/\s+/g, "")) as Uint8Array<ArrayBuffer>) : null;
}

/** Imports the vendor's public key (an Ed25519 SPKI `PUBLIC KEY` PEM); null when the text is not one. */
export async function importUpgradePublicKey(pem: string): Promise<CryptoKey | null> {
  const der = pemBody(pem, "PUBLIC KEY");
  if (!der) return null;
  return crypto.subtle.importKey("spki", der, ED25519, false, ["verify"]).catch(() => null);
}

/** Imports a signing key (an Ed25519 PKCS #8 `PRIVATE KEY` PEM, as `openssl genpkey -algorithm ed25519` writes). */
export async function importUpgradeSigningKey(pem: string): Promise<CryptoKey> {
  const der = pemBody(pem, "PRIVATE KEY");
  if (!der) throw new Error("not a PEM 'PRIVATE KEY' block");
  return crypto.subtle.importKey("pkcs8", der, ED25519, false, ["sign"]);
}

/** Checks a parsed manifest's signature against the vendor's key (`null`: none configured, so nothing verifies). */
export async function verifyManifest(
  manifest: Manifest,
  publicKey: CryptoKey | null,
): Promise<{ ok: true } | { ok: false; reason: SignatureRefusal }> {
  if (!publicKey) return { ok: false, reason: "no-key" };
  if (manifest.signature === undefined) return { ok: false, reason: "unsigned" };
  const signature = fromBase64(manifest.signature) as Uint8Array<ArrayBuffer>;
  const valid = await crypto.subtle.verify(ED25519, publicKey, signature, signedMessage(manifest)).catch(() => false);
  return valid ? { ok: true } : { ok: false, reason: "bad-signature" };
}

/** Builds a package signed with `signingKey` (`bngfleet upgrade-package`, tests). */
export async function signedPackage(
  version: string,
  payload: Uint8Array,
  signingKey: CryptoKey,
  notes?: string,
): Promise<Uint8Array> {
  const manifest = await manifestFor(version, payload, notes);
  const signature = new Uint8Array(await crypto.subtle.sign(ED25519, signingKey, signedMessage(manifest)));
  return assemblePackage({ ...manifest, signature: toBase64(signature) }, payload);
}
