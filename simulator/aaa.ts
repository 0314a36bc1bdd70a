/**
 * AAA: the RADIUS server pool and local authentication. Each request goes to
 * a live server chosen by weight; a lost request counts a failure and the
 * client retries the next server (RFC 5080 §2.2.1 failover) up to
 * `maxAttempts`. A server is marked dead after `deadAfterFailures`
 * consecutive failures and is tried again once `deadTimeSeconds` has passed.
 *
 * The server list is configuration (`radius.servers`), hot-applied with
 * `setServers`. Servers are numbered by a stable id (the session table's
 * `aaa` column names the server that authenticated a session): a removed
 * server's entry is retired, not reused, so a session it authenticated still
 * names it; a kept server keeps its counters whatever its weight becomes.
 */
import { isoTime } from "./clock.ts";
import type { LogRing } from "./logs.ts";
import type { Profile } from "./profile.ts";
import type { Random } from "./random.ts";
import type { RadiusPoolStatus } from "../src/schemas/radius.ts";

/** Outcome of one authentication. */
export type AuthResult =
  | { ok: true; server: number }
  | { ok: false; reason: "access-reject"; server: number }
  | { ok: false; reason: "timeout"; server: number }
  | { ok: false; reason: "no-live-server"; server: -1 };

/** A RADIUS server as the configuration sets it (`radius.servers`: key `host:port`, weight). */
export interface RadiusServerSettings {
  host: string;
  port: number;
  weight: number;
  /** A real server (tcp or tls): the appliance's RADIUS client asks it, the pool only keeps its health. */
  real?: boolean;
}

/** One server ever configured, by id; `retired` once removed from the configuration. */
interface ServerEntry extends RadiusServerSettings {
  /** Chance that one request is lost: a fact of the simulation, not of the configuration. */
  failureProbability: number;
  retired: boolean;
}

/** What `setServers` changed, by `host:port`. */
export interface RadiusReconfigureReport {
  servers: number;
  added: string[];
  removed: string[];
  /** Kept servers whose weight changed. */
  changed: string[];
}

/** Serialisable RADIUS state, one row per server id. */
export interface RadiusState {
  requestsSent: number[];
  consecutiveFailures: number[];
  lastFailureMs: number[];
  lastSuccessMs: number[];
  deadSinceMs: number[];
  forcedDown: boolean[];
  /** Requests answered Access-Accept and Access-Reject (the rest of requestsSent were lost); absent in older snapshots: counted from then on. */
  accepts?: number[];
  rejects?: number[];
  /** Absent in snapshots written before the server list was configurable: the profile's servers, in order. */
  servers?: ServerEntry[];
  order?: number[];
}

const NEVER = -1;
/** Server ids fit the session table's int16 `aaa` column. */
const MAX_SERVER_IDS = 32_767;

const identity = (s: { host: string; port: number }): string => `${s.host.toLowerCase()}:${s.port}`;

/** The RADIUS client's view of its server pool. */
export class RadiusPool {
  readonly #config: Profile["aaa"];
  readonly #logs: LogRing;
  #servers: ServerEntry[];
  /** Ids of the configured servers, in configured order (the order requests walk them in). */
  #order: number[];
  #s: RadiusState;

