/**
 * The appliance's RADIUS client for real servers (radius.servers with transport tcp or tls): it sends what the
 * model asks (Access-Requests, Accounting-Requests) and hands back what came of them, with each server's health.
 *
 * - Pacing: at most `radius.requestsPerSecond` requests leave per second (a token bucket, one second deep). An
 *   Access-Request waits first (a setup waits for it), accounting takes what is left and at least a fifth, so
 *   neither starves. An Access-Request still waiting when its timeout has passed is not sent: its setup fails and
 *   it is counted (`notSentInTime`). Accounting waits as long as it must, in a bounded queue whose overflow is
 *   counted (`accountingDropped`).
 * - Failover (RFC 5080 §2.2.1): a request goes to a live server by weight; no answer in `radius.timeoutSeconds`
 *   (or a refused or closed connection, or an answer the secret does not verify) tries the next, up to the
 *   profile's `aaa.maxAttempts`. `aaa.deadAfterFailures` consecutive failures mark a server dead: it gets no
 *   requests, and a Status-Server (RFC 5997) every few seconds finds it alive again when it answers.
 * - Accounting-On when the client starts with an empty data plane, Accounting-Off before it goes (RFC 2866 §5.1).
 * - No Disconnect or CoA (RFC 5176): a server sends them to the NAS's own port 3799, and a Worker listens on no
 *   port (docs/radius.md).
 *
 * Times are the appliance's clock (`now`): the instants the API shows.
 */
import type {
  AccessOutcome,
  AccessRequestRecord,
  AccountingRecord,
  Pacing,
  ServerHealth,
} from "../../simulator/index.ts";
import type { RadiusClientSettings, RadiusServerTarget } from "../../src/config/radius.ts";
import { CODE } from "../../src/radius/dictionary.ts";
import type { AcctStatusName } from "../../src/radius/dictionary.ts";
import {
  accessRequest,
  acceptedAttributes,
  nasAccountingRequest,
  sessionAccountingRequest,
  statusServer,
  type NasIdentity,
  type SessionAccounting,
} from "../../src/radius/messages.ts";
import type { Packet } from "../../src/radius/packet.ts";
import { RadiusConnection, type FailureReason } from "./connection.ts";

/** The profile's failover rules (`aaa`). */
export interface FailoverPolicy {
  maxAttempts: number;
  deadAfterFailures: number;
}

/** Connections the client opens to one server port at most (FreeRADIUS's `max_connections` defaults to 16). */
export const CONNECTIONS_PER_PORT = 4;
/** How often a dead server is sent a Status-Server. */
export const PROBE_MS = 5000;
/** Accounting records held while no server answers, at most (more are dropped and counted). */
export const ACCOUNTING_QUEUE = 100_000;
/** Accounting's share of the rate when both queues wait: at least every fifth request. */
const ACCOUNTING_EVERY = 5;

interface Job {
  kind: "access" | "accounting";
  /** Servers tried, by label. */
  tried: string[];
  /**
   * Access: when (wall clock: the timeout is real time, whatever the simulated clock does) it stops being worth
   * sending; null for accounting.
   */
  deadlineMs: number | null;
  /** Accounting pinned to one server (Accounting-On/Off go to each). */
  pinned: string | null;
  build: (nas: NasIdentity, identifier: number, secret: string, nowMs: number) => Packet;
  /** Access: the answer (or the failure) is an outcome; accounting: done, or back to the queue. */
  answered: (server: ServerState, packet: Packet) => void;
  failed: (server: ServerState | null, reason: "timeout" | "no-live-server" | "not-sent") => void;
  acctType: "Start" | "Interim-Update" | "Stop" | "other" | null;
}

