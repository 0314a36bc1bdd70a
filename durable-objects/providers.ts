/**
 * External sign-in configuration: OIDC providers (client secrets kept
 * write-only) and the passkey policy, in the appliance's SQLite.
 */
import type { OidcProviderRecord, OidcProviderWrite, PasskeyPolicy } from "../src/schemas/auth.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import { OIDC_DISCOVERY_TTL_MS, discover, type Discovery, type SignInProvider } from "../src/trust/oidc.ts";
import { REDACTED } from "../src/config/registry.ts";

type StoredProvider = Omit<OidcProviderRecord, "clientSecretSet" | "callbackPath" | "name">;

const DEFAULT_PASSKEY_POLICY: PasskeyPolicy = {
  enabled: false,
  rpId: null,
  userVerification: "preferred",
  replacesTotp: false,
};

/**
 * The settings that decide who a provider's user is and which role they get:
 * a change to any of them (or disabling, or deleting the provider) ends the
 * sessions it vouched for, which were granted under the old rules.
 */
const IDENTITY_SETTINGS = [
  "enabled",
  "issuer",
  "clientId",
  "scopes",
  "usernameClaim",
  "groupsClaim",
  "fetchUserInfo",
  "roleMap",
] as const;

/** Ends the sessions of a provider, saying why. */
export type EndProviderSessions = (provider: string, reason: string) => void;

type Discovered = Outcome<{ discovery: Discovery }>;

export class ProviderStore {
  readonly #sql: SqlStorage;
  readonly #endSessions: EndProviderSessions;
  /**
   * Discovery documents by provider, with what they were read for (issuer and allowlist) and until when they are
   * reused.
   */
  readonly #discoveries = new Map<string, { key: string; untilMs: number; discovered: Promise<Discovered> }>();

