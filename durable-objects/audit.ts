/**
 * The audit trail: the security-relevant subset of the log (logins, logouts,
 * token, user, passkey and password changes, configuration commits and
 * refusals, scenario actions and every `audit.*` act), kept in the
 * appliance's SQLite apart from the 10,000-entry log ring. Events anonymous
 * callers can cause (failed logins, lockouts, refused OIDC callbacks) stay in
 * the ring only, so however many of them arrive they cannot push an audit
 * entry out (ASVS 5.0 V16.4: logs protected from loss). The trail keeps the
 * newest `AUDIT_CAPACITY` entries and survives restarts.
 */
import type { LogEntry, LogTail } from "../src/schemas/logs.ts";

/** Audit entries kept; older ones are dropped. At one a second that is more than a day of continuous changes. */
export const AUDIT_CAPACITY = 100_000;

/** Log entries that belong in the audit trail: only acts of an authenticated principal (or of the appliance itself). */
const AUDITED = new Set([
  "auth.login",
  "auth.logout",
  "auth.session.ended",
  "auth.token.created",
  "auth.token.revoked",
  "auth.user.created",
  "auth.user.updated",
  "auth.user.deleted",
  "auth.password.changed",
  "auth.totp.enrolled",
  "auth.totp.reset",
  "auth.unlocked",
  "auth.passkey.registered",
  "auth.passkey.removed",
  "config.commit",
  "config.rejected",
  "config.frozen",
  "scenario.action",
]);

/** True for a log entry the audit trail keeps. */
export const isAudited = (msgId: string): boolean => AUDITED.has(msgId) || msgId.startsWith("audit.");

export class AuditTrail {
  readonly #sql: SqlStorage;
  #sinceTrim = 0;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
    this.#sql.exec(`CREATE TABLE IF NOT EXISTS audit_log (
      seq INTEGER PRIMARY KEY AUTOINCREMENT, timestamp TEXT NOT NULL, severity TEXT NOT NULL, msg_id TEXT NOT NULL,
      fields TEXT NOT NULL)`);
  }

  /** Keeps a log entry when it is one the trail audits. */
  observe(entry: LogEntry): void {
    if (!isAudited(entry.msgId)) return;
    this.#sql.exec(
      "INSERT INTO audit_log (timestamp, severity, msg_id, fields) VALUES (?, ?, ?, ?)",
      entry.timestamp,
      entry.severity,
      entry.msgId,
      JSON.stringify(entry.fields),
    );
    // Trimmed in batches: one indexed delete per thousand entries.
    if (++this.#sinceTrim >= 1000) {
      this.#sinceTrim = 0;
      this.#sql.exec("DELETE FROM audit_log WHERE seq <= (SELECT MAX(seq) FROM audit_log) - ?", AUDIT_CAPACITY);
    }
  }

  /** The newest `count` entries, or up to `count` after `sinceSeq`; oldest first, with the trail's own `seq`. */
  tail(count: number, sinceSeq: number | null): LogTail {
    const rows =
      sinceSeq === null
        ? this.#sql
            .exec<AuditRow>("SELECT * FROM (SELECT * FROM audit_log ORDER BY seq DESC LIMIT ?) ORDER BY seq", count)
            .toArray()
        : this.#sql
            .exec<AuditRow>("SELECT * FROM audit_log WHERE seq > ? ORDER BY seq LIMIT ?", sinceSeq, count)
            .toArray();
    const lastSeq = Number(
      this.#sql.exec<{ n: number | null }>("SELECT MAX(seq) AS n FROM audit_log").toArray()[0]?.n ?? 0,
    );
    return {
      entries: rows.map((row) => ({
        seq: row.seq,
        timestamp: row.timestamp,
        severity: row.severity as LogEntry["severity"],
        msgId: row.msg_id,
        fields: JSON.parse(row.fields) as LogEntry["fields"],
      })),
      lastSeq,
    };
  }
}

interface AuditRow {
  seq: number;
  timestamp: string;
  severity: string;
  msg_id: string;
  fields: string;
  [key: string]: SqlStorageValue;
}
