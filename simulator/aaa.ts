/**
 * AAA: the RADIUS server pool and local authentication. Each request goes to
 * a live server chosen by weight; a lost request counts a failure and the
 * client retries the next server (RFC 5080 §2.2.1 failover) up to
 * `maxAttempts`. A server is marked dead after `deadAfterFailures`
 * consecutive failures and is tried again once `deadTimeSeconds` has passed.
 */
import { isoTime } from "./clock.ts";
import type { LogRing } from "./logs.ts";
import type { Profile } from "./profile.ts";
import type { Random } from "./random.ts";

/** Outcome of one authentication. */
export type AuthResult =
  | { ok: true; server: number }
  | { ok: false; reason: "access-reject"; server: number }
  | { ok: false; reason: "timeout"; server: number }
  | { ok: false; reason: "no-live-server"; server: -1 };

/** The spec's RADIUS pool status. */
export interface RadiusPoolStatus {
  configured: boolean;
  totalServers: number;
  liveServers: number;
  deadServers: number;
  servers: {
    host: string;
    port: number;
    weight: number;
    isDead: boolean;
    consecutiveFailures: number;
    requestsSent: number;
    lastFailure: string | null;
    lastSuccess: string | null;
  }[];
}

/** Serialisable RADIUS state, one row per server. */
export interface RadiusState {
  requestsSent: number[];
  consecutiveFailures: number[];
  lastFailureMs: number[];
  lastSuccessMs: number[];
  deadSinceMs: number[];
  forcedDown: boolean[];
}

const NEVER = -1;

/** The RADIUS client's view of its server pool. */
export class RadiusPool {
  readonly #config: Profile["aaa"];
  readonly #logs: LogRing;
  #s: RadiusState;

  constructor(config: Profile["aaa"], logs: LogRing) {
    this.#config = config;
    this.#logs = logs;
    const n = config.servers.length;
    this.#s = {
      requestsSent: new Array<number>(n).fill(0),
      consecutiveFailures: new Array<number>(n).fill(0),
      lastFailureMs: new Array<number>(n).fill(NEVER),
      lastSuccessMs: new Array<number>(n).fill(NEVER),
      deadSinceMs: new Array<number>(n).fill(NEVER),
      forcedDown: new Array<boolean>(n).fill(false),
    };
  }

  /** Number of configured servers. */
  get count(): number {
    return this.#config.servers.length;
  }

  /** `host:port` of a server. */
  label(server: number): string {
    const s = this.#config.servers[server];
    return s ? `${s.host}:${s.port}` : "local";
  }

  /** Index of a server by `host` or `host:port`, or -1. */
  find(hostOrLabel: string): number {
    const text = hostOrLabel.toLowerCase();
    return this.#config.servers.findIndex((s) => s.host.toLowerCase() === text || `${s.host}:${s.port}`.toLowerCase() === text);
  }

  /** Whether a server is dead. */
  isDead(server: number): boolean {
    return (this.#s.deadSinceMs[server] ?? NEVER) !== NEVER;
  }

  /** Number of live servers. */
  get liveCount(): number {
    let n = 0;
    for (let i = 0; i < this.count; i++) if (!this.isDead(i)) n++;
    return n;
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
      const cfg = this.#config.servers[server];
      this.#s.requestsSent[server] = (this.#s.requestsSent[server] ?? 0) + 1;
      const lost = this.#s.forcedDown[server] === true || rng.chance(cfg?.failureProbability ?? 0);
      if (lost) {
        this.#fail(server, nowMs);
        continue;
      }
      this.#s.consecutiveFailures[server] = 0;
      this.#s.lastSuccessMs[server] = nowMs;
      if (rng.chance(this.#config.rejectProbability)) return { ok: false, reason: "access-reject", server };
      return { ok: true, server };
    }
    if (last < 0) return { ok: false, reason: "no-live-server", server: -1 };
    return { ok: false, reason: "timeout", server: last };
  }

  /** Revives servers whose dead time has elapsed (they are probed with live traffic again). */
  tick(nowMs: number): void {
    for (let i = 0; i < this.count; i++) {
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
    const servers = this.#config.servers.map((cfg, i) => ({
      host: cfg.host,
      port: cfg.port,
      weight: cfg.weight,
      isDead: this.isDead(i),
      consecutiveFailures: this.#s.consecutiveFailures[i] ?? 0,
      requestsSent: this.#s.requestsSent[i] ?? 0,
      lastFailure: time(this.#s.lastFailureMs[i]),
      lastSuccess: time(this.#s.lastSuccessMs[i]),
    }));
    const dead = servers.filter((s) => s.isDead).length;
    return { configured: servers.length > 0, totalServers: servers.length, liveServers: servers.length - dead, deadServers: dead, servers };
  }

  /** State for a snapshot. */
  exportState(): RadiusState {
    return structuredCloneState(this.#s);
  }

  /** Restores snapshot state. */
  importState(state: RadiusState): void {
    this.#s = structuredCloneState(state);
  }

  #choose(rng: Random, tried: readonly number[]): number {
    let total = 0;
    for (let i = 0; i < this.count; i++) {
      if (!this.isDead(i) && !tried.includes(i)) total += this.#config.servers[i]?.weight ?? 0;
    }
    if (total <= 0) return -1;
    let x = rng.float() * total;
    for (let i = 0; i < this.count; i++) {
      if (this.isDead(i) || tried.includes(i)) continue;
      x -= this.#config.servers[i]?.weight ?? 0;
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
  };
}
