/**
 * IPsec as the Worker reaches it. The configuration holds `ipsec.enabled`
 * and the connections; this store remembers when each connection was last
 * loaded, since when IPsec has been enabled, and the SAs of connections
 * deleted while up (until the model tears them down), and asks the pure model
 * (simulator/ipsec.ts) at the data plane's simulated instant. It follows the
 * configuration through the hot-apply event.
 */
import type { ConfigDocument } from "../src/config/types.ts";
import { IPSEC_PEERS_LIST, fingerprintOf, ipsecPeersOf, routerIdOf } from "../src/config/routing.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import type { IpsecPeerStatus, IpsecStatus } from "../src/schemas/ipsec.ts";
import {
  ipsecPeer,
  ipsecStatus,
  orphanTeardownMs,
  type IpsecOrphan,
  type IpsecPeerConfig,
  type IpsecWorld,
} from "../simulator/ipsec.ts";
import type { DataPlane } from "./data-plane.ts";
import { Provisioning } from "./provisioning.ts";

export interface IpsecSources {
  /** The active configuration, secrets included (the PSK enters the fingerprint only). */
  document: () => ConfigDocument;
  dataPlane: DataPlane;
}

interface OrphanRow {
  name: string;
  peer: string;
  deleted_ms: number;
  [key: string]: SqlStorageValue;
}

/** This end's addresses per family: `ipsec.localAddress`, else the router id for IPv4. */
function localAddressOf(doc: ConfigDocument): IpsecWorld["localAddress"] {
  const configured = doc.fields["ipsec.localAddress"];
  const routerId = routerIdOf(doc);
  const v4 = routerId === "0.0.0.0" ? null : routerId;
  if (typeof configured !== "string") return { v4, v6: null };
  return configured.includes(":") ? { v4, v6: configured } : { v4: configured, v6: null };
}

export class IpsecStore {
  readonly #sql: SqlStorage;
  readonly #sources: IpsecSources;
  readonly #connections: Provisioning;
  #starts = new Map<string, number>();
  /** The connections as last synced, to judge a deleted one's SA. */
  #peers: IpsecPeerConfig[] = [];

  constructor(sql: SqlStorage, sources: IpsecSources) {
    this.#sql = sql;
    this.#sources = sources;
    this.#connections = new Provisioning(sql, "ipsec-connection");
    sql.exec(`
      CREATE TABLE IF NOT EXISTS ipsec_orphans (name TEXT PRIMARY KEY, peer TEXT NOT NULL, deleted_ms INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS ipsec_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    this.sync();
  }

  /**
   * Follows the configuration (at open and on each commit touching IPsec):
   * enabling starts every connection's negotiation now, disabling tears every
   * SA down; a new or changed connection (or a new local address) is loaded
   * and initiated now; a deleted one whose SA is up keeps it for a while.
   */
  sync(): void {
    const doc = this.#sources.document();
    const nowMs = this.#sources.dataPlane.clock().nowMs;
    const enabled = doc.fields["ipsec.enabled"] === true;
    const wasEnabledSince = this.#enabledSince();
    if (!enabled) {
      this.#sql.exec("DELETE FROM ipsec_state WHERE key = 'enabledSinceMs'");
      this.#sql.exec("DELETE FROM ipsec_orphans");
    } else if (wasEnabledSince === null) {
      this.#sql.exec(
        "INSERT INTO ipsec_state (key, value) VALUES ('enabledSinceMs', ?) ON CONFLICT " +
          "(key) DO UPDATE SET value = excluded.value",
        String(nowMs),
      );
    }
    const before = this.#world(nowMs);
    const local = localAddressOf(doc);
    const items = doc.lists[IPSEC_PEERS_LIST] ?? [];
    const { startedMs, removed } = this.#connections.follow(
      items.map((item) => ({ name: item.key, fingerprint: fingerprintOf([item.values, local]) })),
      nowMs,
    );
    this.#starts = startedMs;
    // A deleted connection's SA, up at the deletion, lives on until the model tears it down.
    if (enabled && wasEnabledSince !== null && before.daemonUp) {
      for (const name of removed) {
        const peer = this.#peers.find((p) => p.name === name);
        if (!peer) continue;
        const orphan: IpsecOrphan = { peer, deletedMs: nowMs };
        if (orphanTeardownMs(before, orphan) === null) continue;
        this.#sql.exec(
          "INSERT INTO ipsec_orphans (name, peer, deleted_ms) VALUES (?, ?, ?) ON CONFLICT " +
            "(name) DO UPDATE SET peer = excluded.peer, deleted_ms = excluded.deleted_ms",
          name,
          JSON.stringify(peer),
          nowMs,
        );
      }
    }
    // A connection configured again under an orphan's name replaces it.
    for (const item of items) this.#sql.exec("DELETE FROM ipsec_orphans WHERE name = ?", item.key);
    this.#peers = ipsecPeersOf(items, (item) => this.#starts.get(item.key) ?? nowMs);
  }

  /** The spec's IpsecStatus. */
  status(): IpsecStatus {
    return ipsecStatus(this.#world(this.#sources.dataPlane.clock().nowMs));
  }

  /** The spec's IpsecPeerStatus: 404 when no connection of that name is configured and no SA carries it. */
  peer(name: string): Outcome<{ peer: IpsecPeerStatus }> {
    const found = ipsecPeer(this.#world(this.#sources.dataPlane.clock().nowMs), name);
    return found
      ? { ok: true, peer: found }
      : refuse("not-found", `no IPsec peer '${name}' is configured and no SA carries that name`);
  }

  #enabledSince(): number | null {
    const row = this.#sql
      .exec<{ value: string }>("SELECT value FROM ipsec_state WHERE key = 'enabledSinceMs'")
      .toArray()[0];
    return row ? Number(row.value) : null;
  }

  #world(nowMs: number): IpsecWorld {
    const doc = this.#sources.document();
    const { seed } = this.#sources.dataPlane.clock();
    const orphans = this.#sql
      .exec<OrphanRow>("SELECT name, peer, deleted_ms FROM ipsec_orphans ORDER BY deleted_ms, name")
      .toArray()
      .map((row) => ({ peer: JSON.parse(row.peer) as IpsecPeerConfig, deletedMs: row.deleted_ms }));
    const world: IpsecWorld = {
      seed,
      nowMs,
      daemonUp: this.#sources.dataPlane.daemons().ipsec,
      enabled: doc.fields["ipsec.enabled"] === true,
      enabledSinceMs: this.#enabledSince(),
      localAddress: localAddressOf(doc),
      peers: ipsecPeersOf(doc.lists[IPSEC_PEERS_LIST] ?? [], (item) => this.#starts.get(item.key) ?? nowMs),
      orphans,
    };
    // SAs past their teardown are forgotten.
    for (const orphan of orphans) {
      const teardown = orphanTeardownMs(world, orphan);
      if (teardown === null || nowMs >= teardown)
        this.#sql.exec("DELETE FROM ipsec_orphans WHERE name = ?", orphan.peer.name);
    }
    return world;
  }
}
