/**
 * AAA: the RADIUS server pool and local authentication. Each request goes to
 * a live server chosen by weight; a lost request counts a failure and the
 * client retries the next server (RFC 5080 §2.2.1 failover) up to
 * `maxAttempts`. A server is marked dead after `deadAfterFailures`
 * consecutive failures and is tried again once `deadTimeSeconds` has passed;
 * its outage (`isDown`, what the alarm shows) lasts until it answers again,
 * however many dead times pass meanwhile.
 *
 * Accounting (RFC 2866) goes to the same servers, on the port after the
 * authentication port (1813 for 1812, as IANA pairs them): an
 * Accounting-Request to a live server by weight, failing over likewise; a
 * lost one counts towards the server's dead state, one host answering both.
 * Each server counts its Accounting-Requests by Acct-Status-Type and the
 * Accounting-Responses it sent back.
 *
 * Real servers (`transport` tcp or tls) are asked by the appliance's RADIUS client, outside the model: for them
 * the pool holds the requests awaiting their answer (`ask`), the answers and the servers' health as the client
 * reports them (`deliver`), applied at the next sub-step (external-aaa.ts), so the model stays a function of its
 * seed and its inputs. A pool is simulated or real as a whole (the configuration's rule).
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
import type { AccessOutcome, Pacing, ServerHealth } from "./radius-records.ts";

/** What the RADIUS client delivered for the next sub-step: answers in arrival order, the latest health and pacing. */
interface Delivered {
  outcomes: AccessOutcome[];
  health: ServerHealth[] | null;
  pacing: Pacing | null;
}

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
  /**
   * A real server's transport (RFC 6613, RFC 6614): the appliance's RADIUS client asks it, the pool keeps its health.
   * Absent = simulated.
   */
  transport?: "tcp" | "tls";
  /**
   * A real server's accounting port (`radius.servers` `accountingPort`); a simulated one's is the port after `port`.
   */
  accountingPort?: number;
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
  /** When each server's outage began (marked dead, not answered since); absent in older snapshots: its deadSinceMs. */
  downSinceMs?: number[];
  /**
   * Requests answered Access-Accept and Access-Reject (the rest of requestsSent were lost); absent in older snapshots:
   * counted from then on.
   */
  accepts?: number[];
  rejects?: number[];
  /** Accounting-Requests by Acct-Status-Type (Start, Interim-Update, Stop) and those answered; absent in older ones. */
  acctStart?: number[];
  acctInterim?: number[];
  acctStop?: number[];
  acctAnswered?: number[];
  /** Accounting records no server answered (their types, oldest first) and those dropped from a full queue. */
  acctQueue?: number[];
  acctDropped?: number;
  /** Absent in snapshots written before the server list was configurable: the profile's servers, in order. */
  servers?: ServerEntry[];
  order?: number[];
  /** Real servers: requests awaiting their answer (session id, subscriber), and answers and health not yet applied. */
  outstanding?: [number, number][];
  delivered?: Delivered;
  pacing?: Pacing | null;
  /** Why each server's last request failed (real servers). */
  failureReasons?: ServerHealth["failureReason"][];
}

