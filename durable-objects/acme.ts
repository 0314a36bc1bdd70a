/**
 * The appliance's ACME client (RFC 8555): obtains the web UI certificate from
 * the CA at `acme.directoryUrl`, answering HTTP-01 on the listener
 * (`GET /.well-known/acme-challenge/{token}` reaches `challengeAnswer`), and
 * installs the chain and key through the configuration pipeline as
 * `webUi.certificate` — the same storage as an upload — so the listener
 * serves it without a restart. The alarm asks `tick()` whether it is due:
 * renewal before expiry (src/config/acme.ts), a retry after a failure.
 *
 * The account key is generated here and kept in this object's SQLite only:
 * never in the configuration, its history, a response or the log. It is
 * dropped (a new account registered) when the directory URL changes, so no
 * CA ever sees another CA's account.
 *
 * Every request goes through the appliance's one destination policy
 * (src/config/destinations.ts, purpose `acme`): the directory URL and every
 * URL the directory or an answer names (newNonce, newAccount, newOrder, the
 * order's Location, authorizations, challenges, finalize, certificate) must
 * be https and a public address, or an internal one `alarms.webhookAllowlist`
 * holds; redirects are never followed. What the CA says reaches the log and
 * the certificate details (both read by read-only accounts) only as our own
 * bounded words: the HTTP status, an RFC 8555 error type
 * (`urn:ietf:params:acme:error:*`) and the status of an order or
 * authorization; the CA's free-text `detail` goes to the console alone, as
 * an alert sink's failure does. A URL is shown with its user part redacted.
 */
import type { JWK } from "jose";
import { acmeSettingsOf, renewalAtMs, retryDelayMs, type AcmeSettings } from "../src/config/acme.ts";
import { DestinationRefused, outboundFetch } from "../src/config/destinations.ts";
import { redactUserinfo } from "../src/config/document.ts";
import type { ConfigDocument } from "../src/config/types.ts";
import type { AcmeStatus } from "../src/schemas/acme.ts";
import {
  certificateRequest,
  generateAccountKey,
  identifierOf,
  keyAuthorization,
  signRequest,
} from "../src/trust/acme.ts";
import { inspectCertificate } from "../src/trust/x509.ts";
import type { FieldValue } from "../simulator/log-catalogue.ts";
import type { Severity } from "../simulator/vocabulary.ts";
import type { ConfigStore } from "./config-store.ts";

type Log = (severity: Severity, msgId: string, fields: Record<string, FieldValue>) => void;

interface StateRow {
  state: AcmeStatus["state"];
  names: string;
  last_attempt_ms: number | null;
  last_error: string | null;
  failures: number;
  next_attempt_ms: number | null;
  issued_fingerprint: string | null;
  issued_ms: number | null;
  not_before_ms: number | null;
  not_after_ms: number | null;
  [key: string]: SqlStorageValue;
}

/** An ACME attempt's failure, in our own words only (what reaches the log and the certificate details). */
class AcmeError extends Error {}

/** An RFC 8555 §6.7 error type as sent, or null for anything else (a URN is short and fixed; free text is not). */
const acmeErrorType = (type: unknown): string | null =>
  typeof type === "string" && /^urn:ietf:params:acme:error:[A-Za-z]{1,40}$/.test(type) ? type : null;
/** An order's or authorization's status as sent when it is a word RFC 8555 §7.1.6 could use, else a placeholder. */
const statusWord = (status: unknown): string =>
  typeof status === "string" && /^[a-z]{1,16}$/.test(status) ? status : "(unrecognised status)";
/** What the CA said in its own words: for whoever runs the appliance (the console), never the log ring. */
const toConsole = (what: string, text: unknown) => console.warn(`ACME: ${what}: ${String(text).slice(0, 500)}`);

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Polls of an authorization or order before giving up (Retry-After is honoured, up to 10 s each). */
const MAX_POLLS = 60;
const REQUEST_TIMEOUT_MS = 30_000;

export class AcmeStore {
  readonly #sql: SqlStorage;
  readonly #config: ConfigStore;
  readonly #log: Log;
  #running: Promise<void> | null = null;