  constructor(config: Profile["aaa"], logs: LogRing) {
    this.#config = config;
    this.#logs = logs;
    this.#servers = config.servers.map((s) => ({ host: s.host, port: s.port, weight: s.weight, failureProbability: s.failureProbability, retired: false }));
    this.#order = this.#servers.map((_, i) => i);
    const n = config.servers.length;
    this.#s = {
      requestsSent: new Array<number>(n).fill(0),
      consecutiveFailures: new Array<number>(n).fill(0),
      lastFailureMs: new Array<number>(n).fill(NEVER),
      lastSuccessMs: new Array<number>(n).fill(NEVER),
      deadSinceMs: new Array<number>(n).fill(NEVER),
      forcedDown: new Array<boolean>(n).fill(false),
      accepts: new Array<number>(n).fill(0),
      rejects: new Array<number>(n).fill(0),
    };
  }

  /** Number of configured servers. */
  get count(): number {
    return this.#order.length;
  }

  /** Ids of the configured servers, in configured order. */
  ids(): readonly number[] {
    return this.#order;
  }

  /** The configured servers as settings, in order (a reseed installs them again). */
  settings(): RadiusServerSettings[] {
    return this.#order.map((id) => {
      const s = this.#servers[id]!;
      return { host: s.host, port: s.port, weight: s.weight };
    });
  }

  /** `host:port` of a server id (retired ones too: a session still names the server that authenticated it). */
  label(server: number): string {
    const s = this.#servers[server];
    return s ? `${s.host}:${s.port}` : "local";
  }

  /** Id of a configured server by `host` or `host:port`, or -1. */
  find(hostOrLabel: string): number {
    const text = hostOrLabel.toLowerCase();
    return this.#order.find((id) => {
      const s = this.#servers[id]!;
      return s.host.toLowerCase() === text || identity(s) === text;
    }) ?? -1;
  }

  /** Whether a server is dead. */
  isDead(server: number): boolean {
    return (this.#s.deadSinceMs[server] ?? NEVER) !== NEVER;
  }

  /** Number of live servers. */
  get liveCount(): number {
    let n = 0;
    for (const id of this.#order) if (!this.isDead(id)) n++;
    return n;
  }

  /**
   * Installs the configured server list (a hot-apply): a kept server (same
   * `host:port`) keeps its counters and dead state and takes its new weight;
   * a new one starts with clean counters, its request-loss chance taken from
   * the profile's server of the same `host:port`, else the profile's first
   * server; a removed one stops receiving requests at once. Duplicates: the
   * first wins.
   */
  setServers(list: readonly RadiusServerSettings[]): RadiusReconfigureReport {
    const report: RadiusReconfigureReport = { servers: 0, added: [], removed: [], changed: [] };
    const next: number[] = [];
    for (const wanted of list) {
      const key = identity(wanted);
      if (next.some((id) => identity(this.#servers[id]!) === key)) continue;
      let id = this.#servers.findIndex((s) => identity(s) === key);
      const entry = this.#servers[id];
      if (entry && !entry.retired) {
        if (entry.weight !== wanted.weight) report.changed.push(this.label(id));
        entry.weight = wanted.weight;
      } else {
        if (id < 0) id = this.#newId();
        this.#servers[id] = { host: wanted.host, port: wanted.port, weight: wanted.weight, failureProbability: this.#lossOf(key), retired: false };
        this.#reset(id);
        report.added.push(this.label(id));
      }
      next.push(id);
    }
    for (const id of this.#order) {
      if (next.includes(id)) continue;
      report.removed.push(this.label(id));
      this.#servers[id]!.retired = true;
      this.#reset(id);
    }
    this.#order = next;
    report.servers = next.length;
    return report;
  }

  /** Authenticates one subscriber against the pool (the caller logs refusals, sampled with other setup failures). */
  authenticate(rng: Random, nowMs: number): AuthResult {
    const tried: number[] = [];
    let last = -1;
    for (let attempt = 0; attempt < this.#config.maxAttempts; attempt++) {
      const server = this.#choose(rng, tried);
      if (server < 0) break;
      tried.push(server);
      last = server;
      const cfg = this.#servers[server];
      this.#s.requestsSent[server] = (this.#s.requestsSent[server] ?? 0) + 1;
      const lost = this.#s.forcedDown[server] === true || rng.chance(cfg?.failureProbability ?? 0);
      if (lost) {
        this.#fail(server, nowMs);
        continue;
      }
      this.#s.consecutiveFailures[server] = 0;
      this.#s.lastSuccessMs[server] = nowMs;
      const answers = rng.chance(this.#config.rejectProbability) ? (this.#s.rejects ??= []) : (this.#s.accepts ??= []);
      answers[server] = (answers[server] ?? 0) + 1;
      if (answers === this.#s.rejects) return { ok: false, reason: "access-reject", server };
      return { ok: true, server };
    }
    if (last < 0) return { ok: false, reason: "no-live-server", server: -1 };
    return { ok: false, reason: "timeout", server: last };
  }

  /** Revives servers whose dead time has elapsed (they are probed with live traffic again). */
  tick(nowMs: number): void {
    for (const i of this.#order) {
      const since = this.#s.deadSinceMs[i] ?? NEVER;
      if (since !== NEVER && nowMs - since >= this.#config.deadTimeSeconds * 1000) this.#revive(i, nowMs, "dead-time-elapsed");
    }
  }

  /** Scenario: every request to the server is lost from now on. */
  forceDown(server: number): void {
    this.#s.forcedDown[server] = true;
  }

  /** Scenario: the server answers again and is revived at once. */
  restore(server: number, nowMs: number): void {
    this.#s.forcedDown[server] = false;
    if (this.isDead(server)) this.#revive(server, nowMs, "scenario");
  }

  /** The spec's RADIUS pool status. */
  status(): RadiusPoolStatus {
    const servers = this.#order.map((i) => {
      const cfg = this.#servers[i]!;
      return {
        host: cfg.host,
        port: cfg.port,
        weight: cfg.weight,
        isDead: this.isDead(i),
        consecutiveFailures: this.#s.consecutiveFailures[i] ?? 0,
        requestsSent: this.#s.requestsSent[i] ?? 0,
        requestsByResult: this.#results(i),
        lastFailure: time(this.#s.lastFailureMs[i]),
        lastSuccess: time(this.#s.lastSuccessMs[i]),
      };
    });
    const dead = servers.filter((s) => s.isDead).length;
    return { configured: servers.length > 0, totalServers: servers.length, liveServers: servers.length - dead, deadServers: dead, servers };
  }

  /** State for a snapshot. */
  exportState(): RadiusState {
    return { ...structuredCloneState(this.#s), servers: this.#servers.map((s) => ({ ...s })), order: [...this.#order] };
  }

  /** Restores snapshot state. */
  importState(state: RadiusState): void {
    this.#s = structuredCloneState(state);
    if (state.servers && state.order) {
      this.#servers = state.servers.map((s) => ({ ...s }));
      this.#order = [...state.order];
    }
  }

  /** A fresh id for a server never configured before (past the column's range, the oldest retired id is reused). */
  #newId(): number {
    if (this.#servers.length < MAX_SERVER_IDS) return this.#servers.length;
    const retired = this.#servers.findIndex((s) => s.retired);
    return retired >= 0 ? retired : this.#servers.length - 1;
  }

  /** A server's requests by outcome; together they are its requestsSent. */
  #results(id: number): RadiusPoolStatus["servers"][number]["requestsByResult"] {
    const accept = this.#s.accepts?.[id] ?? 0;
    const reject = this.#s.rejects?.[id] ?? 0;
    // Lost requests are not counted apart: they are the rest. (A snapshot from before the answers were counted shows its earlier requests as lost.)
    return { accept, reject, timeout: Math.max(0, (this.#s.requestsSent[id] ?? 0) - accept - reject) };
  }

  /** Clean counters and state for an id. */
  #reset(id: number): void {
    (this.#s.accepts ??= [])[id] = 0;
    (this.#s.rejects ??= [])[id] = 0;
    this.#s.requestsSent[id] = 0;
    this.#s.consecutiveFailures[id] = 0;
    this.#s.lastFailureMs[id] = NEVER;
    this.#s.lastSuccessMs[id] = NEVER;
    this.#s.deadSinceMs[id] = NEVER;
    this.#s.forcedDown[id] = false;
  }

  /** The request-loss chance of a server: the profile's server of the same `host:port`, else its first server's. */
  #lossOf(key: string): number {
    const servers = this.#config.servers;
    return (servers.find((s) => identity(s) === key) ?? servers[0])?.failureProbability ?? 0;
  }

  #choose(rng: Random, tried: readonly number[]): number {
    let total = 0;
    for (const i of this.#order) {
      if (!this.isDead(i) && !tried.includes(i)) total += this.#servers[i]?.weight ?? 0;
    }
    if (total <= 0) return -1;
    let x = rng.float() * total;
    for (const i of this.#order) {
      if (this.isDead(i) || tried.includes(i)) continue;
      x -= this.#servers[i]?.weight ?? 0;
      if (x < 0) return i;
    }
    return -1;
  }

  #fail(server: number, nowMs: number): void {
    const failures = (this.#s.consecutiveFailures[server] ?? 0) + 1;
    this.#s.consecutiveFailures[server] = failures;
    this.#s.lastFailureMs[server] = nowMs;
    if (failures >= this.#config.deadAfterFailures && !this.isDead(server)) {
      this.#s.deadSinceMs[server] = nowMs;
      this.#logs.emit(nowMs, "radius.server.dead", { server: this.label(server), consecutiveFailures: failures });
    }
  }

  #revive(server: number, nowMs: number, reason: string): void {
    const since = this.#s.deadSinceMs[server] ?? nowMs;
    this.#s.deadSinceMs[server] = NEVER;
    this.#s.consecutiveFailures[server] = 0;
    this.#logs.emit(nowMs, "radius.server.alive", { server: this.label(server), deadSeconds: Math.round((nowMs - since) / 1000), reason });
  }
}

function time(ms: number | undefined): string | null {
  return ms === undefined || ms === NEVER ? null : isoTime(ms);
}

function structuredCloneState(s: RadiusState): RadiusState {
  return {
    requestsSent: [...s.requestsSent],
    consecutiveFailures: [...s.consecutiveFailures],
    lastFailureMs: [...s.lastFailureMs],
    lastSuccessMs: [...s.lastSuccessMs],
    deadSinceMs: [...s.deadSinceMs],
    forcedDown: [...s.forcedDown],
    accepts: [...(s.accepts ?? [])],
    rejects: [...(s.rejects ?? [])],
  };
}
