/**
 * The appliance's configuration: the active document with its version, and
 * the history of every commit with the document it replaced. Every change,
 * whatever endpoint asks for it, runs one pipeline (`#commit`):
 *
 *   candidate edit → semantic validation → atomic persist → history → hot-apply event
 *
 * Each step is synchronous, and the object runs one call at a time, so the
 * read of the active document and the write of the next one cannot be
 * interleaved with another writer: two concurrent changes both land, one
 * after the other, and neither is lost.
 */
import { cloneDocument, diff, normalise, renderValues, type ConfigError } from "../src/config/document.ts";
import type { ConfigDocument, ConfigItem, Value } from "../src/config/types.ts";
import { applyEdits, changeSetEdits, type Edit, type EditValue } from "../src/config/edit.ts";
import { CONFIG_KEYS, REDACTED, configKey } from "../src/config/registry.ts";
import { describeReferences, referencesTo, validateDocument, type ValidationContext } from "../src/config/validate.ts";
import { configETag, ifMatchHolds } from "../src/config/etag.ts";
import { refuse, type Outcome, type Refusal } from "../src/schemas/outcome.ts";
import type { FieldError } from "../src/schemas/common.ts";
import type { CommitSummary } from "../src/schemas/commit.ts";
import type { ConfiguredPeer } from "../src/schemas/fleet.ts";
import { hashNewPasswords } from "../src/config/passwords.ts";
import { DECOY_HASH, hashPassword } from "../src/trust/password.ts";
import type { Role } from "../src/auth/roles.ts";
import type { ConfigChange, ConfigHistoryPage, ConfigValidationResult, ConfigValues } from "../src/schemas/config.ts";
import type { ConfigOperation } from "../src/schemas/commit.ts";

/** Versions kept in the history (and reachable by rollback); older ones are pruned. */
export const HISTORY_LIMIT = 500;

/** The wire ConfigChangeSet, already shape-checked by the route. */
export type ConfigChangeSet = Parameters<typeof changeSetEdits>[0] & { comment?: string | null };

export interface CommitMeta {
  actor: string;
  comment?: string | null | undefined;
  operation: ConfigOperation;
  /** The request's `If-Match`: the commit is refused unless it names the active version (absent: no precondition). */
  ifMatch?: string | null | undefined;
}

/** The hot-apply event (committed) and the audit of refused changes (rejected). */
export type ConfigEvent =
  | ({
      kind: "committed";
      operation: ConfigOperation;
      actor: string;
      comment: string | null;
      keys: string[];
      document: ConfigDocument;
    } & CommitSummary)
  | { kind: "rejected"; operation: ConfigOperation; actor: string; errors: number };

interface HistoryRow {
  version: number;
  committed_ms: number;
  actor: string;
  comment: string | null;
  operation: ConfigOperation;
  rollback_to: number | null;
  restart_required: number;
  changed_paths: string;
  changes: string;
  previous: string | null;
  [key: string]: SqlStorageValue;
}

type Produce = (active: ConfigDocument) => { ok: true; candidate: ConfigDocument; errors: ConfigError[] } | Refusal;

const iso = (ms: number) => new Date(ms).toISOString();
const toFieldErrors = (errors: ConfigError[]): FieldError[] =>
  errors.map((e) => ({ in: "config", pointer: e.pointer, detail: e.detail }));

/** Removes repeated problems (an edit error and the validator may name the same value). */
const distinct = (errors: ConfigError[]) => [...new Map(errors.map((e) => [`${e.pointer}\n${e.detail}`, e])).values()];
/**
 * The edit's errors, then the validator's about other values: where a value
 * could not be written the candidate still holds the old one (e.g. a new
 * item's null), and the validator's complaint about that (`required`) is noise.
 */
const merged = (edit: ConfigError[], checked: ConfigError[]) =>
  distinct([...edit, ...checked.filter((e) => !edit.some((x) => x.pointer === e.pointer))]);

/**
 * The active document as this object's own code reads it, secrets included.
 * A module-level map rather than a method, so that it is not among the
 * methods the route handlers call (every read the API serves redacts).
 */
const documentOf = new WeakMap<ConfigStore, () => ConfigDocument>();