  constructor(sql: SqlStorage, config: ConfigStore, log: Log) {
    this.#sql = sql;
    this.#config = config;
    this.#log = log;
    sql.exec(`
      CREATE TABLE IF NOT EXISTS acme_account (
        id INTEGER PRIMARY KEY CHECK (id = 1), directory_url TEXT NOT NULL, key_jwk TEXT NOT NULL, account_url TEXT);
      CREATE TABLE IF NOT EXISTS acme_state (
        id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL, names TEXT NOT NULL, last_attempt_ms INTEGER,
        last_error TEXT, failures INTEGER NOT NULL, next_attempt_ms INTEGER, issued_fingerprint TEXT, issued_ms INTEGER,
        not_before_ms INTEGER, not_after_ms INTEGER);
      CREATE TABLE IF NOT EXISTS acme_challenges (token TEXT PRIMARY KEY, key_authorization TEXT NOT NULL);
      INSERT OR IGNORE INTO acme_state (id, state, names, failures) VALUES (1, 'idle', '[]', 0);
    `);
    // An attempt cut short by a restart is not under way any more.
    sql.exec(
      "UPDATE acme_state SET state = 'failed', last_error = 'interrupted by a " +
        "restart', next_attempt_ms = 0 WHERE state = 'ordering'",
    );
  }

  #settings(): AcmeSettings {
    return acmeSettingsOf(this.#document());
  }

