/**
 * Each account's passkeys and the challenges of ceremonies under way, in the
 * appliance's SQLite. An account registers its own passkeys while logged in;
 * at login, where the passkey policy lets a passkey replace the TOTP code,
 * the identity store asks here for the options and the verdict.
 */
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import type { PasskeyRecord } from "../src/schemas/auth.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import { fromHex, toHex } from "../src/trust/encoding.ts";
import {
  PASSKEY_CHALLENGE_SECONDS,
  authenticationOptions,
  registrationOptions,
  verifyAssertion,
  verifyRegistration,
  type PasskeyContext,
  type StoredPasskey,
} from "../src/trust/passkeys.ts";
import type { IdentityEvent } from "./identity-event.ts";

interface Row {
  id: string;
  username: string;
  name: string;
  public_key: string;
  counter: number;
  transports: string;
  created_ms: number;
  last_used_ms: number | null;
  [key: string]: SqlStorageValue;
}

type Purpose = "register" | "login";
/** Who acts on a passkey: its own account, or a super-user on anyone's. */
export interface PasskeyActor {
  username: string | null;
  superUser: boolean;
  name: string;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export class PasskeyStore {
  readonly #sql: SqlStorage;
  readonly #context: () => PasskeyContext;
  readonly #emit: (event: IdentityEvent) => void;

  constructor(sql: SqlStorage, context: () => PasskeyContext, emit: (event: IdentityEvent) => void) {
    this.#sql = sql;
    this.#context = context;
    this.#emit = emit;
    sql.exec(`
      CREATE TABLE IF NOT EXISTS passkeys (
        id TEXT PRIMARY KEY, username TEXT NOT NULL, name TEXT NOT NULL, public_key TEXT NOT NULL,
        counter INTEGER NOT NULL, transports TEXT NOT NULL, created_ms INTEGER NOT NULL, last_used_ms INTEGER);
      CREATE TABLE IF NOT EXISTS passkey_challenges (
        username TEXT NOT NULL, purpose TEXT NOT NULL, challenge TEXT NOT NULL, expires_ms INTEGER NOT NULL,
        PRIMARY KEY (username, purpose));
    `);
  }

  /** The policy and RP binding in force, or the refusal explaining why passkeys cannot be used now. */
  #usable(): Outcome<{ context: PasskeyContext & { rpId: string } }> {
    const context = this.#context();
    if (!context.enabled)
      return refuse("conflict", "passkeys are disabled by the passkey policy (PUT /api/v1/auth/providers/passkey)");
    if (!context.rpId)
      return refuse("conflict", "passkeys need a relying-party id: set the passkey policy's rpId or webUi.hostname");
    return { ok: true, context: { ...context, rpId: context.rpId } };
  }

  /** Starts registering a passkey for the logged-in account. */
  async registrationOptions(username: string): Promise<Outcome<{ options: PublicKeyCredentialCreationOptionsJSON }>> {
    const usable = this.#usable();
    if (!usable.ok) return usable;
    const options = await registrationOptions(usable.context, username, this.#stored(username));
    this.#remember(username, "register", options.challenge);
    return { ok: true, options };
  }

  /** Completes a registration begun by `registrationOptions` (once, within five minutes). */
  async register(username: string, name: string, response: unknown): Promise<Outcome<{ passkey: PasskeyRecord }>> {
    const usable = this.#usable();
    if (!usable.ok) return usable;
    const challenge = this.#take(username, "register");
    if (!challenge)
      return refuse(
        "conflict",
        "no passkey registration is under way for this account (or it expired): ask for registration options first",
      );
    const verified = await verifyRegistration(usable.context, response, challenge);
    if (!verified.ok) return verified;
    const { passkey } = verified;
    if (this.#row(passkey.id)) return refuse("conflict", "this passkey is already registered");
    this.#sql.exec(
      "INSERT INTO passkeys (id, username, name, public_key, counter, transports, " +
        "created_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
      passkey.id,
      username,
      name,
      toHex(passkey.publicKey),
      passkey.counter,
      JSON.stringify(passkey.transports),
      Date.now(),
    );
    this.#emit({
      severity: "notice",
      msgId: "auth.passkey.registered",
      fields: { username, passkey: passkey.id, name },
    });
    return { ok: true, passkey: this.#record(this.#row(passkey.id)!) };
  }