/** One real server: its connections (the auth and acct ports, one when they are the same) and its health. */
class ServerState {
  readonly target: RadiusServerTarget;
  weight = 1;
  readonly #connections = new Map<number, RadiusConnection[]>();
  /** Answers verified on any of its connections (a new secret is a new ServerState): connection.ts `#unanswered`. */
  readonly #answered = { count: 0 };
  health: ServerHealth;
  accounting = { start: 0, interimUpdate: 0, stop: 0, responses: 0 };
  probe: ReturnType<typeof setInterval> | null = null;

  constructor(target: RadiusServerTarget) {
    this.target = target;
    this.health = {
      server: target.label,
      requestsSent: 0,
      accepts: 0,
      rejects: 0,
      consecutiveFailures: 0,
      lastFailureMs: null,
      lastSuccessMs: null,
      dead: false,
      deadSinceMs: null,
      failureReason: null,
      accounting: this.accounting,
    };
  }

  /**
   * A connection to `port` with an Identifier free: an open one, else a new one up to CONNECTIONS_PER_PORT (one
   * connection carries 256 outstanding requests, RFC 6613 §2.6.5; a busy BNG opens several), else the least busy.
   */
  connection(port: number, allowlist: readonly string[]): RadiusConnection {
    const open = (this.#connections.get(port) ?? []).filter((c) => !c.closed);
    this.#connections.set(port, open);
    const free = open.find((c) => c.hasRoom);
    if (free) return free;
    if (open.length < CONNECTIONS_PER_PORT) {
      const target = { host: this.target.host, port, tls: this.target.transport === "tls", secret: this.target.secret };
      const connection = new RadiusConnection(target, allowlist, this.#answered);
      open.push(connection);
      return connection;
    }
    return open.reduce((a, b) => (a.outstanding <= b.outstanding ? a : b));
  }

  close(): void {
    for (const connections of this.#connections.values()) for (const connection of connections) connection.close();
    this.#connections.clear();
    if (this.probe) clearInterval(this.probe);
    this.probe = null;
  }
}

/** The model's accounting record as the codec writes it (Gigawords and Acct-Delay-Time are the codec's). */
function sessionAccountingOf(r: AccountingRecord): SessionAccounting {
  return {
    status: r.statusType,
    sessionId: r.sessionId,
    username: r.username,
    framedIpAddress: r.framedIpAddress,
    framedIpv6Address: null,
    framedIpv6Prefix: r.framedIpv6Prefix,
    delegatedIpv6Prefix: r.delegatedIpv6Prefix,
    nasPortId: r.nasPortId,
    callingStationId: r.callingStationId,
    ppp: r.ppp,
    sessionTimeSeconds: r.sessionTimeSeconds,
    inputOctets: r.inputOctets,
    outputOctets: r.outputOctets,
    inputPackets: r.inputPackets,
    outputPackets: r.outputPackets,
    terminateCause: r.terminateCause?.code ?? null,
    eventMs: Date.parse(r.eventTime),
  };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RadiusClient {
  readonly #nas: () => NasIdentity;
  readonly #now: () => number;
  #settings: RadiusClientSettings | null = null;
  #policy: FailoverPolicy = { maxAttempts: 3, deadAfterFailures: 3 };
  #allowlist: readonly string[] = [];
  readonly #servers = new Map<string, ServerState>();
  #access: Job[] = [];
  #accounting: Job[] = [];
  #outcomes: AccessOutcome[] = [];
  #notSentInTime = 0;
  #accountingDropped = 0;
  #tokens = 0;
  #refilledMs = 0;
  #sinceAccounting = 0;
  #pumping = false;

  constructor(nas: () => NasIdentity, now: () => number) {
    this.#nas = nas;
    this.#now = now;
  }

  /** Whether real servers are configured. */
  get active(): boolean {
    return this.#settings !== null;
  }

  /** The outstanding Access-Requests the model may hold: what can be sent within one timeout at the rate. */
  get capacity(): number {
    const s = this.#settings;
    return s ? Math.max(1, Math.floor((s.requestsPerSecond * s.timeoutMs) / 1000)) : 0;
  }

  /**
   * Hot-applies the real servers and settings (null: none, the pool is simulated). A kept server keeps its
   * health and connections unless where or how it is reached changed; a removed one is closed.
   */
  configure(
    settings: RadiusClientSettings | null,
    weights: ReadonlyMap<string, number>,
    allowlist: readonly string[],
    policy: FailoverPolicy,
  ): void {
    this.#settings = settings;
    this.#allowlist = [...allowlist];
    this.#policy = policy;
    const wanted = new Map((settings?.servers ?? []).map((s) => [s.label, s]));
    for (const [label, state] of this.#servers) {
      const next = wanted.get(label);
      if (next && JSON.stringify(next) === JSON.stringify(state.target)) continue;
      state.close();
      this.#servers.delete(label);
    }
    for (const [label, target] of wanted) {
      const state = this.#servers.get(label) ?? new ServerState(target);
      state.weight = weights.get(label) ?? 1;
      this.#servers.set(label, state);
    }
    if (!settings) {
      for (const job of this.#access) job.failed(null, "no-live-server");
      this.#access = [];
      this.#accounting = [];
    }
    this.#kick();
  }

  /** Queues an Access-Request; its outcome is among the next `takeOutcomes()`. */
  authenticate(request: AccessRequestRecord): void {
    const settings = this.#settings;
    if (!settings) {
      this.#outcomes.push({ sessionId: request.sessionId, result: "no-live-server" });
      return;
    }
    const job: Job = {
      kind: "access",
      tried: [],
      deadlineMs: Date.now() + settings.timeoutMs,
      pinned: null,
      acctType: null,
      build: (nas, identifier, secret) => {
        const input = {
          ...request,
          sessionId: String(request.sessionId),
          password: this.#settings?.subscriberPassword ?? "",
        };
        return accessRequest(nas, input, secret, identifier);
      },
      answered: (server, packet) => {
        if (packet.code === CODE["Access-Accept"]) {
          server.health.accepts++;
          this.#outcomes.push({
            sessionId: request.sessionId,
            result: "accept",
            server: server.target.label,
            attributes: acceptedAttributes(packet),
          });
        } else {
          // An Access-Challenge asks for what a CPE's PAP or CHAP cannot give: refused, as a Reject.
          server.health.rejects++;
          this.#outcomes.push({ sessionId: request.sessionId, result: "access-reject", server: server.target.label });
        }
      },
      failed: (server, reason) => {
        if (reason === "not-sent") this.#notSentInTime++;
        this.#outcomes.push(
          server && reason === "timeout"
            ? { sessionId: request.sessionId, result: "timeout", server: server.target.label }
            : { sessionId: request.sessionId, result: reason === "not-sent" ? "not-sent" : "no-live-server" },
        );
      },
    };
    this.#access.push(job);
    this.#kick();
  }

  /**
   * Queues a session's Accounting-Request (Start, Interim-Update, Stop) as the model recorded it (simulator
   * accounting.ts: its octets and times are the API's at the event's instant); dropped and counted when the queue
   * is full.
   */
  account(model: AccountingRecord): void {
    if (!this.#settings) return;
    const record = sessionAccountingOf(model);
    this.#queueAccounting({
      kind: "accounting",
      tried: [],
      deadlineMs: null,
      pinned: null,
      acctType: record.status,
      build: (nas, identifier, _secret, nowMs) => {
        const delay = Math.max(0, Math.floor((nowMs - record.eventMs) / 1000));
        return sessionAccountingRequest(nas, record, delay, identifier);
      },
      answered: () => {},
      failed: () => {},
    });
  }

  /** Accounting-On or -Off to every real server (RFC 2866 §5.1): the NAS starts with no session, or stops. */
  accountingOnOff(status: Extract<AcctStatusName, "Accounting-On" | "Accounting-Off">, bootId: string): void {
    const eventMs = this.#now();
    for (const label of this.#servers.keys()) {
      this.#queueAccounting({
        kind: "accounting",
        tried: [],
        deadlineMs: null,
        pinned: label,
        acctType: "other",
        build: (nas, identifier) => nasAccountingRequest(nas, status, bootId, eventMs, identifier),
        answered: () => {},
        failed: () => {},
      });
    }
  }

  /** The answers since the last call, in arrival order. */
  takeOutcomes(): AccessOutcome[] {
    const outcomes = this.#outcomes;
    this.#outcomes = [];
    return outcomes;
  }

  /** Each real server's health, in configured order. */
  health(): ServerHealth[] {
    return [...this.#servers.values()].map((s) => ({ ...s.health, accounting: { ...s.accounting } }));
  }

  /** The pacing, as GET /radius/servers shows it. */
  pacing(): Pacing {
    return {
      requestsPerSecond: this.#settings?.requestsPerSecond ?? 0,
      queued: this.#access.length + this.#accounting.length,
      notSentInTime: this.#notSentInTime,
      accountingQueued: this.#accounting.length,
      accountingDropped: this.#accountingDropped,
    };
  }

  /** Accounting records waiting for a server, and dropped from a full queue. */
  accountingQueue(): { queued: number; dropped: number } {
    return { queued: this.#accounting.length, dropped: this.#accountingDropped };
  }

  /** Closes every connection (the object is going, or the servers were removed). */
  close(): void {
    for (const state of this.#servers.values()) state.close();
  }

  #queueAccounting(job: Job): void {
    if (this.#accounting.length >= ACCOUNTING_QUEUE) {
      this.#accountingDropped++;
      return;
    }
    this.#accounting.push(job);
    this.#kick();
  }

  #kick(): void {
    if (this.#pumping || !this.#settings) return;
    this.#pumping = true;
    void this.#pump().finally(() => {
      this.#pumping = false;
    });
  }

  /** Waits for a token; 0 when one was taken. */
  #token(): number {
    const rate = this.#settings?.requestsPerSecond ?? 1;
    const now = Date.now();
    this.#tokens = Math.min(rate, this.#tokens + ((now - this.#refilledMs) / 1000) * rate);
    this.#refilledMs = now;
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil(((1 - this.#tokens) / rate) * 1000));
  }

  #nextJob(): Job | undefined {
    const accountingDue =
      this.#accounting.length > 0 && (this.#access.length === 0 || this.#sinceAccounting >= ACCOUNTING_EVERY - 1);
    if (accountingDue && this.#liveServers().length > 0) {
      this.#sinceAccounting = 0;
      return this.#accounting.shift();
    }
    this.#sinceAccounting++;
    return this.#access.shift();
  }

  async #pump(): Promise<void> {
    while (this.#settings && this.#access.length + (this.#liveServers().length > 0 ? this.#accounting.length : 0) > 0) {
      // An Access-Request that waited too long for its first send is not worth a token (a failover is).
      const head = this.#access[0];
      if (head && head.tried.length === 0 && head.deadlineMs !== null && Date.now() > head.deadlineMs) {
        this.#access.shift();
        head.failed(null, "not-sent");
        continue;
      }
      const wait = this.#token();
      if (wait > 0) {
        await sleep(wait);
        continue;
      }
      const job = this.#nextJob();
      if (!job) continue;
      const server = this.#choose(job);
      if (!server) {
        if (job.kind === "access") {
          const last = job.tried.length > 0 ? (this.#servers.get(job.tried[job.tried.length - 1]!) ?? null) : null;
          job.failed(last, last ? "timeout" : "no-live-server");
        } else {
          // No live server for it now: it waits at the head for one to answer a probe.
          job.tried = [];
          this.#accounting.unshift(job);
          this.#tokens += 1;
        }
        continue;
      }
      const port = job.kind === "access" ? server.target.authPort : server.target.acctPort;
      const connection = server.connection(port, this.#allowlist);
      if (!connection.hasRoom) {
        (job.kind === "access" ? this.#access : this.#accounting).unshift(job);
        await sleep(5);
        continue;
      }
      job.tried.push(server.target.label);
      // Not awaited: up to 256 requests are outstanding per connection (RFC 6613 §2.6.5); the rate is the bucket's.
      void this.#send(job, server, connection);
    }
  }

  #liveServers(): ServerState[] {
    return [...this.#servers.values()].filter((s) => !s.health.dead);
  }

  /** A live server not yet tried, by weight (RFC 5080 §2.2.1); null when the attempts are spent or none is left. */
  #choose(job: Job): ServerState | null {
    if (job.pinned !== null) {
      const pinned = this.#servers.get(job.pinned);
      return pinned && !pinned.health.dead && job.tried.length === 0 ? pinned : null;
    }
    if (job.tried.length >= this.#policy.maxAttempts) return null;
    const candidates = this.#liveServers().filter((s) => !job.tried.includes(s.target.label));
    const total = candidates.reduce((n, s) => n + s.weight, 0);
    let x = Math.random() * total;
    for (const s of candidates) {
      x -= s.weight;
      if (x < 0) return s;
    }
    return candidates[candidates.length - 1] ?? null;
  }

  async #send(job: Job, server: ServerState, connection: RadiusConnection): Promise<void> {
    const settings = this.#settings!;
    if (job.kind === "access") server.health.requestsSent++;
    else if (job.acctType === "Start") server.accounting.start++;
    else if (job.acctType === "Interim-Update") server.accounting.interimUpdate++;
    else if (job.acctType === "Stop") server.accounting.stop++;
    const answer = await connection.send(
      (identifier) => job.build(this.#nas(), identifier, server.target.secret, this.#now()),
      settings.timeoutMs,
    );
    if (answer.ok) {
      this.#succeeded(server);
      if (job.kind === "accounting") server.accounting.responses++;
      job.answered(server, answer.packet);
    } else {
      this.#failed(server, answer.reason, answer.cause);
      if (job.kind === "access") this.#access.unshift(job);
      else if (job.pinned === null || !server.health.dead) {
        // Accounting is never given up while the queue holds it: tried again, elsewhere first.
        if (job.tried.length >= this.#policy.maxAttempts) job.tried = [];
        this.#accounting.unshift(job);
      }
    }
    this.#kick();
  }

  #succeeded(server: ServerState): void {
    const h = server.health;
    h.consecutiveFailures = 0;
    h.lastSuccessMs = this.#now();
    if (h.dead) this.#revive(server);
  }

  #failed(server: ServerState, reason: FailureReason, cause: string): void {
    const h = server.health;
    h.consecutiveFailures++;
    h.lastFailureMs = this.#now();
    h.failureReason = reason;
    // The cause goes to the console, not the log ring (read-only accounts read it), as syslog's and the sinks' do.
    console.warn(`RADIUS server ${server.target.label}: ${reason}: ${cause}`);
    if (!h.dead && h.consecutiveFailures >= this.#policy.deadAfterFailures) {
      h.dead = true;
      h.deadSinceMs = this.#now();
      server.probe = setInterval(() => void this.#probe(server), PROBE_MS);
    }
  }

  #revive(server: ServerState): void {
    server.health.dead = false;
    server.health.deadSinceMs = null;
    if (server.probe) clearInterval(server.probe);
    server.probe = null;
    this.#kick();
  }

  /** A Status-Server to a dead server (RFC 5997 §4.1): an answer revives it. */
  async #probe(server: ServerState): Promise<void> {
    const settings = this.#settings;
    if (!settings || !server.health.dead) return;
    const connection = server.connection(server.target.authPort, this.#allowlist);
    if (!connection.hasRoom) return;
    const answer = await connection.send((identifier) => statusServer(this.#nas(), identifier), settings.timeoutMs);
    if (answer.ok) this.#succeeded(server);
    else {
      server.health.lastFailureMs = this.#now();
      server.health.failureReason = answer.reason;
    }
  }
}