  #document(): Pick<ConfigDocument, "fields"> {
    const fields: Record<string, unknown> = {};
    for (const path of [
      "acme.enabled",
      "acme.directoryUrl",
      "acme.contact",
      "acme.names",
      "acme.renewBeforeDays",
      "webUi.hostname",
      "webUi.listeners",
    ])
      fields[path] = this.#config.field(path);
    return { fields: fields as ConfigDocument["fields"] };
  }

  #state(): StateRow {
    return this.#sql.exec<StateRow>("SELECT * FROM acme_state WHERE id = 1").one();
  }

  /** The key authorization for an HTTP-01 token this appliance is being validated with; null for any other token. */
  challengeAnswer(token: string): string | null {
    const answer =
      this.#sql
        .exec<{ key_authorization: string }>("SELECT key_authorization FROM acme_challenges WHERE token = ?", token)
        .toArray()[0]?.key_authorization ?? null;
    if (answer !== null) this.#log("info", "acme.challenge.served", { token });
    return answer;
  }

  /**
   * The ACME part of the certificate details; `installedFingerprint` tells whether the listener serves ACME's
   * certificate.
   */
  status(installedFingerprint: string | null, nowMs = Date.now()): AcmeStatus {
    const settings = this.#settings();
    const row = this.#state();
    const account = this.#sql
      .exec<{ account_url: string | null; directory_url: string }>(
        "SELECT account_url, directory_url FROM acme_account WHERE id = 1",
      )
      .toArray()[0];
    const serving = row.issued_fingerprint !== null && row.issued_fingerprint === installedFingerprint;
    // Disabled, nothing is under way or retried: only whether ACME's certificate is still the one served.
    const state = !settings.enabled
      ? serving
        ? "issued"
        : "idle"
      : row.state === "issued" && !serving
        ? "idle"
        : row.state;
    return {
      enabled: settings.enabled,
      directoryUrl: settings.directoryUrl === null ? null : redactUserinfo(settings.directoryUrl),
      state,
      names: settings.names,
      accountUrl:
        account && account.directory_url === settings.directoryUrl && account.account_url !== null
          ? redactUserinfo(account.account_url)
          : null,
      lastAttemptUtc: iso(row.last_attempt_ms),
      lastError: row.last_error,
      issuedUtc: serving ? iso(row.issued_ms) : null,
      renewalUtc:
        settings.enabled && serving && row.not_before_ms !== null && row.not_after_ms !== null
          ? iso(renewalAtMs({ notBeforeMs: row.not_before_ms, notAfterMs: row.not_after_ms }, settings.renewBeforeDays))
          : null,
      nextAttemptUtc:
        settings.enabled && row.state === "failed" ? iso(Math.max(row.next_attempt_ms ?? nowMs, nowMs)) : null,
    };
  }

  /**
   * Whether an attempt is due at `nowMs`: ACME enabled, nothing under way, no
   * back-off pending, and the listener not serving a current ACME certificate
   * for the configured names (none yet, an upload in its place, other names,
   * or renewal time reached).
   */
  due(nowMs: number, installedFingerprint: string | null): boolean {
    return this.#running === null && this.#due(nowMs, installedFingerprint);
  }

  #due(nowMs: number, installedFingerprint: string | null): boolean {
    const settings = this.#settings();
    if (!settings.enabled || settings.directoryUrl === null || settings.names.length === 0) return false;
    const row = this.#state();
    if (row.state === "failed" && (row.next_attempt_ms ?? 0) > nowMs) return false;
    if (row.issued_fingerprint === null || row.issued_fingerprint !== installedFingerprint) return true;
    if (row.names !== JSON.stringify(settings.names)) return true;
    return (
      nowMs >=
      renewalAtMs({ notBeforeMs: row.not_before_ms ?? 0, notAfterMs: row.not_after_ms ?? 0 }, settings.renewBeforeDays)
    );
  }

  /** A commit touched `acme.*` (or the names they default to): forget another CA's account, retry at once. */
  configChanged(): void {
    const settings = this.#settings();
    const account = this.#sql
      .exec<{ directory_url: string }>("SELECT directory_url FROM acme_account WHERE id = 1")
      .toArray()[0];
    if (account && account.directory_url !== settings.directoryUrl) {
      this.#sql.exec("DELETE FROM acme_account");
      this.#log("info", "acme.account.dropped", { directoryUrl: redactUserinfo(account.directory_url) });
    }
    this.#sql.exec("UPDATE acme_state SET failures = 0, next_attempt_ms = NULL WHERE id = 1");
  }

  /**
   * From the alarm, a commit and the start: runs an attempt when one is due, resolving when it ends (callers do not
   * wait for it).
   */
  async tick(nowMs = Date.now()): Promise<void> {
    if (this.#running !== null || !this.#settings().enabled) return;
    // Claimed before the first await, so the alarm and a commit cannot both start one.
    this.#running = (async () => {
      if (this.#due(nowMs, await this.#installedFingerprint())) await this.#attempt();
    })().finally(() => (this.#running = null));
    await this.#running;
  }

  /** Resolves when the attempt under way (if any) ends. */
  async settled(): Promise<void> {
    await this.#running;
  }

  async #installedFingerprint(): Promise<string | null> {
    const pem = this.#config.certificatePem();
    return pem === null ? null : ((await inspectCertificate(pem))?.sha256Fingerprint ?? null);
  }

  async #attempt(): Promise<void> {
    const settings = this.#settings();
    const shown = redactUserinfo(settings.directoryUrl ?? "");
    const started = Date.now();
    this.#sql.exec(
      "UPDATE acme_state SET state = 'ordering', names = ?, last_attempt_ms = ?, last_error = NULL WHERE id = 1",
      JSON.stringify(settings.names),
      started,
    );
    this.#log("info", "acme.order.started", { directoryUrl: shown, names: settings.names.join(",") });
    try {
      const issued = await new AcmeSession(settings, this.#config.outboundAllowlist(), this.#sql, this.#log).obtain();
      const details = await inspectCertificate(issued.chainPem);
      if (!details) throw new AcmeError("the CA's certificate chain does not parse");
      // Disabled or pointed elsewhere meanwhile: the operator's latest word wins over this order.
      const now = this.#settings();
      if (!now.enabled || now.directoryUrl !== settings.directoryUrl)
        throw new AcmeError("ACME was disabled or its directory changed while ordering; the certificate was discarded");
      const committed = this.#config.installCertificate(
        issued.chainPem,
        issued.privateKeyPem,
        { actor: "system", comment: `ACME: issued by ${shown}` },
        "acme",
      );
      if (!committed.ok) throw new AcmeError(`the certificate could not be installed: ${committed.detail}`);
      const notBeforeMs = Date.parse(details.notBefore);
      const notAfterMs = Date.parse(details.notAfter);
      this.#sql.exec(
        "UPDATE acme_state SET state = 'issued', failures = 0, next_attempt_ms = NULL, " +
          "issued_fingerprint = ?, issued_ms = ?, not_before_ms = ?, not_after_ms = ? " +
          "WHERE id = 1",
        details.sha256Fingerprint,
        Date.now(),
        notBeforeMs,
        notAfterMs,
      );
      this.#log("notice", "acme.certificate.issued", {
        names: settings.names.join(","),
        serialNumber: details.serialNumber,
        issuer: details.issuer,
        notAfter: details.notAfter,
        renewal: iso(renewalAtMs({ notBeforeMs, notAfterMs }, settings.renewBeforeDays)),
        version: committed.version,
      });
    } catch (error) {
      // Only our own words reach the log: anything else thrown on the way (a parse error quoting the CA's body) is
      // summarised.
      if (!(error instanceof AcmeError))
        toConsole("the attempt failed", error instanceof Error ? error.message : error);
      const detail =
        error instanceof AcmeError
          ? error.message
          : "the CA's answer could not be read (the cause is on the appliance's console)";
      const failures = this.#state().failures + 1;
      const next = Date.now() + retryDelayMs(failures);
      this.#sql.exec(
        "UPDATE acme_state SET state = 'failed', last_error = ?, failures = ?, next_attempt_ms = ? WHERE id = 1",
        detail,
        failures,
        next,
      );
      this.#log("error", "acme.order.failed", { directoryUrl: shown, error: detail, failures, nextAttempt: iso(next) });
    } finally {
      this.#sql.exec("DELETE FROM acme_challenges");
    }
  }
}