/** A keyed list's items with their secrets, for this object's own use (sink credentials, password hashes). */
export const secretItemsOf = (store: ConfigStore, list: string): ConfigItem[] =>
  structuredClone(documentOf.get(store)!().lists[list] ?? []);

/** `login.users` with the password hashes, for the identity store in the same object. */
export function accountsOf(store: ConfigStore): { username: string; role: Role; passwordHash: string }[] {
  return secretItemsOf(store, "login.users").map((item) => ({
    username: item.key,
    role: item.values.role as Role,
    passwordHash: String(item.values.password),
  }));
}

/**
 * The active document, secrets included, for the stores of the same object
 * that follow it (fingerprints of BGP passwords and IPsec keys); never served.
 */
export function configDocumentOf(store: ConfigStore): ConfigDocument {
  return documentOf.get(store)!();
}

export class ConfigStore {
  readonly #storage: DurableObjectStorage;
  readonly #sql: SqlStorage;
  readonly #emit: (event: ConfigEvent) => void;
  readonly #now: () => number;
  readonly #context: ValidationContext;
  #active: { version: number; committedMs: number; document: ConfigDocument } | null = null;
  /**
   * `restartRequiredSince`'s last answer, by the version asked from and the active version: the history changes
   * only in a commit, which moves the active version. Every status asks (a fleet overview asks each appliance),
   * and the read was 2 to 3 % of a cold overview's CPU at 1,000 appliances.
   */
  #restartMemo: { since: number; active: number; versions: readonly number[] } | null = null;
  /** Keys the stored document predates (added by a software update since it was written). */
  #missing: string[] = [];
  readonly #frozen: ((meta: CommitMeta) => string | null) | undefined;

