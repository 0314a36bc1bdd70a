/**
 * How an appliance gets its first super-user, and when it refuses to start.
 *
 * Deployed (see src/fleet/deployment.ts for how that is told), there is no
 * default password: the first `admin` gets `BNG_ADMIN_PASSWORD`, or, when only
 * a bootstrap token is set, a random password nobody knows (a super-user token
 * then sets one with `POST /api/v1/auth/users/admin/password`). With neither,
 * the appliance answers every request with 503 until one is set: seeding a
 * well-known password on a public hostname would hand the box to whoever
 * signs in first.
 *
 * In the local fleet the development default stays, printed as such, and a
 * session signed in with it must change the password before anything else
 * (`passwordChangeRequired`).
 */
import type { Deployment } from "../fleet/deployment.ts";
import { randomBytes, toHex } from "../trust/encoding.ts";
import { hashPassword } from "../trust/password.ts";
import { TOKEN_PREFIX, isWellFormedToken } from "../trust/tokens.ts";

/** The development default of the bootstrap `admin` password (local fleet only). */
export const DEFAULT_ADMIN_PASSWORD = "bngfleet-admin";

/** The bindings this decision reads. */
export interface BootstrapEnv {
  BNG_ADMIN_PASSWORD?: string | undefined;
  BNG_BOOTSTRAP_TOKEN?: string | undefined;
}

/**
 * The password the first `admin` is seeded with: configured, the development default (local only), or none anyone
 * knows.
 */
export type AdminSeed =
  | { kind: "configured"; password: string }
  | { kind: "development-default"; password: string }
  | { kind: "unusable" };

/** Decides the first `admin`'s password. */
export function adminSeed(env: BootstrapEnv, deployment: Deployment): AdminSeed {
  if (env.BNG_ADMIN_PASSWORD) return { kind: "configured", password: env.BNG_ADMIN_PASSWORD };
  if (deployment === "local") return { kind: "development-default", password: DEFAULT_ADMIN_PASSWORD };
  return { kind: "unusable" };
}

/**
 * The development default's hash, made once per isolate. PBKDF2 holds the isolate's thread for about 40 ms (100 ms
 * on a slow machine), and every appliance of a local fleet seeds its `admin` with this one published password: at
 * 1,000 appliances in two processes, hashing it was a third of the fleet's minute to readiness. A salt shared by the
 * hashes of a password everyone knows hides nothing. Any other first password is hashed per appliance, with a salt
 * of its own.
 */
let developmentDefaultHash: Promise<string> | undefined;

/** The stored hash of the first `admin`'s password. */
export function firstAdminHash(seed: AdminSeed): Promise<string> {
  if (seed.kind === "development-default") {
    // A failed hash is not kept: the next appliance to open tries again.
    developmentDefaultHash ??= hashPassword(seed.password).catch((error: unknown) => {
      developmentDefaultHash = undefined;
      throw error;
    });
    return developmentDefaultHash;
  }
  // Deployed with no password configured: one nobody knows (a super-user token then sets one).
  return hashPassword(seed.kind === "configured" ? seed.password : toHex(randomBytes(32)));
}

/** Each bindings object's answer: the Worker asks at every request, and the token's checksum is a CRC-32 over it. */
const refusals = new WeakMap<BootstrapEnv, Map<Deployment, string | null>>();

/** Why the appliance refuses to serve with these bindings, or null when it can serve. */
export function startupRefusal(env: BootstrapEnv, deployment: Deployment): string | null {
  let known = refusals.get(env);
  if (known === undefined) refusals.set(env, (known = new Map()));
  const cached = known.get(deployment);
  if (cached !== undefined) return cached;
  const refusal = refusalOf(env, deployment);
  known.set(deployment, refusal);
  return refusal;
}

function refusalOf(env: BootstrapEnv, deployment: Deployment): string | null {
  if (env.BNG_BOOTSTRAP_TOKEN && !isWellFormedToken(env.BNG_BOOTSTRAP_TOKEN)) {
    return (
      `BNG_BOOTSTRAP_TOKEN is not a well-formed token (${TOKEN_PREFIX} + 30 base62 ` +
      `characters + a 6-character checksum); make one with 'npx bngfleet token'`
    );
  }
  if (deployment === "deployed" && !env.BNG_ADMIN_PASSWORD && !env.BNG_BOOTSTRAP_TOKEN) {
    return (
      "this appliance has no administrator credential: a deployed fleet has no default " +
      "password. Set one with 'wrangler secret put BNG_ADMIN_PASSWORD' (or " +
      "BNG_BOOTSTRAP_TOKEN)"
    );
  }
  return null;
}