/** One run of the protocol against one directory: account, order, HTTP-01, finalize, download. */
class AcmeSession {
  readonly #settings: AcmeSettings & { directoryUrl: string };
  readonly #allowlist: readonly string[];
  readonly #sql: SqlStorage;
  readonly #log: Log;
  #nonce: string | null = null;
  #directory: Record<string, string> = {};
  #key!: JWK;
  #kid: string | null = null;

  constructor(settings: AcmeSettings, allowlist: readonly string[], sql: SqlStorage, log: Log) {
    this.#settings = settings as AcmeSettings & { directoryUrl: string };
    this.#allowlist = allowlist;
    this.#sql = sql;
    this.#log = log;
  }

  async obtain(): Promise<{ chainPem: string; privateKeyPem: string }> {
    const directory = await this.#fetch(
      this.#settings.directoryUrl,
      { method: "GET" },
      `the directory ${redactUserinfo(this.#settings.directoryUrl)}`,
    );
    this.#directory = (await directory.json()) as Record<string, string>;
    for (const resource of ["newNonce", "newAccount", "newOrder"]) {
      if (typeof this.#directory[resource] !== "string")
        throw new AcmeError(`the directory at ${redactUserinfo(this.#settings.directoryUrl)} has no ${resource}`);
    }
    await this.#account();
    const created = await this.#post(
      this.#directory.newOrder!,
      { identifiers: this.#settings.names.map(identifierOf) },
      "newOrder",
    );
    const orderUrl = created.headers.get("location");
    if (!orderUrl) throw new AcmeError("the CA created an order without a Location");
    let order = (await created.json()) as {
      status: string;
      authorizations: string[];
      finalize: string;
      certificate?: string;
    };
    for (const authorization of order.authorizations) await this.#authorize(authorization);
    const request = await certificateRequest(this.#settings.names);
    order = (await (await this.#post(order.finalize, { csr: request.csr }, "finalize")).json()) as typeof order;
    order = await this.#poll(orderUrl, order, ["processing", "pending", "ready"], "the order");
    if (order.status !== "valid" || !order.certificate)
      throw new AcmeError(`the order ended ${statusWord(order.status)}`);
    const chain = await this.#post(order.certificate, null, "the certificate", "application/pem-certificate-chain");
    return { chainPem: await chain.text(), privateKeyPem: request.privateKeyPem };
  }

  /** Reuses the account registered with this directory, or generates a key and registers one (§7.3). */
  async #account(): Promise<void> {
    const stored = this.#sql
      .exec<{ key_jwk: string; account_url: string | null }>(
        "SELECT key_jwk, account_url FROM acme_account WHERE id = 1 AND directory_url = ?",
        this.#settings.directoryUrl,
      )
      .toArray()[0];
    if (stored?.account_url) {
      this.#key = JSON.parse(stored.key_jwk) as JWK;
      this.#kid = stored.account_url;
      return;
    }
    this.#key = stored ? (JSON.parse(stored.key_jwk) as JWK) : await generateAccountKey();
    this.#sql.exec(
      "INSERT OR REPLACE INTO acme_account (id, directory_url, key_jwk, account_url) VALUES (1, ?, ?, NULL)",
      this.#settings.directoryUrl,
      JSON.stringify(this.#key),
    );
    const contact = this.#settings.contact.map((address) => `mailto:${address}`);
    const response = await this.#post(
      this.#directory.newAccount!,
      { termsOfServiceAgreed: true, ...(contact.length > 0 ? { contact } : {}) },
      "newAccount",
    );
    const url = response.headers.get("location");
    if (!url) throw new AcmeError("the CA created an account without a Location");
    this.#kid = url;
    this.#sql.exec("UPDATE acme_account SET account_url = ? WHERE id = 1", url);
    this.#log("info", "acme.account.registered", {
      directoryUrl: redactUserinfo(this.#settings.directoryUrl),
      accountUrl: redactUserinfo(url),
    });
  }