  /**
   * `context`: what validation checks against (the appliance's name, the fleet's members, the shipped simulation
   * profile for the CGN section).
   * `frozen`: why commits are refused now (a lapsed licence), or null; asked before every commit but
   * the system's seeds and account changes, which stay possible so access can always be managed.
   * `now`: the appliance's clock, so a commit's `committedUtc` is the instant its log entry carries.
   */
  constructor(
    storage: DurableObjectStorage,
    context: ValidationContext,
    emit: (event: ConfigEvent) => void,
    frozen?: (meta: CommitMeta) => string | null,
    now: () => number = Date.now,
  ) {
    this.#now = now;
    this.#frozen = frozen;
    this.#storage = storage;
    this.#sql = storage.sql;
    this.#emit = emit;
    this.#context = context;
    documentOf.set(this, () => this.#document());
    this.#sql.exec(`
      CREATE TABLE IF NOT EXISTS config_active (
        id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, committed_ms INTEGER NOT NULL,
        document TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS config_history (
        version INTEGER PRIMARY KEY, committed_ms INTEGER NOT NULL, actor TEXT NOT NULL, comment TEXT,
        operation TEXT NOT NULL, rollback_to INTEGER, restart_required INTEGER NOT NULL,
        changed_paths TEXT NOT NULL, changes TEXT NOT NULL, previous TEXT);
    `);
    const row = this.#sql
      .exec<{ version: number; committed_ms: number; document: string }>(
        "SELECT version, committed_ms, document FROM config_active WHERE id = 1",
      )
      .toArray()[0];
    if (row) {
      const stored = JSON.parse(row.document) as Partial<ConfigDocument>;
      this.#active = { version: row.version, committedMs: row.committed_ms, document: normalise(stored) };
      this.#missing = CONFIG_KEYS.filter(
        (key) => !(key.path in ((key.kind === "field" ? stored.fields : stored.lists) ?? {})),
      ).map((key) => key.path);
    }
  }

  /** True once the appliance has a configuration (seeded or committed). */
  isSeeded(): boolean {
    return this.#active !== null;
  }

  /** Stores the first document as version 1 (once; later calls change nothing). */
  seed(document: ConfigDocument): void {
    if (this.#active) return;
    const now = this.#now();
    const changes = diff(normalise({}), document);
    this.#storage.transactionSync(() => {
      this.#sql.exec(
        "INSERT INTO config_history (version, committed_ms, actor, comment, operation, " +
          "rollback_to, restart_required, changed_paths, changes, previous) VALUES (1, ?, " +
          "'system', ?, 'seed', NULL, 0, ?, ?, NULL)",
        now,
        "seeded from the fleet definition and the simulation profile",
        JSON.stringify(changes.changedPaths),
        JSON.stringify(changes.changes),
      );
      this.#sql.exec(
        "INSERT INTO config_active (id, version, committed_ms, document) VALUES (1, 1, ?, ?)",
        now,
        JSON.stringify(document),
      );
    });
    this.#active = { version: 1, committedMs: now, document: cloneDocument(document) };
  }

  /** Keys the stored document predates; a fresh or seeded appliance has none. */
  missingKeys(): string[] {
    return [...this.#missing];
  }

  /**
   * Seeds the keys the stored document predates from `seeded` (built like a
   * fresh appliance's), as one commit by `system`, so that a software update
   * adding a section (CGN groups) does not leave it at an empty default. Once;
   * refused (and left at the defaults) if the result would not validate.
   */
  seedMissing(seeded: ConfigDocument): Outcome<CommitSummary> | null {
    const missing = this.#missing;
    if (missing.length === 0) return null;
    this.#missing = [];
    const comment = `keys added by a software update, seeded like a fresh appliance: ${missing.join(", ")}`;
    return this.#commit({ actor: "system", comment, operation: "seed" }, (active) => {
      const candidate = cloneDocument(active);
      for (const path of missing) {
        if (path in seeded.fields) candidate.fields[path] = structuredClone(seeded.fields[path] ?? null);
        if (path in seeded.lists) candidate.lists[path] = structuredClone(seeded.lists[path] ?? []);
      }
      return { ok: true, candidate, errors: [] };
    });
  }

  #document(): ConfigDocument {
    if (!this.#active) throw new Error("the configuration has not been seeded");
    return this.#active.document;
  }

  // ── reads ────────────────────────────────────────────────────────────────

  /** The active version and when it was committed. */
  activeVersion(): { version: number; committedUtc: string } {
    const active = this.#active!;
    return { version: active.version, committedUtc: iso(active.committedMs) };
  }

  /** Versions after `version` whose changes apply only at a restart. */
  restartRequiredSince(version: number): number[] {
    const active = this.#active?.version ?? 0;
    const memo = this.#restartMemo;
    if (memo?.since === version && memo.active === active) return [...memo.versions];
    const versions = this.#sql
      .exec<{ version: number }>(
        "SELECT version FROM config_history WHERE version > ? AND restart_required = 1 ORDER BY version",
        version,
      )
      .toArray()
      .map((r) => r.version);
    this.#restartMemo = { since: version, active, versions };
    return [...versions];
  }

  /** GET /config: every field and list, secrets redacted, list-mode fields newline-joined. */
  values(): ConfigValues {
    return renderValues(this.#document());
  }

  /** The items of a keyed list with typed values; secrets come back as the placeholder. */
  items(list: string): ConfigItem[] {
    const key = configKey(list);
    if (key?.kind !== "list") return [];
    return (this.#document().lists[list] ?? []).map((item) => ({
      key: item.key,
      values: Object.fromEntries(
        Object.entries(item.values).map(([child, value]) => [
          child,
          key.children[child]?.secret && value !== null ? REDACTED : value,
        ]),
      ),
    }));
  }

  /** One item of a keyed list. */
  item(list: string, key: string): Outcome<{ item: ConfigItem }> {
    const found = this.items(list).find((item) => item.key === key);
    return found ? { ok: true, item: found } : refuse("not-found", `no ${list} item '${key}'`);
  }

  /** A field's typed value (secrets come back as the placeholder). */
  field(path: string): Value {
    const key = configKey(path);
    if (key?.kind !== "field") return null;
    const value = this.#document().fields[path] ?? null;
    return key.secret && value !== null ? REDACTED : value;
  }

  /** The CGN section as the next start builds the allocators from it: groups, maxBindings and maxFlows. */
  cgnSection(): Pick<ConfigDocument, "fields" | "lists"> {
    const { fields, lists } = this.#document();
    return structuredClone({
      fields: { "cgn.maxBindings": fields["cgn.maxBindings"] ?? null, "cgn.maxFlows": fields["cgn.maxFlows"] ?? null },
      lists: { "cgn.groups": lists["cgn.groups"] ?? [] },
    });
  }

  /** The capture mirror allowlist in force (hot-applied). */
  captureAllowlist(): string[] {
    const value = this.#document().fields["captures.mirrorAllowlist"];
    return Array.isArray(value) ? [...value] : [];
  }

  /**
   * `alarms.webhookAllowlist`: the loopback and private addresses every outbound destination may use
   * (src/config/destinations.ts).
   */
  outboundAllowlist(): string[] {
    const value = this.#document().fields["alarms.webhookAllowlist"];
    return Array.isArray(value) ? [...value] : [];
  }

  /**
   * `webUi.peers` with their credentials, for the appliance object itself (read at start: the key applies at restart).
   */
  peers(): ConfiguredPeer[] {
    return (this.#document().lists["webUi.peers"] ?? []).map((item) => ({
      name: item.key,
      url: String(item.values.url ?? ""),
      credential: typeof item.values.credential === "string" ? item.values.credential : null,
      timeoutMs: Number(item.values.timeoutMs ?? 10_000),
    }));
  }

  /** The uploaded certificate chain, or null while the factory self-signed one is in use. */
  certificatePem(): string | null {
    const value = this.#document().fields["webUi.certificate"];
    return typeof value === "string" ? value : null;
  }

  /**
   * For the launcher: the PEMs the listener should serve after the next restart, or null for the factory certificate.
   */
  webUiCertificate(): { certificatePem: string; privateKeyPem: string } | null {
    const { fields } = this.#document();
    const certificatePem = fields["webUi.certificate"];
    const privateKeyPem = fields["webUi.privateKey"];
    return typeof certificatePem === "string" && typeof privateKeyPem === "string"
      ? { certificatePem, privateKeyPem }
      : null;
  }

  /** The history, newest first. */
  history(offset: number, limit: number): ConfigHistoryPage {
    const total = this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM config_history").one().n;
    const rows = this.#sql
      .exec<HistoryRow>("SELECT * FROM config_history ORDER BY version DESC LIMIT ? OFFSET ?", limit, offset)
      .toArray();
    return {
      total,
      offset,
      limit,
      items: rows.map((row) => ({
        version: row.version,
        committedUtc: iso(row.committed_ms),
        actor: row.actor,
        comment: row.comment,
        operation: row.operation,
        rollbackTo: row.rollback_to,
        restartRequired: row.restart_required === 1,
        changedPaths: JSON.parse(row.changed_paths) as string[],
        changes: JSON.parse(row.changes) as ConfigChange[],
      })),
    };
  }

  // ── changes: every one goes through #commit ──────────────────────────────

  /** PUT /config: applies a change set. */
  async apply(
    change: ConfigChangeSet,
    meta: Omit<CommitMeta, "operation" | "comment">,
  ): Promise<Outcome<CommitSummary>> {
    const edits = await hashNewPasswords(changeSetEdits(change), hashPassword);
    return this.#commit({ ...meta, comment: change.comment, operation: "config" }, (active) =>
      applyEdits(active, edits),
    );
  }

  /** POST /config/validate: the same pipeline without the commit (a clear password is checked, not hashed). */
  async validate(change: ConfigChangeSet): Promise<ConfigValidationResult> {
    const edits = await hashNewPasswords(changeSetEdits(change), async () => DECOY_HASH);
    const active = this.#document();
    const edited = applyEdits(active, edits);
    if (!edited.ok)
      return {
        valid: false,
        errors: [{ in: "config", pointer: "#/listOps", detail: edited.detail }],
        restartRequired: false,
        changedPaths: [],
      };
    const errors = merged(edited.errors, validateDocument(edited.candidate, active, this.#context));
    const changes = diff(active, edited.candidate);
    return {
      valid: errors.length === 0,
      errors: toFieldErrors(errors),
      restartRequired: this.#restartRequired(changes.keys),
      changedPaths: changes.changedPaths,
    };
  }

  /**
   * Creates (`create`: 409 if it exists) or fully replaces (`replace`: 404 if
   * it does not) a keyed-list item; `update` (404 if it does not exist) and
   * `upsert` (creates it if it does not) change the given children, leaving
   * the others as they are.
   */
  async putItem(
    list: string,
    key: string,
    fields: Record<string, EditValue>,
    mode: "create" | "replace" | "update" | "upsert",
    meta: CommitMeta,
  ): Promise<Outcome<CommitSummary>> {
    const expect = ({ create: "absent", replace: "present", update: "present", upsert: undefined } as const)[mode];
    const [edit] = await hashNewPasswords(
      [{ op: "item", listPath: list, key, fields, ...(expect ? { expect } : {}), replace: mode === "replace" }],
      hashPassword,
    );
    return this.#commit(meta, (active) => applyEdits(active, [edit!]));
  }

  /** Sets fields for a dedicated operation (e.g. the CGN settings); null returns a field to its default. */
  setFields(fields: Record<string, EditValue>, meta: CommitMeta): Outcome<CommitSummary> {
    return this.#commit(meta, (active) =>
      applyEdits(
        active,
        Object.entries(fields).map(([path, value]): Edit => ({ op: "field", path, value })),
      ),
    );
  }

  /**
   * Sets fields and replaces whole keyed lists for a dedicated operation, as
   * one commit (the routing settings, the static route table): each list
   * becomes exactly the given items, in their order; the others are deleted.
   */
  replaceSection(
    fields: Record<string, EditValue>,
    lists: Record<string, { key: string; fields: Record<string, EditValue> }[]>,
    meta: CommitMeta,
  ): Outcome<CommitSummary> {
    return this.#commit(meta, (active) => {
      const edits: Edit[] = Object.entries(fields).map(([path, value]): Edit => ({ op: "field", path, value }));
      const candidate = cloneDocument(active);
      for (const [list, items] of Object.entries(lists)) {
        // Emptied first, so the list ends up in the given order.
        candidate.lists[list] = [];
        for (const item of items)
          edits.push({ op: "item", listPath: list, key: item.key, fields: item.fields, replace: true });
      }
      return applyEdits(candidate, edits);
    });
  }

  /** Deletes a keyed-list item: 404 if unknown, 409 while other items refer to it. */
  deleteItem(list: string, key: string, meta: CommitMeta): Outcome<CommitSummary> {
    return this.#commit(meta, (active) => {
      if (!(active.lists[list] ?? []).some((item) => item.key === key))
        return refuse("not-found", `no ${list} item '${key}'`);
      const refs = referencesTo(active, list, key);
      if (refs.length > 0)
        return refuse("conflict", `${list} '${key}' is still referenced by ${describeReferences(refs)}`);
      return applyEdits(active, [{ op: "item", listPath: list, key, delete: true }]);
    });
  }

  /** Restores the document as it was right after `version`; itself a new commit. */
  rollback(version: number, meta: Omit<CommitMeta, "operation">): Outcome<CommitSummary> {
    return this.#commit({ ...meta, operation: "rollback", rollbackTo: version }, (active) => {
      const target = this.#documentAfter(version);
      if (!target) return refuse("not-found", `version ${version} is not in the configuration history`);
      return { ok: true, candidate: target, errors: [] };
    });
  }

  /** Installs a web UI certificate and key (already parsed and matched by the caller). */
  installCertificate(
    certificatePem: string,
    privateKeyPem: string,
    meta: Omit<CommitMeta, "operation">,
    operation: "certificate" | "acme" = "certificate",
  ): Outcome<CommitSummary> {
    const edits: Edit[] = [
      { op: "field", path: "webUi.certificate", value: certificatePem },
      { op: "field", path: "webUi.privateKey", value: privateKeyPem },
    ];
    return this.#commit({ ...meta, operation }, (active) => applyEdits(active, edits, { managed: true }));
  }

  #documentAfter(version: number): ConfigDocument | null {
    const active = this.#active!;
    if (version === active.version) return cloneDocument(active.document);
    if (version < 1 || version > active.version) return null;
    const exists = this.#sql.exec("SELECT 1 FROM config_history WHERE version = ?", version).toArray().length > 0;
    const next = this.#sql
      .exec<{ previous: string | null }>("SELECT previous FROM config_history WHERE version = ?", version + 1)
      .toArray()[0];
    if (!exists || !next?.previous) return null;
    const old = JSON.parse(next.previous) as Partial<ConfigDocument>;
    // Keys that version did not have yet (added by later software, then seeded) keep their
    // current value: rolling back must not read "absent" as "empty" and wipe, say, every pool.
    return normalise({
      fields: { ...active.document.fields, ...old.fields },
      lists: { ...active.document.lists, ...old.lists },
    });
  }

  #restartRequired(keys: string[]): boolean {
    return keys.some((path) => configKey(path)?.apply === "restart");
  }

  /** The pipeline. `produce` edits a candidate; everything after it is the same for every operation. */
  #commit(meta: CommitMeta & { rollbackTo?: number }, produce: Produce): Outcome<CommitSummary> {
    // Judged here, with the commit, so no other writer can move the version between the check and the write.
    const current = configETag(this.#active!.version);
    if (meta.ifMatch != null && !ifMatchHolds(meta.ifMatch, current)) {
      const sent = meta.ifMatch.trim().slice(0, 200);
      return refuse(
        "precondition",
        `the configuration is at version ${this.#active!.version} (${current}), not ${sent}: read it again`,
        { etag: current },
      );
    }
    const frozen = meta.operation === "seed" || meta.operation === "user" ? null : (this.#frozen?.(meta) ?? null);
    if (frozen !== null) return refuse("conflict", frozen);
    const active = this.#active!;
    const produced = produce(active.document);
    if (!produced.ok) return produced;
    const errors = merged(produced.errors, validateDocument(produced.candidate, active.document, this.#context));
    if (errors.length > 0) {
      this.#emit({ kind: "rejected", operation: meta.operation, actor: meta.actor, errors: errors.length });
      const shown = errors
        .slice(0, 5)
        .map((e) => `${e.pointer}: ${e.detail}`)
        .join("; ");
      return refuse(
        "rejected",
        `the configuration change was rejected (${errors.length} ` +
          `problem${errors.length === 1 ? "" : "s"}): ${shown}${errors.length > 5 ? "; …" : ""}`,
        {
          errors: toFieldErrors(errors),
        },
      );
    }
    const changes = diff(active.document, produced.candidate);
    // Nothing to change: answer as committed at the active version, without a new history entry.
    if (changes.changedPaths.length === 0) {
      return {
        ok: true,
        version: active.version,
        committedUtc: iso(active.committedMs),
        restartRequired: false,
        changedPaths: [],
      };
    }
    const version = active.version + 1;
    const now = this.#now();
    const restartRequired = this.#restartRequired(changes.keys);
    const comment = meta.comment ?? null;
    this.#storage.transactionSync(() => {
      this.#sql.exec(
        "INSERT INTO config_history (version, committed_ms, actor, comment, operation, " +
          "rollback_to, restart_required, changed_paths, changes, previous) VALUES (?, ?, " +
          "?, ?, ?, ?, ?, ?, ?, ?)",
        version,
        now,
        meta.actor,
        comment,
        meta.operation,
        meta.rollbackTo ?? null,
        restartRequired ? 1 : 0,
        JSON.stringify(changes.changedPaths),
        JSON.stringify(changes.changes),
        JSON.stringify(active.document),
      );
      this.#sql.exec(
        "UPDATE config_active SET version = ?, committed_ms = ?, document = ? WHERE id = 1",
        version,
        now,
        JSON.stringify(produced.candidate),
      );
      this.#sql.exec("DELETE FROM config_history WHERE version <= ?", version - HISTORY_LIMIT);
    });
    this.#active = { version, committedMs: now, document: produced.candidate };
    const summary: CommitSummary = {
      version,
      committedUtc: iso(now),
      restartRequired,
      changedPaths: changes.changedPaths,
    };
    this.#emit({
      kind: "committed",
      operation: meta.operation,
      actor: meta.actor,
      comment,
      keys: changes.keys,
      document: cloneDocument(produced.candidate),
      ...summary,
    });
    return { ok: true, ...summary };
  }
}
