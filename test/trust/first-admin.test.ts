/**
 * The first `admin`'s stored hash (src/auth/bootstrap.ts): the development
 * default is hashed once per isolate, every other first password once per
 * appliance with a salt of its own. Each hash is checked with Node's own
 * PBKDF2, not the code that made it.
 */
import { pbkdf2Sync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DEFAULT_ADMIN_PASSWORD, firstAdminHash } from "../../src/auth/bootstrap.ts";

/** True when `stored` (`pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`) is a hash of `password`. */
function isHashOf(stored: string, password: string): boolean {
  const [scheme, iterations, salt, hash] = stored.split("$");
  if (scheme !== "pbkdf2-sha256" || !iterations || !salt || !hash) return false;
  return pbkdf2Sync(password, Buffer.from(salt, "hex"), Number(iterations), 32, "sha256").toString("hex") === hash;
}

const saltOf = (stored: string) => stored.split("$")[2];

describe("the first admin's password hash", () => {
  it(
    "is the development default's, 100,000 iterations, the same for every local " + "appliance of the process",
    async () => {
      const seed = { kind: "development-default", password: DEFAULT_ADMIN_PASSWORD } as const;
      const [first, second] = await Promise.all([firstAdminHash(seed), firstAdminHash(seed)]);
      expect(first).toMatch(/^pbkdf2-sha256\$100000\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
      expect(isHashOf(first, "bngfleet-admin")).toBe(true);
      expect(second).toBe(first);
    },
  );

  it("is the configured password's with a salt of each appliance's own", async () => {
    const seed = { kind: "configured", password: "a-fleet-wide-secret" } as const;
    const [first, second] = await Promise.all([firstAdminHash(seed), firstAdminHash(seed)]);
    expect(isHashOf(first, "a-fleet-wide-secret")).toBe(true);
    expect(isHashOf(second, "a-fleet-wide-secret")).toBe(true);
    expect(saltOf(second)).not.toBe(saltOf(first));
  });

  it("deployed with none configured, is of a password nobody knows: neither the default nor an empty one", async () => {
    const stored = await firstAdminHash({ kind: "unusable" });
    expect(stored).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(isHashOf(stored, DEFAULT_ADMIN_PASSWORD)).toBe(false);
    expect(isHashOf(stored, "")).toBe(false);
    expect(saltOf(await firstAdminHash({ kind: "unusable" }))).not.toBe(saltOf(stored));
  });
});