const NEVER = -1;
/** No server tried yet (the common case: no list allocated per request). */
const NONE_TRIED: readonly number[] = [];
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
  /** Real servers: sessions whose Access-Request awaits its answer, by session id → subscriber. */
  #outstanding = new Map<number, number>();
  /** Answers and health the client delivered since the last sub-step. */
  #delivered: Delivered = { outcomes: [], health: null, pacing: null };
  /** The client's pacing, as last applied. */
  #pacing: Pacing | null = null;
  /** Outstanding requests the client may hold at most (its rate times its timeout); set with the servers. */
  maxOutstanding = 1000;
  /** Where the accounting queue starts in `acctQueue` (sent records are cut off now and then). */
  #queueHead = 0;

  constructor(config: Profile["aaa"], logs: LogRing) {
    this.#config = config;
    this.#logs = logs;
    this.#servers = config.servers.map((s) => ({
      host: s.host,
      port: s.port,
      weight: s.weight,
      failureProbability: s.failureProbability,
      retired: false,
    }));
    this.#order = this.#servers.map((_, i) => i);
    const n = config.servers.length;
    this.#s = {
      requestsSent: new Array<number>(n).fill(0),
      consecutiveFailures: new Array<number>(n).fill(0),
      lastFailureMs: new Array<number>(n).fill(NEVER),
      lastSuccessMs: new Array<number>(n).fill(NEVER),
      deadSinceMs: new Array<number>(n).fill(NEVER),
      forcedDown: new Array<boolean>(n).fill(false),
      downSinceMs: new Array<number>(n).fill(NEVER),
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
      return {
        host: s.host,
        port: s.port,
        weight: s.weight,
        ...(s.transport === undefined ? {} : { transport: s.transport }),
      };
    });
  }

  /** `host:port` of a server id (retired ones too: a session still names the server that authenticated it). */
  label(server: number): string {
    const s = this.#servers[server];
    return s ? `${s.host}:${s.port}` : "local";
  }

  /** `host:port` of a server's accounting port (the authentication port + 1). */
  accountingLabel(server: number): string {
    const s = this.#servers[server];
    return s ? `${s.host}:${s.accountingPort ?? s.port + 1}` : "local";
  }

  /** Id of a configured server by `host` or `host:port`, or -1. */
  find(hostOrLabel: string): number {
    const text = hostOrLabel.toLowerCase();
    return (
      this.#order.find((id) => {
        const s = this.#servers[id]!;
        return s.host.toLowerCase() === text || identity(s) === text;
      }) ?? -1
    );
  }

  /** Whether a server is dead. */
  isDead(server: number): boolean {
    return (this.#s.deadSinceMs[server] ?? NEVER) !== NEVER;
  }

  /** Whether the configured servers are real ones: the appliance's RADIUS client asks them, not the model. */
  get external(): boolean {
    return this.#order.some((id) => this.#servers[id]?.transport !== undefined);
  }

  /** Real servers: a session's Access-Request is on its way (its subscriber waits for the answer). */
  ask(sessionId: number, sub: number): void {
    this.#outstanding.set(sessionId, sub);
  }

  /** Requests awaiting their answer, oldest first: session id and subscriber. */
  outstanding(): [number, number][] {
    return [...this.#outstanding];
  }

  /** The subscriber of an outstanding request, taken off the list; undefined when none is outstanding for it. */
  answered(sessionId: number): number | undefined {
    const sub = this.#outstanding.get(sessionId);
    this.#outstanding.delete(sessionId);
    return sub;
  }

  /** The client's answers and its servers' health, kept until the next sub-step applies them (`takeDelivered`). */
  deliver(outcomes: readonly AccessOutcome[], health: readonly ServerHealth[] | null, pacing: Pacing | null): void {
    this.#delivered.outcomes.push(...outcomes);
    if (health) this.#delivered.health = [...health];
    if (pacing) this.#delivered.pacing = { ...pacing };
  }

  /** What was delivered since the last sub-step, in arrival order. */
  takeDelivered(): Delivered {
    const taken = this.#delivered;
    this.#delivered = { outcomes: [], health: null, pacing: null };
    if (taken.pacing) this.#pacing = taken.pacing;
    return taken;
  }

  /**
   * Mirrors the client's health of the real servers (what GET /radius/servers shows and the alarms follow), and
   * logs a server's death and its return as the simulated pool does.
   */
  observeHealth(health: readonly ServerHealth[], nowMs: number): void {
    for (const h of health) {
      const id = this.find(h.server);
      if (id < 0 || this.#servers[id]?.transport === undefined) continue;
      const s = this.#s;
      s.requestsSent[id] = h.requestsSent;
      (s.accepts ??= [])[id] = h.accepts;
      (s.rejects ??= [])[id] = h.rejects;
      s.consecutiveFailures[id] = h.consecutiveFailures;
      s.lastFailureMs[id] = h.lastFailureMs ?? NEVER;
      s.lastSuccessMs[id] = h.lastSuccessMs ?? NEVER;
      (s.failureReasons ??= [])[id] = h.failureReason;
      (s.acctStart ??= [])[id] = h.accounting.start;
      (s.acctInterim ??= [])[id] = h.accounting.interimUpdate;
      (s.acctStop ??= [])[id] = h.accounting.stop;
      (s.acctAnswered ??= [])[id] = h.accounting.responses;
      const wasDead = this.isDead(id);
      if (h.dead && !wasDead) {
        s.deadSinceMs[id] = h.deadSinceMs ?? nowMs;
        (s.downSinceMs ??= [])[id] = s.deadSinceMs[id] ?? nowMs;
        this.#logs.emit(nowMs, "radius.server.dead", {
          server: this.label(id),
          consecutiveFailures: h.consecutiveFailures,
          reason: h.failureReason,
        });
      } else if (!h.dead && wasDead) {
        (s.downSinceMs ??= [])[id] = NEVER;
        this.#revive(id, nowMs, "answered");
      }
    }
  }

  /** Whether a server is in an outage: marked dead and not answered since (dead-time revivals do not end it). */
  isDown(server: number): boolean {
    return (this.#s.downSinceMs?.[server] ?? this.#s.deadSinceMs[server] ?? NEVER) !== NEVER;
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
      if (entry && !entry.retired && entry.transport === wanted.transport) {
        if (entry.weight !== wanted.weight) report.changed.push(this.label(id));
        entry.weight = wanted.weight;
      } else {
        // A server that became real (or simulated) starts afresh: its counters were another kind's.
        if (entry && !entry.retired) report.removed.push(this.label(id));
        if (id < 0) id = this.#newId();
        const transport = wanted.transport === undefined ? {} : { transport: wanted.transport };
        this.#servers[id] = {
          host: wanted.host,
          port: wanted.port,
          weight: wanted.weight,
          ...transport,
          failureProbability: this.#lossOf(key),
          retired: false,
        };
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
      (this.#s.downSinceMs ??= [])[server] = NEVER;
      const answers = rng.chance(this.#config.rejectProbability) ? (this.#s.rejects ??= []) : (this.#s.accepts ??= []);
      answers[server] = (answers[server] ?? 0) + 1;
      if (answers === this.#s.rejects) return { ok: false, reason: "access-reject", server };
      return { ok: true, server };
    }
    if (last < 0) return { ok: false, reason: "no-live-server", server: -1 };
    return { ok: false, reason: "timeout", server: last };
  }

  /**
   * Sends one Accounting-Request of a type (0 Start, 1 Interim-Update, 2 Stop): the id of the server that answered,
   * or -1 when none did (every attempt lost, or no live server).
   */
  account(rng: Random, nowMs: number, type: 0 | 1 | 2): number {
    const s = this.#s;
    const counters = type === 0 ? (s.acctStart ??= []) : type === 1 ? (s.acctInterim ??= []) : (s.acctStop ??= []);
    const answered = (s.acctAnswered ??= []);
    let tried: number[] | null = null;
    for (let attempt = 0; attempt < this.#config.maxAttempts; attempt++) {
      const server = this.#choose(rng, tried ?? NONE_TRIED);
      if (server < 0) return -1;
      counters[server] = (counters[server] ?? 0) + 1;
      if (s.forcedDown[server] === true || rng.chance(this.#servers[server]?.failureProbability ?? 0)) {
        this.#fail(server, nowMs);
        (tried ??= []).push(server);
        continue;
      }
      answered[server] = (answered[server] ?? 0) + 1;
      s.consecutiveFailures[server] = 0;
      s.lastSuccessMs[server] = nowMs;
      (s.downSinceMs ??= [])[server] = NEVER;
      return server;
    }
    return -1;
  }

  /** Queues a record no server answered (dropped, and counted, when the queue holds `aaa.accountingQueue`). */
  enqueue(type: 0 | 1 | 2): void {
    const queue = (this.#s.acctQueue ??= []);
    if (queue.length - this.#queueHead < this.#config.accountingQueue) queue.push(type);
    else this.#s.acctDropped = (this.#s.acctDropped ?? 0) + 1;
  }

  /** Sends queued records again, oldest first, up to `max`, until one goes unanswered (every sub-step). */
  flush(rng: Random, nowMs: number, max: number): void {
    const queue = this.#s.acctQueue;
    // Real servers' records wait in their client's queue, not this one.
    if (!queue || this.external) return;
    for (let k = 0; k < max && this.#queueHead < queue.length; k++) {
      if (this.account(rng, nowMs, (queue[this.#queueHead] ?? 0) as 0 | 1 | 2) < 0) break;
      this.#queueHead++;
    }
    // Compacted now and then rather than shifted per record.
    if (this.#queueHead > 1024 && this.#queueHead * 2 > queue.length) {
      queue.splice(0, this.#queueHead);
      this.#queueHead = 0;
    }
  }

  /**
   * Accounting records waiting because no server answers (what `radius.accounting.failed` reports): the queue's;
   * with real servers, their client's while none of them is alive (records merely waiting their turn under the
   * rate do not count).
   */
  get accountingWaiting(): number {
    if (!this.external) return this.queued;
    return this.liveCount === 0 ? (this.#pacing?.accountingQueued ?? 0) : 0;
  }

  /** Records waiting in the accounting queue. */
  get queued(): number {
    return (this.#s.acctQueue?.length ?? 0) - this.#queueHead;
  }

  /** Revives servers whose dead time has elapsed (they are probed with live traffic again). */
  tick(nowMs: number): void {
    for (const i of this.#order) {
      // A real server is back when it answers (the client's Status-Server probes, RFC 5997), not by a timer.
      if (this.#servers[i]?.transport !== undefined) continue;
      const since = this.#s.deadSinceMs[i] ?? NEVER;
      if (since !== NEVER && nowMs - since >= this.#config.deadTimeSeconds * 1000)
        this.#revive(i, nowMs, "dead-time-elapsed");
    }
  }

  /** Scenario: every request to the server is lost from now on. */
  forceDown(server: number): void {
    this.#s.forcedDown[server] = true;
  }

  /** Scenario: the server answers again and is revived at once. */
  restore(server: number, nowMs: number): void {
    this.#s.forcedDown[server] = false;
    (this.#s.downSinceMs ??= [])[server] = NEVER;
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
        accounting: this.#accounting(i),
        lastFailure: time(this.#s.lastFailureMs[i]),
        lastSuccess: time(this.#s.lastSuccessMs[i]),
        transport: cfg.transport ?? ("simulated" as const),
        lastFailureReason: cfg.transport === undefined ? null : (this.#s.failureReasons?.[i] ?? null),
      };
    });
    const dead = servers.filter((s) => s.isDead).length;
    const pacing = this.external ? (this.#pacing ?? { requestsPerSecond: 0, queued: 0, notSentInTime: 0 }) : null;
    // Real servers' accounting waits in their client's queue, which it reports with its pacing.
    const accounting = this.external
      ? { queued: this.#pacing?.accountingQueued ?? 0, dropped: this.#pacing?.accountingDropped ?? 0 }
      : { queued: this.queued, dropped: this.#s.acctDropped ?? 0 };
    const total = servers.length;
    const live = total - dead;
    const wirePacing = pacing && {
      requestsPerSecond: pacing.requestsPerSecond,
      queued: pacing.queued,
      notSentInTime: pacing.notSentInTime,
    };
    return {
      configured: total > 0,
      totalServers: total,
      liveServers: live,
      deadServers: dead,
      servers,
      pacing: wirePacing,
      accounting,
    };
  }

  /** State for a snapshot. */
  exportState(): RadiusState {
    const outstanding = [...this.#outstanding];
    const delivered = structuredClone(this.#delivered);
    const servers = this.#servers.map((s) => ({ ...s }));
    const state = {
      ...structuredCloneState(this.#s),
      servers,
      order: [...this.#order],
      outstanding,
      delivered,
      pacing: this.#pacing,
    };
    const acctQueue = (this.#s.acctQueue ?? []).slice(this.#queueHead);
    return { ...state, acctQueue, acctDropped: this.#s.acctDropped ?? 0 };
  }

  /** Restores snapshot state. */
  importState(state: RadiusState): void {
    this.#s = structuredCloneState(state);
    this.#outstanding = new Map(state.outstanding ?? []);
    this.#delivered = structuredClone(state.delivered ?? { outcomes: [], health: null, pacing: null });
    this.#pacing = state.pacing ?? null;
    this.#s.acctQueue = [...(state.acctQueue ?? [])];
    this.#s.acctDropped = state.acctDropped ?? 0;
    this.#queueHead = 0;
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
    // Lost requests are not counted apart: they are the rest. (A snapshot from before the answers were counted shows
    // its earlier requests as lost.)
    return { accept, reject, timeout: Math.max(0, (this.#s.requestsSent[id] ?? 0) - accept - reject) };
  }

  /** A server's Accounting-Requests: by type, answered and lost. */
  #accounting(id: number): RadiusPoolStatus["servers"][number]["accounting"] {
    const s = this.#s;
    const start = s.acctStart?.[id] ?? 0;
    const interimUpdate = s.acctInterim?.[id] ?? 0;
    const stop = s.acctStop?.[id] ?? 0;
    const responses = s.acctAnswered?.[id] ?? 0;
    const sent = start + interimUpdate + stop;
    return {
      port: this.#servers[id]?.accountingPort ?? (this.#servers[id]?.port ?? 1812) + 1,
      requestsSent: sent,
      requestsByType: { start, interimUpdate, stop },
      responses,
      timeouts: Math.max(0, sent - responses),
    };
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
    (this.#s.failureReasons ??= [])[id] = null;
    (this.#s.downSinceMs ??= [])[id] = NEVER;
    const s = this.#s;
    const lists = [(s.acctStart ??= []), (s.acctInterim ??= []), (s.acctStop ??= []), (s.acctAnswered ??= [])];
    for (const list of lists) list[id] = 0;
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
      const down = (this.#s.downSinceMs ??= []);
      if ((down[server] ?? NEVER) === NEVER) down[server] = nowMs;
      this.#logs.emit(nowMs, "radius.server.dead", {
        server: this.label(server),
        consecutiveFailures: failures,
        reason: "timeout",
      });
    }
  }

  #revive(server: number, nowMs: number, reason: string): void {
    const since = this.#s.deadSinceMs[server] ?? nowMs;
    this.#s.deadSinceMs[server] = NEVER;
    this.#s.consecutiveFailures[server] = 0;
    this.#logs.emit(nowMs, "radius.server.alive", {
      server: this.label(server),
      deadSeconds: Math.round((nowMs - since) / 1000),
      reason,
    });
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
    // Older snapshots: an outage is the dead state they knew.
    downSinceMs: s.downSinceMs ? [...s.downSinceMs] : [...s.deadSinceMs],
    accepts: [...(s.accepts ?? [])],
    rejects: [...(s.rejects ?? [])],
    failureReasons: [...(s.failureReasons ?? [])],
    acctStart: [...(s.acctStart ?? [])],
    acctInterim: [...(s.acctInterim ?? [])],
    acctStop: [...(s.acctStop ?? [])],
    acctAnswered: [...(s.acctAnswered ?? [])],
  };
}
