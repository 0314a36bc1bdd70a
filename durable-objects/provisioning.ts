/**
 * When each configured control-plane object (a BGP session, an IGP
 * adjacency, an IPsec connection) was last (re)started: the one fact the
 * pure models need that the configuration, the seed and the clock cannot
 * give. A new object, or one whose fingerprint changed, starts now; the rest
 * keep their instant, so a restart of the appliance restarts nothing.
 */

interface Row {
  name: string;
  fingerprint: string;
  provisioned_ms: number;
  [key: string]: SqlStorageValue;
}

export class Provisioning {
  readonly #sql: SqlStorage;
  readonly #scope: string;

  constructor(sql: SqlStorage, scope: string) {
    this.#sql = sql;
    this.#scope = scope;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS control_provisioning (scope TEXT NOT NULL, name TEXT " +
        "NOT NULL, fingerprint TEXT NOT NULL, provisioned_ms INTEGER NOT NULL, PRIMARY " +
        "KEY (scope, name))",
    );
  }

  /**
   * Restarts objects now (all of this scope when `name` is null): a scenario's `clear`. Returns the names restarted.
   */
  restart(name: string | null, nowMs: number): string[] {
    const rows = this.#sql
      .exec<Row>("SELECT name, fingerprint, provisioned_ms FROM control_provisioning WHERE scope = ?", this.#scope)
      .toArray();
    const hit = rows.filter((r) => name === null || r.name === name).map((r) => r.name);
    for (const n of hit)
      this.#sql.exec(
        "UPDATE control_provisioning SET provisioned_ms = ? WHERE scope = ? AND name = ?",
        nowMs,
        this.#scope,
        n,
      );
    return hit;
  }

  /** Follows the configured objects; returns each one's start instant and the names that are gone. */
  follow(
    objects: readonly { name: string; fingerprint: string }[],
    nowMs: number,
  ): { startedMs: Map<string, number>; removed: string[] } {
    const stored = new Map(
      this.#sql
        .exec<Row>("SELECT name, fingerprint, provisioned_ms FROM control_provisioning WHERE scope = ?", this.#scope)
        .toArray()
        .map((r) => [r.name, r]),
    );
    const startedMs = new Map<string, number>();
    for (const { name, fingerprint } of objects) {
      const previous = stored.get(name);
      stored.delete(name);
      if (previous?.fingerprint === fingerprint) {
        startedMs.set(name, previous.provisioned_ms);
        continue;
      }
      startedMs.set(name, nowMs);
      this.#sql.exec(
        "INSERT INTO control_provisioning (scope, name, fingerprint, provisioned_ms) " +
          "VALUES (?, ?, ?, ?) ON CONFLICT (scope, name) DO UPDATE SET fingerprint = " +
          "excluded.fingerprint, provisioned_ms = excluded.provisioned_ms",
        this.#scope,
        name,
        fingerprint,
        nowMs,
      );
    }
    for (const gone of stored.keys())
      this.#sql.exec("DELETE FROM control_provisioning WHERE scope = ? AND name = ?", this.#scope, gone);
    return { startedMs, removed: [...stored.keys()] };
  }
}
