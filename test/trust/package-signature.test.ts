/**
 * The vendor signature of software packages (src/trust/package-signature.ts),
 * against OpenSSL: the signed message is the documented JSON array, so a
 * package signed with `openssl pkeyutl -sign -rawin` verifies, and ours is
 * byte for byte OpenSSL's (Ed25519 signatures are deterministic).
 */
import { describe, expect, it } from "vitest";
import {
  importUpgradePublicKey,
  importUpgradeSigningKey,
  signedPackage,
  verifyManifest,
} from "../../src/trust/package-signature.ts";
import { parsePackage, type Manifest } from "../../src/upgrade/package.ts";
import { OTHER_SIGNING_KEY, VENDOR_PUBLIC_KEY, VENDOR_SIGNING_KEY } from "../worker/upgrade-keys.ts";

// printf 'image' | sha256sum
const SHA256 = "6105d6cc76af400325e94d588ce511be5bfdbb73b437dc51eca43917d7a43e3d";
// printf '["bngfleet-package-v1","bngfleet","0.2.0","<SHA256>",null]' | openssl pkeyutl -sign -inkey vendor.pem -rawin
// -in /dev/stdin | base64
const OPENSSL_SIGNATURE = "qojl8mLqKrurkzqYHeuDcocNNGUruLOm6jkzS15LUguTRMqMSCII/KUByKT1q6kyAKXn7c/tizo1MXHcJpHPBA==";
const manifest: Manifest = { name: "bngfleet", version: "0.2.0", sha256: SHA256, signature: OPENSSL_SIGNATURE };

describe("a package's signature", () => {
  it("verifies when OpenSSL made it over the documented message", async () => {
    expect(await verifyManifest(manifest, await importUpgradePublicKey(VENDOR_PUBLIC_KEY))).toEqual({ ok: true });
  });

  it("is OpenSSL's, byte for byte, when npm run upgrade-package makes it", async () => {
    const parsed = await parsePackage(
      await signedPackage(
        "0.2.0",
        new TextEncoder().encode("image"),
        await importUpgradeSigningKey(VENDOR_SIGNING_KEY),
      ),
    );
    expect(parsed.ok && parsed.parsed.manifest).toEqual(manifest);
  });

  it.each([
    ["a changed version", { ...manifest, version: "0.2.1" }],
    ["added notes", { ...manifest, notes: "now with notes" }],
    ["another payload digest", { ...manifest, sha256: "0".repeat(64) }],
  ])("fails with %s", async (_, changed) => {
    expect(await verifyManifest(changed, await importUpgradePublicKey(VENDOR_PUBLIC_KEY))).toEqual({
      ok: false,
      reason: "bad-signature",
    });
  });

  it("fails when another key made it, when there is none, and when the appliance holds no key", async () => {
    const key = await importUpgradePublicKey(VENDOR_PUBLIC_KEY);
    const other = await parsePackage(
      await signedPackage("0.2.0", new TextEncoder().encode("image"), await importUpgradeSigningKey(OTHER_SIGNING_KEY)),
    );
    expect(await verifyManifest(other.ok ? other.parsed.manifest : manifest, key)).toEqual({
      ok: false,
      reason: "bad-signature",
    });
    const { signature: _, ...unsigned } = manifest;
    expect(await verifyManifest(unsigned, key)).toEqual({ ok: false, reason: "unsigned" });
    expect(await verifyManifest(manifest, null)).toEqual({ ok: false, reason: "no-key" });
    expect(await importUpgradePublicKey("not a key")).toBeNull();
  });
});
