/**
 * GRE circuits' live state. The configuration holds the circuits; this store
 * remembers when each tunnel was last provisioned, and reads the state from
 * the pure model (simulator/gre.ts) at the data plane's simulated instant.
 * It follows the configuration through the hot-apply event.
 */
import type { ConfigItem } from "../src/config/types.ts";
import { greCircuitStatus, type GreCircuitModel } from "../simulator/gre.ts";
import type { GreStatus } from "../src/schemas/gre-circuits.ts";

interface Row {
  circuit: string;
  fingerprint: string;
  provisioned_ms: number;
  [key: string]: SqlStorageValue;
}

const numberOrNull = (value: unknown): number | null => (typeof value === "number" ? value : null);

export class GreStore {
  readonly #sql: SqlStorage;
  readonly #clock: () => { nowMs: number; seed: number };
  readonly #routingUp: () => boolean;
  /** The configured circuits, in configuration order, with their provisioning instant and eBGP neighbor. */
  #circuits: { model: GreCircuitModel; provisionedMs: number; neighbor: string }[] = [];

  /** `routingUp`: whether the routing daemon runs (circuits' BGP sessions are its). */
  constructor(sql: SqlStorage, clock: () => { nowMs: number; seed: number }, routingUp: () => boolean = () => true) {
    this.#sql = sql;
    this.#clock = clock;
    this.#routingUp = routingUp;
    sql.exec(
      "CREATE TABLE IF NOT EXISTS gre_provisioning (circuit TEXT PRIMARY KEY, " +
        "fingerprint TEXT NOT NULL, provisioned_ms INTEGER NOT NULL)",
    );
  }

  /**
   * Follows the configuration. A new circuit, or one whose tunnel changed
   * (its listener's local address, the listener, remote, GRE key, VRF or
   * tunnel addresses), is provisioned afresh now; the rest keep their
   * instant, so a restart re-provisions nothing. Deleted circuits are forgotten.
   */
  apply(listeners: ConfigItem[], circuits: ConfigItem[]): void {
    const nowMs = this.#clock().nowMs;
    const localAddress = new Map(listeners.map((l) => [l.key, l.values.localAddress ?? null]));
    const stored = new Map(
      this.#sql
        .exec<Row>("SELECT circuit, fingerprint, provisioned_ms FROM gre_provisioning")
        .toArray()
        .map((r) => [r.circuit, r]),
    );
    this.#circuits = circuits.map(({ key, values: v }) => {
      const fingerprint = JSON.stringify([
        v.listenerId,
        localAddress.get(String(v.listenerId)) ?? null,
        v.remote,
        v.key,
        v.vrf,
        v.localTunnelAddress,
        v.remoteTunnelAddress,
      ]);
      const previous = stored.get(key);
      stored.delete(key);
      let provisionedMs = previous?.provisioned_ms ?? nowMs;
      if (previous?.fingerprint !== fingerprint) {
        provisionedMs = nowMs;
        this.#sql.exec(
          "INSERT INTO gre_provisioning (circuit, fingerprint, provisioned_ms) VALUES (?, " +
            "?, ?) ON CONFLICT (circuit) DO UPDATE SET fingerprint = excluded.fingerprint, " +
            "provisioned_ms = excluded.provisioned_ms",
          key,
          fingerprint,
          nowMs,
        );
      }
      const model: GreCircuitModel = {
        id: key,
        vrf: String(v.vrf),
        bfd: v.bfd === true,
        peerAsn: numberOrNull(v.peerAsn),
        maximumPrefix: numberOrNull(v.maximumPrefix),
      };
      // The eBGP neighbor is the far end of the tunnel; outside the global table its VRF tells it apart.
      const remote = String(v.remoteTunnelAddress).split("/")[0] ?? "";
      const neighbor = v.vrf === "default" || v.vrf === undefined ? remote : `${remote} vrf ${String(v.vrf)}`;
      return { model, provisionedMs, neighbor };
    });
    for (const gone of stored.keys()) this.#sql.exec("DELETE FROM gre_provisioning WHERE circuit = ?", gone);
  }

  /** The circuits' eBGP sessions and their states now; null while the routing daemon cannot be asked. */
  bgpSessions(): { key: string; state: string }[] | null {
    if (!this.#routingUp()) return null;
    const { nowMs, seed } = this.#clock();
    return this.#circuits
      .filter((c) => c.model.peerAsn !== null)
      .map((c) => ({ key: c.neighbor, state: greCircuitStatus(seed, c.model, c.provisionedMs, nowMs, true).bgpState }));
  }

  /** Every circuit's live state at the simulated now (only those in `vrf` when given), in configuration order. */
  status(vrf?: string): GreStatus {
    const { nowMs, seed } = this.#clock();
    const routingUp = this.#routingUp();
    const circuits = this.#circuits
      .filter((c) => vrf === undefined || c.model.vrf === vrf)
      .map((c) => greCircuitStatus(seed, c.model, c.provisionedMs, nowMs, routingUp));
    return { asOfUtc: new Date(nowMs).toISOString(), circuits };
  }
}
