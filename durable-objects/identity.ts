/**
 * Everything that authenticates against `login.users`: the running copy of
 * the accounts (the configuration holds their definition) with each one's
 * login state (TOTP enrolment, last login, lockouts), API tokens, browser
 * sessions and pending TOTP enrolments, in the appliance's SQLite. The
 * rules (lockout, throttling, session, token and enrolment expiry, the OIDC
 * return check, code replay) are pure functions in src/trust/; this store
 * reads the rows, asks them and writes
 * back what they decide. Its methods run inside the Durable Object, so those
 * read-check-write steps are atomic.
 */
import type { Role } from "../src/auth/roles.ts";
import type {
  BrowserSessionRecord,
  LoginResponse,
  TokenCreated,
  TokenRecord,
  UserRecord,
} from "../src/schemas/auth.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import type { Principal } from "../src/schemas/principal.ts";
import { constantTimeEqual, hmacSha256, randomBytes, sha256Hex, toHex } from "../src/trust/encoding.ts";
import { DEFAULT_ADMIN_PASSWORD } from "../src/auth/bootstrap.ts";
import { checkEnrolment, enrolmentExpiresMs, readEnrolmentToken, signEnrolmentToken } from "../src/trust/enrolment.ts";
import { DECOY_HASH, verifyPassword } from "../src/trust/password.ts";
import { checkSession, newSessionSecrets, sessionExpiresMs } from "../src/trust/session.ts";
import { checkToken, mayRevoke, newToken, newTokenExpiry, tokenHint, tokensRevokedBy } from "../src/trust/tokens.ts";
import { OIDC_PENDING_MAX, checkOidcReturn, oidcPendingExpiresMs } from "../src/trust/oidc.ts";
import type { PasskeyStore } from "./passkeys.ts";
import type { IdentityEvent } from "./identity-event.ts";
import { checkReplay, newTotpSecret, totpUri, verifyTotp } from "../src/trust/totp.ts";
import { FAILURE_ROWS_MAX, SOURCE_BUCKETS_MAX, takeLoginToken, type Bucket } from "../src/trust/login-limits.ts";
import {
  accountRemembered,
  checkLock,
  forgetBeforeMs,
  locksAfterFailure,
  mayTryPastLock,
  pairRemembered,
  pairShown,
  type FailureRecord,
} from "../src/trust/lockout.ts";

/** Hex digits of a session id's SHA-256 that name it in the API. */
export const SESSION_HANDLE_LENGTH = 16;

const BAD_CREDENTIALS = "invalid username, password or code";

export type LoginOutcome = Outcome<{ response: LoginResponse; sessionId?: string }>;

interface UserRow {
  username: string;
  role: Role;
  password_hash: string;
  totp_secret: string | null;
  totp_last_step: number | null;
  must_enrol: number;
  created_ms: number;
  password_changed_ms: number;
  last_login_ms: number | null;
  password_is_default: number;
  [key: string]: SqlStorageValue;
}

interface TokenRow {
  id: string;
  name: string;
  role: Role;
  prefix: string;
  sha256: string;
  created_ms: number;
  created_by: string;
  last_used_ms: number | null;
  expires_ms: number | null;
  source: "api" | "config";
  [key: string]: SqlStorageValue;
}

/**
 * Sessions with the account each local one belongs to; an external (OIDC) session has none and carries its role itself.
 */
const SESSIONS_WITH_ACCOUNTS = "sessions s LEFT JOIN users u ON u.username = s.username AND s.provider IS NULL";
const SESSION_ROLE = "CASE WHEN s.provider IS NULL THEN u.role ELSE s.role END";