  /** Passkeys of one account, or of every account (null), newest first. */
  list(username: string | null): PasskeyRecord[] {
    const rows =
      username === null
        ? this.#sql.exec<Row>("SELECT * FROM passkeys ORDER BY created_ms DESC, id").toArray()
        : this.#sql
            .exec<Row>("SELECT * FROM passkeys WHERE username = ? ORDER BY created_ms DESC, id", username)
            .toArray();
    return rows.map((row) => this.#record(row));
  }

  /** Renames a passkey (its account's own, or any for a super-user). */
  rename(id: string, name: string, actor: PasskeyActor): Outcome<{ passkey: PasskeyRecord }> {
    const row = this.#owned(id, actor);
    if (!row.ok) return row;
    this.#sql.exec("UPDATE passkeys SET name = ? WHERE id = ?", name, id);
    return { ok: true, passkey: this.#record(this.#row(id)!) };
  }

  /** Removes a passkey at once: it can no longer replace the TOTP code. */
  remove(id: string, actor: PasskeyActor): Outcome<{ username: string }> {
    const row = this.#owned(id, actor);
    if (!row.ok) return row;
    this.#sql.exec("DELETE FROM passkeys WHERE id = ?", id);
    this.#emit({
      severity: "notice",
      msgId: "auth.passkey.removed",
      fields: { username: row.row.username, passkey: id, by: actor.name },
    });
    return { ok: true, username: row.row.username };
  }

  /** Forgets every passkey of an account that no longer exists. */
  forget(username: string): void {
    this.#sql.exec("DELETE FROM passkeys WHERE username = ?", username);
    this.#sql.exec("DELETE FROM passkey_challenges WHERE username = ?", username);
  }

  /**
   * At login, when the password was right and a second factor is due: the
   * options a passkey can answer instead of a TOTP code, or null when the
   * policy or the account offers none.
   */
  async secondFactorOptions(username: string): Promise<PublicKeyCredentialRequestOptionsJSON | null> {
    const usable = this.#usable();
    const passkeys = this.#stored(username);
    if (!usable.ok || !usable.context.replacesTotp || passkeys.length === 0) return null;
    const options = await authenticationOptions(usable.context, passkeys);
    this.#remember(username, "login", options.challenge);
    return options;
  }

  /** Checks a passkey's answer to the login options (once); true when it is one of the account's and verifies. */
  async verifySecondFactor(username: string, response: unknown): Promise<boolean> {
    const usable = this.#usable();
    const challenge = this.#take(username, "login");
    if (!usable.ok || !usable.context.replacesTotp || !challenge) return false;
    const verified = await verifyAssertion(usable.context, response, challenge, this.#stored(username));
    if (!verified) return false;
    this.#sql.exec(
      "UPDATE passkeys SET counter = ?, last_used_ms = ? WHERE id = ?",
      verified.counter,
      Date.now(),
      verified.id,
    );
    return true;
  }

  #owned(id: string, actor: PasskeyActor): Outcome<{ row: Row }> {
    const row = this.#row(id);
    // Someone else's passkey reads as absent: its id says nothing to an account that does not own it.
    if (!row || (!actor.superUser && row.username !== actor.username)) return refuse("not-found", `no passkey '${id}'`);
    return { ok: true, row };
  }

  #remember(username: string, purpose: Purpose, challenge: string): void {
    this.#sql.exec(
      "INSERT INTO passkey_challenges (username, purpose, challenge, expires_ms) " +
        "VALUES (?, ?, ?, ?) ON CONFLICT (username, purpose) DO UPDATE SET challenge = " +
        "excluded.challenge, expires_ms = excluded.expires_ms",
      username,
      purpose,
      challenge,
      Date.now() + PASSKEY_CHALLENGE_SECONDS * 1000,
    );
  }

  #take(username: string, purpose: Purpose): string | null {
    const row = this.#sql
      .exec<{ challenge: string; expires_ms: number }>(
        "SELECT challenge, expires_ms FROM passkey_challenges WHERE username = ? AND purpose = ?",
        username,
        purpose,
      )
      .toArray()[0];
    this.#sql.exec("DELETE FROM passkey_challenges WHERE username = ? AND purpose = ?", username, purpose);
    return row && row.expires_ms > Date.now() ? row.challenge : null;
  }

  #stored(username: string): StoredPasskey[] {
    return this.#sql
      .exec<Row>("SELECT * FROM passkeys WHERE username = ?", username)
      .toArray()
      .map((row) => ({
        id: row.id,
        publicKey: fromHex(row.public_key),
        counter: row.counter,
        transports: JSON.parse(row.transports) as string[],
      }));
  }

  #row(id: string): Row | undefined {
    return this.#sql.exec<Row>("SELECT * FROM passkeys WHERE id = ?", id).toArray()[0];
  }

  #record(row: Row): PasskeyRecord {
    return {
      id: row.id,
      username: row.username,
      name: row.name,
      transports: JSON.parse(row.transports) as string[],
      createdUtc: iso(row.created_ms)!,
      lastUsedUtc: iso(row.last_used_ms),
    };
  }
}