  constructor(sql: SqlStorage, endSessions: EndProviderSessions) {
    this.#sql = sql;
    this.#endSessions = endSessions;
    sql.exec(`
      CREATE TABLE IF NOT EXISTS oidc_providers (
        name TEXT PRIMARY KEY, settings TEXT NOT NULL, client_secret TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS policies (name TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
  }

  /** Every OIDC provider, by name, secrets withheld. */
  list(): OidcProviderRecord[] {
    return this.#sql
      .exec<{ name: string; settings: string; secret_set: number }>(
        "SELECT name, settings, client_secret <> '' AS secret_set FROM oidc_providers ORDER BY name",
      )
      .toArray()
      .map((row) => ({
        name: row.name,
        ...(JSON.parse(row.settings) as StoredProvider),
        clientSecretSet: row.secret_set === 1,
        callbackPath: `/api/v1/auth/oidc/${row.name}/callback`,
      }));
  }

  /** One provider, secret withheld. */
  get(name: string): Outcome<{ provider: OidcProviderRecord }> {
    const provider = this.list().find((p) => p.name === name);
    return provider ? { ok: true, provider } : refuse("not-found", `no OIDC provider '${name}'`);
  }

  /**
   * An enabled provider's settings with its client secret, for the sign-in
   * routes' code exchange only (every read the API serves withholds it).
   */
  signInSettings(name: string): Outcome<{ provider: SignInProvider; redirectUri: string | null }> {
    const row = this.#sql
      .exec<{ settings: string; client_secret: string }>(
        "SELECT settings, client_secret FROM oidc_providers WHERE name = ?",
        name,
      )
      .toArray()[0];
    const settings = row ? (JSON.parse(row.settings) as StoredProvider) : null;
    if (!row || !settings?.enabled) return refuse("not-found", `no enabled OIDC provider '${name}'`);
    if (row.client_secret === "")
      return refuse(
        "conflict",
        `OIDC provider '${name}' has no client secret (it was dropped when its issuer ` +
          `changed): write clientSecret with PUT /api/v1/auth/providers/oidc/${name}`,
      );
    const { issuer, clientId, scopes, usernameClaim, groupsClaim, fetchUserInfo, roleMap, redirectUri } = settings;
    return {
      ok: true,
      provider: {
        name,
        issuer,
        clientId,
        clientSecret: row.client_secret,
        scopes,
        usernameClaim,
        groupsClaim,
        fetchUserInfo,
        roleMap,
      },
      redirectUri,
    };
  }

  /**
   * The provider's discovery document, read at most once per
   * OIDC_DISCOVERY_TTL_MS for one issuer and allowlist: anonymous sign-in
   * starts each need it, and a burst of them (concurrent ones included:
   * they share the read under way) costs the provider one request. A failed
   * read is not kept, so the next start tries again.
   */
  discovery(name: string, issuer: string, allowlist: readonly string[]): Promise<Discovered> {
    const key = JSON.stringify([issuer, allowlist]);
    const now = Date.now();
    const cached = this.#discoveries.get(name);
    if (cached && cached.key === key && cached.untilMs > now) return cached.discovered;
    const discovered = discover(issuer, allowlist);
    const entry = { key, untilMs: now + OIDC_DISCOVERY_TTL_MS, discovered };
    this.#discoveries.set(name, entry);
    void discovered.then((outcome) => {
      if (!outcome.ok && this.#discoveries.get(name) === entry) this.#discoveries.delete(name);
    });
    return discovered;
  }

  /**
   * Creates or replaces a provider. An omitted client secret, or the
   * redaction placeholder a read-modify-write client sends back, keeps the
   * stored one, unless the issuer changes: the secret is then dropped (stored
   * as '') unless this write sets it, so it never reaches another provider.
   */
  put(name: string, write: OidcProviderWrite): Outcome<{ created: boolean }> {
    const { clientSecret, name: _ignored, ...rest } = write;
    const settings: StoredProvider = { ...rest, redirectUri: rest.redirectUri ?? null };
    const existing = this.#sql
      .exec<{ settings: string; client_secret: string }>(
        "SELECT settings, client_secret FROM oidc_providers WHERE name = ?",
        name,
      )
      .toArray()[0];
    const given = clientSecret === undefined || clientSecret === REDACTED ? undefined : clientSecret;
    const before = existing === undefined ? undefined : (JSON.parse(existing.settings) as StoredProvider);
    const issuerMoved = before !== undefined && before.issuer !== settings.issuer;
    const secret = given ?? (issuerMoved ? "" : existing?.client_secret);
    if (secret === undefined)
      return refuse("invalid", "clientSecret is required when creating a provider", { pointer: "#/clientSecret" });
    this.#sql.exec(
      "INSERT INTO oidc_providers (name, settings, client_secret) VALUES (?, ?, ?) ON " +
        "CONFLICT (name) DO UPDATE SET settings = excluded.settings, client_secret = " +
        "excluded.client_secret",
      name,
      JSON.stringify(settings),
      secret,
    );
    this.#discoveries.delete(name);
    const changed = before
      ? IDENTITY_SETTINGS.filter((key) => JSON.stringify(before[key]) !== JSON.stringify(settings[key]))
      : [];
    if (changed.length > 0) this.#endSessions(name, `provider changed: ${changed.join(", ")}`);
    return { ok: true, created: existing === undefined };
  }

  /** Deletes a provider. */
  delete(name: string): Outcome<object> {
    const deleted = this.#sql.exec("DELETE FROM oidc_providers WHERE name = ?", name).rowsWritten;
    if (deleted === 0) return refuse("not-found", `no OIDC provider '${name}'`);
    this.#discoveries.delete(name);
    this.#endSessions(name, "provider deleted");
    return { ok: true };
  }

  /** The passkey policy (defaults: disabled). */
  passkeyPolicy(): PasskeyPolicy {
    const row = this.#sql.exec<{ value: string }>("SELECT value FROM policies WHERE name = 'passkey'").toArray()[0];
    return row ? (JSON.parse(row.value) as PasskeyPolicy) : DEFAULT_PASSKEY_POLICY;
  }

  /** Replaces the passkey policy. */
  setPasskeyPolicy(policy: PasskeyPolicy): void {
    this.#sql.exec(
      "INSERT INTO policies (name, value) VALUES ('passkey', ?) ON CONFLICT (name) DO " +
        "UPDATE SET value = excluded.value",
      JSON.stringify(policy),
    );
  }
}
