/**
 * What the launcher keeps under the data dir:
 *   <dataDir>/fleet-secret   32 random bytes, hex (mode 0600)
 *   <dataDir>/bootstrap-token  the super-user API token the launcher made, when none was given (mode 0600)
 *   <dataDir>/upgrade-signing-key.pem  the development vendor key: Ed25519, PKCS #8 PEM (mode 0600);
 *                            `bngfleet upgrade-package` signs with it, the appliances get its public half
 *   <dataDir>/certs/         per-appliance TLS certificate and key (certificates.ts)
 *   <dataDir>/durable-objects/  Miniflare's SQLite files, one per Durable Object
 *                               (shard-K-of-N/ below it when BNG_SHARDS=N > 1)
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { LaunchError } from "./config.ts";
import { isWellFormedToken, newToken } from "../src/trust/tokens.ts";

/** Directory handed to Miniflare as `durableObjectsPersist`. */
export function durableObjectDir(dataDir: string): string {
  return path.join(dataDir, "durable-objects");
}

/**
 * Where shard `k` of `shards` keeps its objects: the Durable Object directory
 * itself for a single process, else a directory per shard, since each
 * workerd's alarm scheduler keeps its own metadata.sqlite beside the objects'
 * files and two processes must never share one. A fleet run with another
 * BNG_SHARDS starts its appliances afresh.
 */
export function shardDir(dataDir: string, k: number, shards: number): string {
  return shards === 1 ? durableObjectDir(dataDir) : path.join(durableObjectDir(dataDir), `shard-${k + 1}-of-${shards}`);
}

/** Deletes the persisted Durable Object state (BNG_FRESH=1) but leaves certificates and the fleet secret alone. */
export async function clearDurableObjects(dataDir: string): Promise<void> {
  // Certificates and the fleet secret survive on purpose: a browser that
  // trusted the old certificate, or a peer holding a derived token, keeps working.
  await rm(durableObjectDir(dataDir), { recursive: true, force: true });
}

/** Returns the fleet secret, creating `<dataDir>/fleet-secret` (0600) on first start. */
export function loadFleetSecret(dataDir: string): Promise<{ secret: string; created: boolean }> {
  return loadOrCreate(
    path.join(dataDir, "fleet-secret"),
    () => randomBytes(32).toString("hex"),
    (text) => /^[0-9a-f]{64}$/.test(text),
    "a 64-digit hex secret",
  );
}

/**
 * The super-user token every appliance accepts when none was given (`--bootstrap-token`, BNG_BOOTSTRAP_TOKEN):
 * made once and kept in `<dataDir>/bootstrap-token` (0600), so a restart on the same data keeps the scripts that
 * hold it working. Only its SHA-256 reaches an appliance; the launcher prints it only where asked (`--json`).
 */
export async function loadBootstrapToken(dataDir: string): Promise<{ token: string; file: string; created: boolean }> {
  const file = path.join(dataDir, "bootstrap-token");
  const { secret, created } = await loadOrCreate(file, newToken, isWellFormedToken, "a well-formed bngtok_ token");
  return { token: secret, file, created };
}

/** Reads a one-line secret, creating it (0600) if absent; a damaged file is reported rather than silently replaced. */
async function loadOrCreate(
  file: string,
  make: () => string,
  valid: (text: string) => boolean,
  what: string,
): Promise<{ secret: string; created: boolean }> {
  await mkdir(path.dirname(file), { recursive: true });
  const read = async (): Promise<string | undefined> => {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    const secret = text.trim();
    // Peers' tokens derive from the fleet secret, and scripts hold the token: neither is replaced behind their back.
    if (!valid(secret))
      throw new LaunchError(`${file} does not hold ${what}; fix it or delete it to generate a new one`);
    return secret;
  };
  const existing = await read();
  if (existing !== undefined) return { secret: existing, created: false };
  const fresh = make();
  try {
    // "wx" refuses to overwrite: if another launcher won the race, use its secret.
    await writeFile(file, fresh + "\n", { mode: 0o600, flag: "wx" });
    return { secret: fresh, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const theirs = await read();
    if (theirs === undefined) throw error;
    return { secret: theirs, created: false };
  }
}

/**
 * The local fleet's development vendor key (its private half signs packages, the appliances verify with the
 * public half: BNG_UPGRADE_PUBLIC_KEY), creating `<dataDir>/upgrade-signing-key.pem` (0600) on first use.
 */
export async function loadUpgradeSigningKey(
  dataDir: string,
): Promise<{ privatePem: string; publicPem: string; created: boolean; file: string }> {
  const file = path.join(dataDir, "upgrade-signing-key.pem");
  await mkdir(dataDir, { recursive: true });
  const read = async (created: boolean) => {
    const privatePem = await readFile(file, "utf8");
    let key;
    try {
      key = createPrivateKey(privatePem);
    } catch {
      key = undefined;
    }
    if (key?.asymmetricKeyType !== "ed25519")
      throw new LaunchError(
        `${file} does not hold an Ed25519 private key (PEM); fix it or delete it to generate a new one`,
      );
    return {
      privatePem,
      publicPem: createPublicKey(key).export({ type: "spki", format: "pem" }) as string,
      created,
      file,
    };
  };
  try {
    return await read(false);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const { privateKey } = generateKeyPairSync("ed25519");
  try {
    // "wx" refuses to overwrite: if another launcher won the race, use its key.
    await writeFile(file, privateKey.export({ type: "pkcs8", format: "pem" }) as string, { mode: 0o600, flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    return read(false);
  }
  return read(true);
}