const iso = (ms: number) => new Date(ms).toISOString();
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export class IdentityStore {
  readonly #sql: SqlStorage;
  /**
   * Token rows by hash, as last read: every request with a bearer token looks
   * one up, and a SQLite read costs about as much as the rest of a small
   * request. Only rows found are kept (unknown hashes would grow it), and
   * every write to the table goes through `#writeTokens`, which empties it.
   */
  readonly #tokenByHash = new Map<string, TokenRow>();
  /**
   * Token uses not yet written, by id (`deferTouches`): their "last used"
   * waits for `writeTouches`, which the appliance calls from its tick. A write
   * on a read path is a commit, and each commit is a disk sync on the thread
   * every appliance of the process shares: the first fleet overview after a
   * quiet minute, which touches the peer token on every appliance, spent
   * nearly half of its time on those syncs at 1,000 appliances
   * (docs/benchmark.md, "The fleet's fan-outs at 1,000"). Records read here
   * show the pending use.
   */
  readonly #touches = new Map<string, number>();
  readonly #deferTouches: boolean;
  readonly #appliance: string;
  readonly #emit: (event: IdentityEvent) => void;
  readonly #passkeys: PasskeyStore;
  #signingKey!: Uint8Array<ArrayBuffer>;
  /** Login buckets (src/trust/login-limits.ts): in memory, as a restart costing a burst is harmless. */
  readonly #sourceBuckets = new Map<string, Bucket>();
  #totalBucket: Bucket | undefined;

  /**
   * `deferTouches`: a token's use is written by `writeTouches` (the appliance's tick) rather than at once; false where
   * nothing ticks (BNG_CLOCK=manual).
   */
  constructor(
    sql: SqlStorage,
    appliance: string,
    emit: (event: IdentityEvent) => void,
    passkeys: PasskeyStore,
    { deferTouches = false } = {},
  ) {
    this.#sql = sql;
    this.#deferTouches = deferTouches;
    this.#appliance = appliance;
    this.#emit = emit;
    this.#passkeys = passkeys;
  }

  /** Creates the tables and the signing key; the accounts come from `login.users` (`syncAccounts`). */
  open(): void {
    this.#sql.exec(`
      CREATE TABLE IF NOT EXISTS users (
        username TEXT PRIMARY KEY, role TEXT NOT NULL, password_hash TEXT NOT NULL,
        totp_secret TEXT, totp_last_step INTEGER, must_enrol INTEGER NOT NULL,
        created_ms INTEGER NOT NULL, password_changed_ms INTEGER NOT NULL, last_login_ms INTEGER);
      CREATE TABLE IF NOT EXISTS tokens (
        id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL, prefix TEXT NOT NULL, sha256 TEXT NOT NULL UNIQUE,
        created_ms INTEGER NOT NULL, created_by TEXT NOT NULL, last_used_ms INTEGER, expires_ms INTEGER,
        source TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS sessions (
        id_sha256 TEXT PRIMARY KEY, username TEXT NOT NULL, csrf_token TEXT NOT NULL,
        created_ms INTEGER NOT NULL, last_seen_ms INTEGER NOT NULL, source_ip TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS login_failures (
        username TEXT NOT NULL, source_ip TEXT NOT NULL, failures INTEGER NOT NULL, locked_until_ms INTEGER,
        PRIMARY KEY (username, source_ip));
      CREATE TABLE IF NOT EXISTS enrolments (
        id TEXT PRIMARY KEY, username TEXT NOT NULL, secret TEXT NOT NULL, expires_ms INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS oidc_pending (
        state_sha256 TEXT PRIMARY KEY, binding_sha256 TEXT NOT NULL, provider TEXT NOT NULL,
        nonce TEXT NOT NULL, verifier TEXT NOT NULL, return_to TEXT NOT NULL, expires_ms INTEGER NOT NULL);
    `);
    // Sessions of external identities (OIDC) carry their own role and provider; local ones read the account's.
    const columns = this.#sql
      .exec<{ name: string }>("SELECT name FROM pragma_table_info('sessions')")
      .toArray()
      .map((c) => c.name);
    if (!columns.includes("provider"))
      this.#sql.exec("ALTER TABLE sessions ADD COLUMN provider TEXT; ALTER TABLE sessions ADD COLUMN role TEXT;");
    // Set while the account's password is the published development default (seen at its last login).
    const userColumns = this.#sql
      .exec<{ name: string }>("SELECT name FROM pragma_table_info('users')")
      .toArray()
      .map((c) => c.name);
    if (!userColumns.includes("password_is_default"))
      this.#sql.exec("ALTER TABLE users ADD COLUMN password_is_default INTEGER NOT NULL DEFAULT 0");
    // Failure counts expire (rows from before this column count as old); the account-wide count has its own table.
    const failureColumns = this.#sql
      .exec<{ name: string }>("SELECT name FROM pragma_table_info('login_failures')")
      .toArray()
      .map((c) => c.name);
    if (!failureColumns.includes("last_failure_ms"))
      this.#sql.exec("ALTER TABLE login_failures ADD COLUMN last_failure_ms INTEGER NOT NULL DEFAULT 0");
    this.#sql.exec(`
      CREATE TABLE IF NOT EXISTS account_failures (
        username TEXT PRIMARY KEY, failures INTEGER NOT NULL, last_failure_ms INTEGER NOT NULL,
        locked_until_ms INTEGER);
      CREATE INDEX IF NOT EXISTS login_failures_by_age ON login_failures (last_failure_ms);
      CREATE INDEX IF NOT EXISTS account_failures_by_age ON account_failures (last_failure_ms);
    `);
    // Of an account's failures, the wrong second factors: they decide whether a code may still pass a lock
    // (mayTryPastLock).
    const accountColumns = this.#sql
      .exec<{ name: string }>("SELECT name FROM pragma_table_info('account_failures')")
      .toArray()
      .map((c) => c.name);
    if (!accountColumns.includes("code_failures"))
      this.#sql.exec("ALTER TABLE account_failures ADD COLUMN code_failures INTEGER NOT NULL DEFAULT 0");
    let key = this.#sql
      .exec<{ value: string }>("SELECT value FROM secrets WHERE name = 'enrolment-signing-key'")
      .toArray()[0]?.value;
    if (!key) {
      key = toHex(randomBytes(32));
      this.#sql.exec("INSERT INTO secrets (name, value) VALUES ('enrolment-signing-key', ?)", key);
    }
    this.#signingKey = new TextEncoder().encode(key) as Uint8Array<ArrayBuffer>;
  }

  /**
   * Makes the tokens the configuration provisions (`bootstrap`, `fleet:<peer>`)
   * exactly the given set: added, re-keyed or removed to match.
   */
  async provisionTokens(wanted: { name: string; role: Role; plaintext: string }[]): Promise<void> {
    const hashed = await Promise.all(wanted.map(async (t) => ({ ...t, sha256: await sha256Hex(t.plaintext) })));
    const existing = this.#sql.exec<TokenRow>("SELECT * FROM tokens WHERE source = 'config'").toArray();
    for (const row of existing) {
      const match = hashed.find((t) => t.name === row.name);
      if (!match || match.sha256 !== row.sha256 || match.role !== row.role)
        this.#writeTokens("DELETE FROM tokens WHERE id = ?", row.id);
    }
    for (const token of hashed) {
      if (existing.some((row) => row.name === token.name && row.sha256 === token.sha256 && row.role === token.role))
        continue;
      this.#writeTokens("DELETE FROM tokens WHERE sha256 = ?", token.sha256);
      this.#writeTokens(
        "INSERT INTO tokens (id, name, role, prefix, sha256, created_ms, created_by, " +
          "source) VALUES (?, ?, ?, ?, ?, ?, 'configuration', 'config')",
        toHex(randomBytes(8)),
        token.name,
        token.role,
        tokenHint(token.plaintext),
        token.sha256,
        Date.now(),
      );
    }
  }

  // ── per-request authentication ───────────────────────────────────────────

  /**
   * The principal behind a token or session hash, or null; refreshes "last used" at most once a minute (unless `touch`
   * is false: a recheck is not a use).
   */
  authenticate(via: "token" | "session", sha256: string, touch = true): Principal | null {
    const now = Date.now();
    if (via === "token") {
      let row = this.#tokenByHash.get(sha256);
      if (!row) {
        row = this.#sql.exec<TokenRow>("SELECT * FROM tokens WHERE sha256 = ?", sha256).toArray()[0];
        if (!row) return null;
        this.#tokenByHash.set(sha256, row);
      }
      const decision = checkToken({ expiresMs: row.expires_ms, lastUsedMs: this.#lastUsedMs(row) }, now);
      if (!decision.ok) return null;
      if (touch && decision.touch) {
        if (this.#deferTouches) this.#touches.set(row.id, now);
        else this.#writeTokens("UPDATE tokens SET last_used_ms = ? WHERE id = ?", now, row.id);
      }
      return {
        via,
        role: row.role,
        username: row.source === "api" ? row.created_by : null,
        tokenId: row.id,
        tokenName: row.name,
        csrfToken: null,
      };
    }
    const row = this.#sql
      .exec<{
        username: string;
        role: Role | null;
        csrf_token: string;
        created_ms: number;
        last_seen_ms: number;
        password_is_default: number | null;
      }>(
        `SELECT s.username, ${SESSION_ROLE} AS role, s.csrf_token, s.created_ms, ` +
          `s.last_seen_ms, u.password_is_default FROM ${SESSIONS_WITH_ACCOUNTS} WHERE ` +
          `s.id_sha256 = ?`,
        sha256,
      )
      .toArray()[0];
    if (!row?.role) return null;
    const decision = checkSession({ createdMs: row.created_ms, lastSeenMs: row.last_seen_ms }, now);
    if (!decision.ok) {
      this.#sql.exec("DELETE FROM sessions WHERE id_sha256 = ?", sha256);
      return null;
    }
    if (touch && decision.touch)
      this.#sql.exec("UPDATE sessions SET last_seen_ms = ? WHERE id_sha256 = ?", now, sha256);
    return {
      via,
      role: row.role as Role,
      username: row.username,
      tokenId: null,
      tokenName: null,
      csrfToken: row.csrf_token,
      passwordChangeRequired: row.password_is_default === 1,
    };
  }

  // ── login state machine ──────────────────────────────────────────────────

  /**
   * POST /auth/login: the spec's login table, with lockout per account and
   * source IP. Where the passkey policy allows, a passkey's answer to the
   * `passkeyOptions` of a `totpCodeRequired` reply stands in for the code.
   */
  async login(
    username: string,
    password: string,
    totpCode: string | null,
    sourceIp: string,
    passkey: unknown = null,
  ): Promise<LoginOutcome> {
    const now = Date.now();
    // A lock yields to a login with a TOTP code (the owner's way in that a locker cannot block); it then answers every
    // failure.
    const locked = this.#checkLock(username, sourceIp, now);
    if (
      locked &&
      !mayTryPastLock(
        { totpCode, passkey },
        this.#count("SELECT code_failures AS n FROM account_failures WHERE username = ?", username),
      )
    )
      return locked;
    const fail = async (factor: "password" | "totp" | "passkey") => {
      const failed = await this.#failed(username, sourceIp, factor);
      // Past a lock, a failure is answered as the lock (its end as this failure may have moved it).
      return locked ? (this.#checkLock(username, sourceIp, Date.now()) ?? locked) : failed;
    };
    // Before the slow hash: anonymous logins may not spend the appliance's CPU faster than the buckets allow.
    const throttled = this.#throttle(sourceIp, now);
    if (throttled) return throttled;
    // Counted before the slow hash, so parallel guesses cannot outrun the counter.
    this.#countAttempt(username, sourceIp, now);
    // PBKDF2 blocks the object's thread (about 40 ms in workerd): step behind the requests already
    // waiting, so a burst of logins delays other requests by one hash at a time, not by the whole burst.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const user = this.#user(username);
    const passwordOk = await verifyPassword(password, user?.password_hash ?? DECOY_HASH);
    if (!user || !passwordOk) return fail("password");
    // Past a lock only with the code this account's authenticator shows (not by enrolling one now).
    if (locked && user.totp_secret === null) return fail("totp");
    // The published development default still in use: the session this login opens may only change it.
    const isDefault = constantTimeEqual(password, DEFAULT_ADMIN_PASSWORD) ? 1 : 0;
    if (user.password_is_default !== isDefault)
      this.#sql.exec("UPDATE users SET password_is_default = ? WHERE username = ?", isDefault, username);

    if (user.totp_secret !== null && passkey !== null) {
      if (!(await this.#passkeys.verifySecondFactor(username, passkey))) return fail("passkey");
    } else if (user.totp_secret !== null) {
      if (!totpCode) {
        this.#uncountAttempt(username, sourceIp);
        const passkeyOptions = await this.#passkeys.secondFactorOptions(username);
        return { ok: true, response: { status: "totpCodeRequired", ...(passkeyOptions ? { passkeyOptions } : {}) } };
      }
      const verified = await verifyTotp(user.totp_secret, totpCode, null, now);
      // Re-read after the await: a concurrent login may have used this code meanwhile.
      const lastStep = this.#user(username)?.totp_last_step ?? null;
      if (!verified.ok || !checkReplay(verified.timeStep, lastStep).ok) return fail("totp");
      this.#sql.exec("UPDATE users SET totp_last_step = ? WHERE username = ?", verified.timeStep, username);
    } else if (user.must_enrol) {
      this.#uncountAttempt(username, sourceIp);
      return { ok: true, response: await this.#startEnrolment(username, now) };
    }
    return this.#loggedIn(user, sourceIp, now, "login");
  }

  /** POST /auth/enrol: the enrolment token and the first code complete enrolment and log in. */
  async enrol(enrolmentToken: string, totpCode: string, sourceIp: string): Promise<LoginOutcome> {
    const now = Date.now();
    const claims = await readEnrolmentToken(this.#signingKey, enrolmentToken, now);
    if (!claims) return refuse("bad-credentials", "the enrolment token is invalid or has expired; log in again");
    const locked = this.#checkLock(claims.username, sourceIp, now);
    if (locked) return locked;
    this.#countAttempt(claims.username, sourceIp, now);
    const pending = this.#sql
      .exec<{ secret: string; expires_ms: number }>(
        "SELECT secret, expires_ms FROM enrolments WHERE id = ? AND username = ?",
        claims.enrolmentId,
        claims.username,
      )
      .toArray()[0];
    // A token whose enrolment was superseded by a later login is a failure like any other: logged, and its lock ends.
    const open = checkEnrolment(pending ? { expiresMs: pending.expires_ms } : null, now);
    // (`!pending` is checkEnrolment's "superseded", repeated so the compiler knows the row is there below.)
    if (!open.ok || !pending)
      return this.#failed(
        claims.username,
        sourceIp,
        "enrolment",
        "the enrolment token is invalid or has expired; log in again",
      );
    const verified = await verifyTotp(pending.secret, totpCode, null, now);
    if (!verified.ok) return this.#failed(claims.username, sourceIp, "totp");
    const user = this.#user(claims.username);
    if (!user) return refuse("bad-credentials", BAD_CREDENTIALS);
    this.#sql.exec(
      "UPDATE users SET totp_secret = ?, totp_last_step = ?, must_enrol = 0 WHERE username = ?",
      pending.secret,
      verified.timeStep,
      user.username,
    );
    this.#sql.exec("DELETE FROM enrolments WHERE username = ?", user.username);
    this.#emit({ severity: "notice", msgId: "auth.totp.enrolled", fields: { username: user.username } });
    return this.#loggedIn(user, sourceIp, now, "enrol");
  }

  /** Ends a session server-side. */
  logout(sessionSha256: string): void {
    const row = this.#sql
      .exec<{ username: string }>("SELECT username FROM sessions WHERE id_sha256 = ?", sessionSha256)
      .toArray()[0];
    this.#sql.exec("DELETE FROM sessions WHERE id_sha256 = ?", sessionSha256);
    if (row) this.#emit({ severity: "info", msgId: "auth.logout", fields: { username: row.username } });
  }

  async #startEnrolment(username: string, now: number): Promise<LoginResponse> {
    const id = toHex(randomBytes(16));
    const secret = newTotpSecret();
    // Rows at or past their expiry are the ones checkEnrolment refuses: purged with the account's older ones.
    this.#sql.exec("DELETE FROM enrolments WHERE username = ? OR expires_ms <= ?", username, now);
    this.#sql.exec(
      "INSERT INTO enrolments (id, username, secret, expires_ms) VALUES (?, ?, ?, ?)",
      id,
      username,
      secret,
      enrolmentExpiresMs(now),
    );
    return {
      status: "totpEnrolmentRequired",
      enrolmentToken: await signEnrolmentToken(this.#signingKey, username, id, now),
      secret,
      otpauthUri: totpUri(`bngfleet ${this.#appliance}`, username, secret),
    };
  }

  async #loggedIn(user: UserRow, sourceIp: string, now: number, how: "login" | "enrol"): Promise<LoginOutcome> {
    this.#sql.exec("DELETE FROM login_failures WHERE username = ? AND source_ip = ?", user.username, sourceIp);
    this.#sql.exec("DELETE FROM account_failures WHERE username = ?", user.username);
    this.#sql.exec("UPDATE users SET last_login_ms = ? WHERE username = ?", now, user.username);
    // A new id on every login (no session fixation); stored only as its SHA-256.
    const { sessionId, csrfToken } = newSessionSecrets();
    this.#sql.exec(
      "INSERT INTO sessions (id_sha256, username, csrf_token, created_ms, " +
        "last_seen_ms, source_ip) VALUES (?, ?, ?, ?, ?, ?)",
      await sha256Hex(sessionId),
      user.username,
      csrfToken,
      now,
      now,
      sourceIp,
    );
    this.#emit({ severity: "notice", msgId: "auth.login", fields: { username: user.username, sourceIp, via: how } });
    const passwordChangeRequired = this.#user(user.username)?.password_is_default === 1;
    return {
      ok: true,
      sessionId,
      response: {
        status: "success",
        username: user.username,
        role: user.role,
        csrfToken,
        ...(passwordChangeRequired ? { passwordChangeRequired } : {}),
      },
    };
  }

  /** A 423 while the account, or the account and source pair, is locked (src/trust/lockout.ts decides). */
  #checkLock(username: string, sourceIp: string, now: number): LoginOutcome | null {
    const pair = this.#sql
      .exec<{ failures: number; locked_until_ms: number | null }>(
        "SELECT failures, locked_until_ms FROM login_failures WHERE username = ? AND source_ip = ?",
        username,
        sourceIp,
      )
      .toArray()[0];
    const account = this.#sql
      .exec<{ locked_until_ms: number | null }>(
        "SELECT locked_until_ms FROM account_failures WHERE username = ?",
        username,
      )
      .toArray()[0];
    const decision = checkLock(
      pair ? { failures: pair.failures, lockedUntilMs: pair.locked_until_ms } : null,
      account ? { lockedUntilMs: account.locked_until_ms } : null,
      now,
    );
    if (decision.forgetPair)
      this.#sql.exec("DELETE FROM login_failures WHERE username = ? AND source_ip = ?", username, sourceIp);
    if (decision.ok) return null;
    // Counted up to the threshold by attempts still running: the lock starts now and is stored with its end.
    if (decision.startsNow)
      this.#sql.exec(
        "UPDATE login_failures SET locked_until_ms = ? WHERE username = ? AND source_ip = ?",
        decision.untilMs,
        username,
        sourceIp,
      );
    const from = decision.scope === "pair" ? `from ${sourceIp}` : "from several addresses";
    return refuse(
      "locked",
      `too many failed logins for this account ${from}; try again after ${iso(decision.untilMs)}`,
      { retryAfterSeconds: decision.retryAfterSeconds },
    );
  }

  /** Takes a token from the source's bucket and the appliance's; a 429 when either is empty. */
  #throttle(sourceIp: string, now: number): LoginOutcome | null {
    const decision = takeLoginToken(this.#sourceBuckets.get(sourceIp), this.#totalBucket, now);
    if (!decision.ok) {
      const seconds = decision.retryAfterSeconds;
      if (decision.scope === "source") {
        this.#sourceBuckets.set(sourceIp, decision.bucket);
        return refuse("throttled", `too many login attempts from ${sourceIp}; retry in ${seconds} s`, {
          retryAfterSeconds: seconds,
        });
      }
      this.#totalBucket = decision.bucket;
      return refuse("throttled", `the appliance is receiving too many login attempts; retry in ${seconds} s`, {
        retryAfterSeconds: seconds,
      });
    }
    this.#sourceBuckets.delete(sourceIp);
    this.#sourceBuckets.set(sourceIp, decision.source);
    this.#totalBucket = decision.total;
    // Oldest first: a forgotten bucket is a full one, the state of a source not heard from for a while.
    while (this.#sourceBuckets.size > SOURCE_BUCKETS_MAX)
      this.#sourceBuckets.delete(this.#sourceBuckets.keys().next().value!);
    return null;
  }

  /** Counts an attempt for the pair and the account; forgets stale counts and keeps the tables bounded. */
  #countAttempt(username: string, sourceIp: string, now: number): void {
    this.#forget("login_failures", pairRemembered, now);
    this.#forget("account_failures", accountRemembered, now);
    this.#sql.exec(
      "INSERT INTO login_failures (username, source_ip, failures, last_failure_ms) " +
        "VALUES (?, ?, 1, ?) ON CONFLICT (username, source_ip) DO UPDATE SET failures = " +
        "failures + 1, last_failure_ms = excluded.last_failure_ms",
      username,
      sourceIp,
      now,
    );
    this.#sql.exec(
      "INSERT INTO account_failures (username, failures, last_failure_ms) VALUES (?, " +
        "1, ?) ON CONFLICT (username) DO UPDATE SET failures = failures + 1, " +
        "last_failure_ms = excluded.last_failure_ms",
      username,
      now,
    );
    for (const table of ["login_failures", "account_failures"]) {
      const excess = this.#count(`SELECT COUNT(*) AS n FROM ${table}`) - FAILURE_ROWS_MAX;
      if (excess > 0)
        this.#sql.exec(
          `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} ORDER BY last_failure_ms LIMIT ?)`,
          excess,
        );
    }
  }

  /**
   * Deletes the counts the lockout rules no longer remember. The query only
   * narrows the rows to those past the memory or a lock's end (every row
   * either rule forgets is among them); the rule itself decides.
   */
  #forget(
    table: "login_failures" | "account_failures",
    remembered: (record: FailureRecord, nowMs: number) => boolean,
    now: number,
  ): void {
    const candidates = this.#sql
      .exec<{ id: number; locked_until_ms: number | null; last_failure_ms: number }>(
        `SELECT rowid AS id, locked_until_ms, last_failure_ms FROM ${table} WHERE ` +
          `last_failure_ms < ? OR locked_until_ms <= ?`,
        forgetBeforeMs(now),
        now,
      )
      .toArray();
    for (const row of candidates) {
      if (!remembered({ lockedUntilMs: row.locked_until_ms, lastFailureMs: row.last_failure_ms }, now))
        this.#sql.exec(`DELETE FROM ${table} WHERE rowid = ?`, row.id);
    }
  }

  #uncountAttempt(username: string, sourceIp: string): void {
    this.#sql.exec(
      "UPDATE login_failures SET failures = MAX(0, failures - 1) WHERE username = ? AND source_ip = ?",
      username,
      sourceIp,
    );
    this.#sql.exec("UPDATE account_failures SET failures = MAX(0, failures - 1) WHERE username = ?", username);
  }

  async #failed(
    username: string,
    sourceIp: string,
    factor: "password" | "totp" | "passkey" | "enrolment",
    detail = BAD_CREDENTIALS,
  ): Promise<LoginOutcome> {
    const now = Date.now();
    const failures = this.#count(
      "SELECT failures AS n FROM login_failures WHERE username = ? AND source_ip = ?",
      username,
      sourceIp,
    );
    const accountFailures = this.#count("SELECT failures AS n FROM account_failures WHERE username = ?", username);
    // Unknown usernames are logged by a keyed digest: a password typed into the username field stays out of the log.
    const name = await this.#logName(username);
    if (factor === "totp" || factor === "passkey")
      this.#sql.exec("UPDATE account_failures SET code_failures = code_failures + 1 WHERE username = ?", username);
    this.#emit({
      severity: "warning",
      msgId: "auth.login.failed",
      fields: { username: name, sourceIp, factor, failures },
    });
    for (const lock of locksAfterFailure(failures, accountFailures, now)) {
      if (lock.scope === "pair")
        this.#sql.exec(
          "UPDATE login_failures SET locked_until_ms = ? WHERE username = ? AND source_ip = ?",
          lock.untilMs,
          username,
          sourceIp,
        );
      else this.#sql.exec("UPDATE account_failures SET locked_until_ms = ? WHERE username = ?", lock.untilMs, username);
      this.#emit({
        severity: "warning",
        msgId: "auth.lockout",
        fields: { username: name, sourceIp: lock.scope === "pair" ? sourceIp : "*", seconds: lock.seconds },
      });
    }
    return refuse("bad-credentials", detail);
  }

  /**
   * How a login name appears in the log: an account's name, or `unknown:` and 12 hex digits of an HMAC under this
   * appliance's key.
   */
  async #logName(username: string): Promise<string> {
    if (this.#user(username)) return username;
    return `unknown:${toHex(await hmacSha256(this.#signingKey, `login-name:${username}`)).slice(0, 12)}`;
  }

  // ── browser sessions ─────────────────────────────────────────────────────

  /**
   * The open browser sessions, newest first; expired ones are dropped on the
   * way. A session is named by the first 16 hex digits of its id's SHA-256:
   * enough to act on it, nothing that could be presented as the cookie.
   */
  listSessions(currentSha256: string | null): BrowserSessionRecord[] {
    const now = Date.now();
    const rows = this.#sql
      .exec<{
        id_sha256: string;
        username: string;
        role: Role | null;
        created_ms: number;
        last_seen_ms: number;
        source_ip: string;
      }>(
        `SELECT s.id_sha256, s.username, ${SESSION_ROLE} AS role, s.created_ms, ` +
          `s.last_seen_ms, s.source_ip FROM ${SESSIONS_WITH_ACCOUNTS} ORDER BY ` +
          `s.created_ms DESC, s.id_sha256`,
      )
      .toArray();
    const open = rows.filter((row) => {
      if (checkSession({ createdMs: row.created_ms, lastSeenMs: row.last_seen_ms }, now).ok) return true;
      this.#sql.exec("DELETE FROM sessions WHERE id_sha256 = ?", row.id_sha256);
      return false;
    });
    return open
      .filter((row): row is typeof row & { role: Role } => row.role !== null)
      .map((row) => ({
        id: row.id_sha256.slice(0, SESSION_HANDLE_LENGTH),
        username: row.username,
        role: row.role,
        sourceIp: row.source_ip,
        createdUtc: iso(row.created_ms),
        lastSeenUtc: iso(row.last_seen_ms),
        expiresUtc: iso(sessionExpiresMs({ createdMs: row.created_ms, lastSeenMs: row.last_seen_ms })),
        current: row.id_sha256 === currentSha256,
      }));
  }

  /** Ends a browser session by its handle (an administrator's "log this session out"). */
  endSession(handle: string, by: string): Outcome<{ username: string }> {
    const row = this.#sql
      .exec<{ id_sha256: string; username: string }>(
        "SELECT id_sha256, username FROM sessions WHERE substr(id_sha256, 1, ?) = ?",
        SESSION_HANDLE_LENGTH,
        handle,
      )
      .toArray()[0];
    if (!row) return refuse("not-found", `no open session '${handle}'`);
    this.#sql.exec("DELETE FROM sessions WHERE id_sha256 = ?", row.id_sha256);
    this.#emit({
      severity: "notice",
      msgId: "auth.session.ended",
      fields: { session: handle, username: row.username, by },
    });
    return { ok: true, username: row.username };
  }

  // ── OIDC sign-in ─────────────────────────────────────────────────────────

  /**
   * Whether an anonymous caller may start an OIDC sign-in now: each start
   * costs a stored row (and, uncached, a read of the provider), so it takes a
   * token from the login buckets (src/trust/login-limits.ts) as a password
   * login does; a 429 with Retry-After when they are empty.
   */
  admitOidcSignIn(sourceIp: string): Outcome<object> {
    const throttled = this.#throttle(sourceIp, Date.now());
    return throttled && !throttled.ok ? throttled : { ok: true };
  }

  /**
   * Remembers a sign-in sent to an identity provider (stored by the SHA-256
   * of its state and browser binding); refused (429 until the oldest
   * expires) while OIDC_PENDING_MAX are pending, so the table stays bounded.
   */
  beginOidcSignIn(pending: {
    stateSha256: string;
    bindingSha256: string;
    provider: string;
    nonce: string;
    verifier: string;
    returnTo: string;
  }): Outcome<object> {
    const now = Date.now();
    this.#sql.exec("DELETE FROM oidc_pending WHERE expires_ms <= ?", now);
    const { count, oldest } = this.#sql
      .exec<{ count: number; oldest: number | null }>(
        "SELECT COUNT(*) AS count, MIN(expires_ms) AS oldest FROM oidc_pending",
      )
      .one();
    if (count >= OIDC_PENDING_MAX) {
      const seconds = Math.max(1, Math.ceil(((oldest ?? now) - now) / 1000));
      return refuse(
        "throttled",
        `${OIDC_PENDING_MAX} single sign-ons are waiting for their provider; retry in ${seconds} s`,
        { retryAfterSeconds: seconds },
      );
    }
    this.#sql.exec(
      "INSERT INTO oidc_pending (state_sha256, binding_sha256, provider, nonce, " +
        "verifier, return_to, expires_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
      pending.stateSha256,
      pending.bindingSha256,
      pending.provider,
      pending.nonce,
      pending.verifier,
      pending.returnTo,
      oidcPendingExpiresMs(now),
    );
    return { ok: true };
  }

  /**
   * Takes back a pending sign-in: once only, and only from the browser that
   * started it, for the provider it went to, before it expires.
   */
  takeOidcSignIn(
    stateSha256: string,
    bindingSha256: string | null,
    provider: string,
  ): Outcome<{ nonce: string; verifier: string; returnTo: string }> {
    const row = this.#sql
      .exec<{
        binding_sha256: string;
        provider: string;
        nonce: string;
        verifier: string;
        return_to: string;
        expires_ms: number;
      }>("SELECT * FROM oidc_pending WHERE state_sha256 = ?", stateSha256)
      .toArray()[0];
    this.#sql.exec("DELETE FROM oidc_pending WHERE state_sha256 = ?", stateSha256);
    const decision = checkOidcReturn(
      row ? { expiresMs: row.expires_ms, provider: row.provider, bindingSha256: row.binding_sha256 } : null,
      { provider, bindingSha256 },
      Date.now(),
    );
    // One answer for every reason: the browser learns nothing about which check failed.
    if (!decision.ok || !row) {
      return refuse(
        "bad-credentials",
        "this sign-in is unknown, expired, already used or was started in another browser; start again",
      );
    }
    return { ok: true, nonce: row.nonce, verifier: row.verifier, returnTo: row.return_to };
  }

  /** Opens a browser session for an identity the provider vouched for, with the role its mapping gave. */
  async externalLogin(
    username: string,
    role: Role,
    provider: string,
    sourceIp: string,
  ): Promise<{ sessionId: string; csrfToken: string }> {
    const now = Date.now();
    const { sessionId, csrfToken } = newSessionSecrets();
    this.#sql.exec(
      "INSERT INTO sessions (id_sha256, username, csrf_token, created_ms, " +
        "last_seen_ms, source_ip, provider, role) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      await sha256Hex(sessionId),
      username,
      csrfToken,
      now,
      now,
      sourceIp,
      provider,
      role,
    );
    this.#emit({ severity: "notice", msgId: "auth.login", fields: { username, sourceIp, via: "oidc" } });
    return { sessionId, csrfToken };
  }

  /** Ends every session a provider vouched for (it was deleted, disabled or now maps identities differently). */
  endProviderSessions(provider: string, reason: string): number {
    const ended = this.#sql.exec("DELETE FROM sessions WHERE provider = ?", provider).rowsWritten;
    if (ended > 0)
      this.#emit({
        severity: "notice",
        msgId: "auth.oidc.sessions.ended",
        fields: { provider, sessions: ended, reason },
      });
    return ended;
  }

  /** Records a refused OIDC sign-in. */
  oidcRefused(provider: string, reason: string, sourceIp: string): void {
    this.#emit({ severity: "warning", msgId: "auth.oidc.refused", fields: { provider, reason, sourceIp } });
  }

  // ── tokens ───────────────────────────────────────────────────────────────

  /** Creates a token; the plaintext is returned here once and only its SHA-256 is kept. */
  async createToken(
    name: string,
    role: Role,
    expiresUtc: string | null,
    createdBy: string,
  ): Promise<Outcome<{ token: TokenCreated }>> {
    const now = Date.now();
    const expiry = newTokenExpiry(expiresUtc, now);
    if (!expiry.ok) return refuse("invalid", "expiresUtc must be in the future", { pointer: "#/expiresUtc" });
    const expires = expiry.expiresMs;
    if (this.#count("SELECT COUNT(*) AS n FROM tokens WHERE name = ?", name) > 0)
      return refuse("conflict", `a token named '${name}' already exists`);
    const plaintext = newToken();
    const id = toHex(randomBytes(8));
    this.#writeTokens(
      "INSERT INTO tokens (id, name, role, prefix, sha256, created_ms, created_by, " +
        "expires_ms, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'api')",
      id,
      name,
      role,
      tokenHint(plaintext),
      await sha256Hex(plaintext),
      now,
      createdBy,
      expires,
    );
    this.#emit({ severity: "notice", msgId: "auth.token.created", fields: { tokenId: id, name, role, by: createdBy } });
    return { ok: true, token: { ...this.#tokenRecord(this.#tokenRow(id)!), token: plaintext } };
  }

  /** Tokens, newest first; never a plaintext or a hash. */
  listTokens(): TokenRecord[] {
    return this.#sql
      .exec<TokenRow>("SELECT * FROM tokens ORDER BY created_ms DESC, id")
      .toArray()
      .map((row) => this.#tokenRecord(row));
  }

  /** One token (never its plaintext). */
  getToken(id: string): Outcome<{ token: TokenRecord }> {
    const row = this.#tokenRow(id);
    return row ? { ok: true, token: this.#tokenRecord(row) } : refuse("not-found", `no token with id '${id}'`);
  }

  /** Revokes an API-created token at once. */
  revokeToken(id: string, by: string): Outcome<object> {
    const row = this.#tokenRow(id);
    if (!row) return refuse("not-found", `no token with id '${id}'`);
    if (!mayRevoke(row).ok)
      return refuse(
        "conflict",
        `token '${row.name}' is provisioned by the fleet configuration; change the configuration instead`,
      );
    this.#writeTokens("DELETE FROM tokens WHERE id = ?", id);
    this.#emit({ severity: "notice", msgId: "auth.token.revoked", fields: { tokenId: id, name: row.name, by } });
    return { ok: true };
  }

  /**
   * Revokes the API tokens an account created: all of them (`aboveRole`
   * null, the account's deletion), or those whose role outranks the
   * account's new one (its demotion). Answers how many were revoked.
   */
  revokeTokensOf(username: string, aboveRole: Role | null, by: string): number {
    // Tokens record their creator as the acting principal's name (`user:<account>`).
    const created = this.#sql
      .exec<TokenRow>(
        "SELECT * FROM tokens WHERE source = 'api' AND created_by IN (?, ?)",
        username,
        `user:${username}`,
      )
      .toArray();
    const rows = tokensRevokedBy(created, aboveRole);
    for (const row of rows) {
      this.#writeTokens("DELETE FROM tokens WHERE id = ?", row.id);
      this.#emit({ severity: "notice", msgId: "auth.token.revoked", fields: { tokenId: row.id, name: row.name, by } });
    }
    return rows.length;
  }

  /** Writes the token uses held since the last call (`deferTouches`): one statement each, in the caller's commit. */
  writeTouches(): void {
    if (this.#touches.size === 0) return;
    // A token revoked meanwhile has no row left to update.
    for (const [id, ms] of this.#touches) this.#writeTokens("UPDATE tokens SET last_used_ms = ? WHERE id = ?", ms, id);
    this.#touches.clear();
  }

  /** A token's last use: the one not yet written, else its row's. */
  #lastUsedMs(row: TokenRow): number | null {
    return this.#touches.get(row.id) ?? row.last_used_ms;
  }

  /** A write to the tokens table: the one way to change it, so the rows kept by hash never outlive a change. */
  #writeTokens(query: string, ...bindings: SqlStorageValue[]): void {
    this.#sql.exec(query, ...bindings);
    this.#tokenByHash.clear();
  }

  #tokenRow(id: string): TokenRow | undefined {
    return this.#sql.exec<TokenRow>("SELECT * FROM tokens WHERE id = ?", id).toArray()[0];
  }

  #tokenRecord(row: TokenRow): TokenRecord {
    return {
      id: row.id,
      name: row.name,
      role: row.role,
      prefix: row.prefix,
      createdUtc: iso(row.created_ms),
      createdBy: row.created_by,
      lastUsedUtc: isoOrNull(this.#lastUsedMs(row)),
      expiresUtc: isoOrNull(row.expires_ms),
      source: row.source,
    };
  }

  // ── users ────────────────────────────────────────────────────────────────

  /** All accounts, by name. */
  listUsers(): UserRecord[] {
    return this.#sql
      .exec<UserRow>("SELECT * FROM users ORDER BY username")
      .toArray()
      .map((row) => this.#userRecord(row));
  }

  /** One account. */
  getUser(username: string): Outcome<{ user: UserRecord }> {
    const row = this.#user(username);
    return row ? { ok: true, user: this.#userRecord(row) } : refuse("not-found", `no user '${username}'`);
  }

  /**
   * Makes the accounts the running copy of `login.users`, the configuration's
   * list (the source of truth; every account write is a commit there). New
   * accounts enrol TOTP at their first login; a changed password ends the
   * account's sessions; a removed account loses its sessions, the API tokens
   * it created, its lockouts and pending enrolment. Role changes reach open
   * sessions at once, because a session's role is read from here on every
   * request.
   */
  syncAccounts(accounts: { username: string; role: Role; passwordHash: string }[], by: string): void {
    const now = Date.now();
    const wanted = new Map(accounts.map((a) => [a.username, a]));
    for (const row of this.#sql.exec<UserRow>("SELECT * FROM users").toArray()) {
      const account = wanted.get(row.username);
      if (!account) {
        this.#sql.exec("DELETE FROM users WHERE username = ?", row.username);
        this.#sql.exec("DELETE FROM login_failures WHERE username = ?", row.username);
        this.#sql.exec("DELETE FROM account_failures WHERE username = ?", row.username);
        this.#sql.exec("DELETE FROM enrolments WHERE username = ?", row.username);
        this.#passkeys.forget(row.username);
        this.#endSessions(row.username);
        // ASVS 5.0 V7.4.2: an account's credentials end with it, by whichever commit removes it (the
        // DELETE route, a change set, a rollback); a later account of the same name does not get them back.
        this.revokeTokensOf(row.username, null, by);
        this.#emit({ severity: "notice", msgId: "auth.user.deleted", fields: { username: row.username, by } });
        continue;
      }
      wanted.delete(row.username);
      if (account.role !== row.role) {
        this.#sql.exec("UPDATE users SET role = ? WHERE username = ?", account.role, row.username);
        this.#emit({
          severity: "notice",
          msgId: "auth.user.updated",
          fields: { username: row.username, role: account.role, by },
        });
      }
      if (account.passwordHash !== row.password_hash) {
        this.#sql.exec(
          "UPDATE users SET password_hash = ?, password_changed_ms = ?, password_is_default = 0 WHERE username = ?",
          account.passwordHash,
          now,
          row.username,
        );
        this.#endSessions(row.username);
        this.#emit({ severity: "notice", msgId: "auth.password.changed", fields: { username: row.username, by } });
      }
    }
    for (const account of wanted.values()) {
      this.#sql.exec(
        "INSERT INTO users (username, role, password_hash, must_enrol, created_ms, " +
          "password_changed_ms) VALUES (?, ?, ?, 1, ?, ?)",
        account.username,
        account.role,
        account.passwordHash,
        now,
        now,
      );
      this.#emit({
        severity: "notice",
        msgId: "auth.user.created",
        fields: { username: account.username, role: account.role, by },
      });
    }
  }

  /**
   * The accounts as this store held them before `login.users` was a
   * configuration key: what an appliance written by that software seeds the
   * key from, so an update keeps its accounts.
   */
  storedAccounts(): { username: string; role: Role; passwordHash: string }[] {
    return this.#sql
      .exec<UserRow>("SELECT * FROM users ORDER BY username")
      .toArray()
      .map((row) => ({ username: row.username, role: row.role, passwordHash: row.password_hash }));
  }

  /**
   * Re-authenticates a logged-in account before a sensitive change of its own
   * (ASVS 5.0 V7.5.1: registering a passkey, changing its password): its
   * current password or a fresh TOTP code. Counted like a login, so a hijacked
   * session cannot guess the password here faster than at the login.
   */
  async reauthenticate(
    username: string,
    proof: { currentPassword?: string | undefined; totpCode?: string | undefined },
    sourceIp: string,
  ): Promise<Outcome<object>> {
    const now = Date.now();
    const locked = this.#checkLock(username, sourceIp, now);
    if (locked) return locked;
    const user = this.#user(username);
    if (!user) return refuse("not-found", `no user '${username}'`);
    this.#countAttempt(username, sourceIp, now);
    if (proof.totpCode !== undefined) {
      if (user.totp_secret === null)
        return this.#failed(
          username,
          sourceIp,
          "totp",
          "this account has no TOTP authenticator; confirm with the current password",
        );
      const verified = await verifyTotp(user.totp_secret, proof.totpCode, null, now);
      const lastStep = this.#user(username)?.totp_last_step ?? null;
      if (!verified.ok || !checkReplay(verified.timeStep, lastStep).ok)
        return this.#failed(username, sourceIp, "totp", "the code is wrong or was used already");
      this.#sql.exec("UPDATE users SET totp_last_step = ? WHERE username = ?", verified.timeStep, username);
    } else if (
      proof.currentPassword === undefined ||
      !(await verifyPassword(proof.currentPassword, user.password_hash))
    ) {
      return this.#failed(username, sourceIp, "password", "the current password is wrong");
    }
    this.#sql.exec("DELETE FROM login_failures WHERE username = ? AND source_ip = ?", username, sourceIp);
    this.#sql.exec("DELETE FROM account_failures WHERE username = ?", username);
    return { ok: true };
  }

  /** Forgets an account's authenticator: it must enrol again at its next login; its sessions end. */
  resetTotp(username: string, by: string): Outcome<object> {
    if (!this.#user(username)) return refuse("not-found", `no user '${username}'`);
    this.#sql.exec(
      "UPDATE users SET totp_secret = NULL, totp_last_step = NULL, must_enrol = 1 WHERE username = ?",
      username,
    );
    this.#endSessions(username);
    this.#emit({ severity: "notice", msgId: "auth.totp.reset", fields: { username, by } });
    return { ok: true };
  }

  /** Lifts every lockout of an account. */
  unlock(username: string, by: string): Outcome<object> {
    if (!this.#user(username)) return refuse("not-found", `no user '${username}'`);
    this.#sql.exec("DELETE FROM login_failures WHERE username = ?", username);
    this.#sql.exec("DELETE FROM account_failures WHERE username = ?", username);
    this.#emit({ severity: "notice", msgId: "auth.unlocked", fields: { username, by } });
    return { ok: true };
  }

  #endSessions(username: string): void {
    this.#sql.exec("DELETE FROM sessions WHERE username = ?", username);
  }

  #user(username: string): UserRow | undefined {
    return this.#sql.exec<UserRow>("SELECT * FROM users WHERE username = ?", username).toArray()[0];
  }

  #userRecord(row: UserRow): UserRecord {
    const now = Date.now();
    const lockouts = this.#sql
      .exec<{ source_ip: string; failures: number; locked_until_ms: number | null }>(
        "SELECT * FROM login_failures WHERE username = ? ORDER BY source_ip",
        row.username,
      )
      .toArray()
      .filter((l) => pairShown({ lockedUntilMs: l.locked_until_ms }, now))
      .map((l) => ({ sourceIp: l.source_ip, failures: l.failures, lockedUntilUtc: isoOrNull(l.locked_until_ms) }));
    // The account-wide lock across every source, while it holds, shown as source `*`.
    const account = this.#sql
      .exec<{ failures: number; locked_until_ms: number }>(
        "SELECT failures, locked_until_ms FROM account_failures WHERE username = ? AND locked_until_ms > ?",
        row.username,
        now,
      )
      .toArray()[0];
    if (account)
      lockouts.push({ sourceIp: "*", failures: account.failures, lockedUntilUtc: iso(account.locked_until_ms) });
    return {
      username: row.username,
      role: row.role,
      totpEnrolled: row.totp_secret !== null,
      enrolmentRequired: row.must_enrol === 1 && row.totp_secret === null,
      createdUtc: iso(row.created_ms),
      passwordChangedUtc: iso(row.password_changed_ms),
      lastLoginUtc: isoOrNull(row.last_login_ms),
      lockouts,
    };
  }

  #count(query: string, ...bindings: SqlStorageValue[]): number {
    return Number(this.#sql.exec<{ n: number }>(query, ...bindings).toArray()[0]?.n ?? 0);
  }
}
