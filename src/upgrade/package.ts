/**
 * The software package format (`.bngpkg`), simple enough to build with
 * printf and sha256sum:
 *
 *   BNGPKG1\n                                   8-byte magic
 *   {"name":"bngfleet","version":"0.2.0","sha256":"<hex>","signature":"<base64>"}\n   one line of JSON, the manifest
 *   <payload>                                   the image: every remaining byte
 *
 * The manifest's `sha256` is the payload's SHA-256 in lower-case hex, so a
 * truncated or corrupted upload is refused before anything is staged; its
 * `signature` is the vendor's Ed25519 signature over the manifest's fields
 * (src/trust/package-signature.ts), which binds the payload through `sha256`.
 * WebCrypto only: the same code runs in workerd (staging) and Node (the build script).
 */
import { z } from "zod";
import { toHex } from "../trust/encoding.ts";

/** The product a package must be for. */
export const PRODUCT = "bngfleet";
/** The first bytes of every package. */
export const PACKAGE_MAGIC = "BNGPKG1\n";
/** The manifest line's longest allowed length. */
export const MAX_MANIFEST_BYTES = 4096;

/** A software version: semantic versioning's MAJOR.MINOR.PATCH with an optional pre-release. */
export const Version = z
  .string()
  .max(64)
  .regex(
    /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(-[0-9A-Za-z]+(\.[0-9A-Za-z]+)*)?$/,
    "a version MAJOR.MINOR.PATCH, optionally with a pre-release such as -rc.1",
  );

/** The manifest line; other keys are ignored, so later formats can add some. */
export const Manifest = z.object({
  name: z.literal(PRODUCT, { error: `must be "${PRODUCT}": the package is for another product` }),
  version: Version,
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "64 lower-case hex digits: the SHA-256 of the payload"),
  notes: z.string().max(1024).nullable().optional(),
  /**
   * Ed25519 over the other fields (src/trust/package-signature.ts), standard base64; checked when the package is
   * staged.
   */
  signature: z.base64().max(128, "an Ed25519 signature in base64 (88 characters)").optional(),
});
export type Manifest = z.infer<typeof Manifest>;

/** A package that passed every check. */
export interface ParsedPackage {
  manifest: Manifest;
  /** SHA-256 of the whole package file, as `sha256sum` prints it. */
  sha256: string;
  size: number;
  payloadSize: number;
}

/** Why a package was refused, with a JSON Pointer into the package (`#/magic`, `#/manifest/version`, `#/payload`). */
export interface PackageProblem {
  pointer: string;
  detail: string;
}

const encoder = new TextEncoder();
const MAGIC = encoder.encode(PACKAGE_MAGIC);

async function sha256(bytes: Uint8Array): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
}

/** Checks a package: magic, manifest, payload digest. */
export async function parsePackage(
  bytes: Uint8Array,
): Promise<{ ok: true; parsed: ParsedPackage } | ({ ok: false } & PackageProblem)> {
  const refuse = (pointer: string, detail: string) => ({ ok: false as const, pointer, detail });
  if (bytes.length < MAGIC.length || MAGIC.some((b, i) => bytes[i] !== b)) {
    return refuse("#/magic", `not a ${PRODUCT} package: it must start with the line 'BNGPKG1'`);
  }
  const window = bytes.subarray(MAGIC.length, MAGIC.length + MAX_MANIFEST_BYTES + 1);
  const end = window.indexOf(0x0a);
  if (end < 0)
    return refuse(
      "#/manifest",
      `the manifest must be one line of JSON of at most ${MAX_MANIFEST_BYTES} bytes ` +
        `after the magic, ended by a newline`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(window.subarray(0, end)));
  } catch (error) {
    return refuse("#/manifest", `the manifest is not UTF-8 JSON: ${(error as Error).message}`);
  }
  const manifest = Manifest.safeParse(raw);
  if (!manifest.success) {
    const issue = manifest.error.issues[0]!;
    return refuse(
      `#/manifest/${issue.path.join("/")}`.replace(/\/$/, ""),
      `manifest ${issue.path.join(".") || "(whole)"}: ${issue.message}`,
    );
  }
  const payload = bytes.subarray(MAGIC.length + end + 1);
  if (payload.length === 0) return refuse("#/payload", "the package has no payload after the manifest");
  const [payloadSha, fileSha] = await Promise.all([sha256(payload), sha256(bytes)]);
  if (payloadSha !== manifest.data.sha256) {
    return refuse(
      "#/payload",
      `the payload's SHA-256 is ${payloadSha} but the manifest ` +
        `says ${manifest.data.sha256}: the package is corrupt or truncated`,
    );
  }
  return {
    ok: true,
    parsed: { manifest: manifest.data, sha256: fileSha, size: bytes.length, payloadSize: payload.length },
  };
}

/** The manifest of a payload, unsigned. */
export async function manifestFor(version: string, payload: Uint8Array, notes?: string): Promise<Manifest> {
  return { name: PRODUCT, version, sha256: await sha256(payload), ...(notes ? { notes } : {}) };
}

/** Builds an unsigned package around a payload (the twin's own placeholder; `signedPackage` for one to upload). */
export async function buildPackage(version: string, payload: Uint8Array, notes?: string): Promise<Uint8Array> {
  return assemblePackage(await manifestFor(version, payload, notes), payload);
}

/** The package file: magic, the manifest line, the payload. */
export function assemblePackage(manifest: Manifest, payload: Uint8Array): Uint8Array {
  const head = encoder.encode(`${PACKAGE_MAGIC}${JSON.stringify(manifest)}\n`);
  const out = new Uint8Array(head.length + payload.length);
  out.set(head);
  out.set(payload, head.length);
  return out;
}

/** Bytes of standard base64 (validated by the caller's schema). */
export function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/** Standard base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}