  /** Answers the authorization's HTTP-01 challenge and waits for the CA's verdict (§7.5, §8.3). */
  async #authorize(url: string): Promise<void> {
    type Authorization = {
      status: string;
      identifier: { value: string };
      challenges: {
        type: string;
        url: string;
        token: string;
        status: string;
        error?: { type?: string; detail?: string };
      }[];
    };
    let authorization = (await (await this.#post(url, null, "an authorization")).json()) as Authorization;
    if (authorization.status === "valid") return;
    // The name as ordered: one of ours, never other text the CA put there.
    const name = this.#settings.names.find((n) => n === authorization.identifier?.value) ?? "a name of the order";
    const challenge = authorization.challenges.find((c) => c.type === "http-01");
    if (!challenge) throw new AcmeError(`the CA offers no http-01 challenge for ${name}`);
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(challenge.token))
      throw new AcmeError(`the CA's http-01 token for ${name} is not base64url (RFC 8555 §8.3)`);
    this.#sql.exec(
      "INSERT OR REPLACE INTO acme_challenges (token, key_authorization) VALUES (?, ?)",
      challenge.token,
      await keyAuthorization(challenge.token, this.#key),
    );
    // Logged before the CA is told: it may fetch the answer (acme.challenge.served) before its reply to this POST
    // arrives.
    this.#log("info", "acme.challenge.ready", { name, token: challenge.token });
    await this.#post(challenge.url, {}, "a challenge");
    authorization = await this.#poll(url, authorization, ["pending"], `the authorization of ${name}`);
    if (authorization.status !== "valid") {
      const error = authorization.challenges.find((c) => c.type === "http-01")?.error;
      if (error?.detail !== undefined) toConsole(`the authorization of ${name}`, error.detail);
      const type = acmeErrorType(error?.type);
      throw new AcmeError(
        `the authorization of ${name} is ${statusWord(authorization.status)}${type ? `: ${type}` : ""}`,
      );
    }
  }

  /** POST-as-GET `url` while its status is one of `waiting` (§7.5.1, §7.4), honouring Retry-After. */
  async #poll<T extends { status: string }>(url: string, current: T, waiting: string[], what: string): Promise<T> {
    let polls = 0;
    let wait = 1000;
    while (waiting.includes(current.status)) {
      if (++polls > MAX_POLLS)
        throw new AcmeError(`${what} is still ${statusWord(current.status)} after ${MAX_POLLS} polls`);
      await sleep(wait);
      const response = await this.#post(url, null, what);
      const retryAfter = Number(response.headers.get("retry-after"));
      wait = Number.isFinite(retryAfter) && retryAfter > 0 ? Math.min(retryAfter * 1000, 10_000) : 1000;
      current = (await response.json()) as T;
    }
    return current;
  }

  /** A signed POST to what `label` names; a badNonce refusal is retried once with the fresh nonce it carries (§6.5). */
  async #post(url: string, payload: unknown, label: string, accept = "application/json"): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const nonce = this.#nonce ?? (await this.#newNonce());
      this.#nonce = null;
      const body = await signRequest(this.#key, { url, nonce, kid: this.#kid }, payload);
      const response = await this.#send(
        url,
        { method: "POST", headers: { "content-type": "application/jose+json", accept }, body },
        label,
      );
      this.#nonce = response.headers.get("replay-nonce");
      if (response.ok) return response;
      const problem = (await response.json().catch(() => ({}))) as { type?: unknown; detail?: unknown };
      const type = acmeErrorType(problem.type);
      if (type === "urn:ietf:params:acme:error:badNonce" && attempt === 0) continue;
      if (problem.detail !== undefined) toConsole(`${label} answered ${response.status}`, problem.detail);
      throw new AcmeError(`${label} answered ${response.status}${type ? ` ${type}` : ""}`);
    }
  }

  async #newNonce(): Promise<string> {
    const response = await this.#fetch(this.#directory.newNonce!, { method: "HEAD" }, "newNonce");
    const nonce = response.headers.get("replay-nonce");
    if (!nonce) throw new AcmeError("the CA's newNonce gave no Replay-Nonce");
    return nonce;
  }

  /** A request that must succeed (the directory, a nonce). */
  async #fetch(url: string, init: RequestInit, label: string): Promise<Response> {
    const response = await this.#send(url, init, label);
    if (!response.ok) throw new AcmeError(`${label} answered ${response.status}`);
    return response;
  }

  /**
   * One request to the CA through the destination policy, bounded in time,
   * never following a redirect (a 3xx is a failed answer). `label` names it
   * in our words: a URL the CA named is not repeated into the log.
   */
  async #send(url: string, init: RequestInit, label: string): Promise<Response> {
    try {
      return await outboundFetch(url, "acme", this.#allowlist, {
        ...init,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch (error) {
      if (error instanceof DestinationRefused)
        throw new AcmeError(`${label} is not an allowed destination: ${error.message}`);
      toConsole(`${label} is unreachable`, (error as Error).message);
      throw new AcmeError(`${label} is unreachable`);
    }
  }
}
