/**
 * The appliance's data plane: the seeded simulation (simulator/) with what
 * only it owns — the clock and its lead over the wall clock, the snapshot in
 * SQLite, the log streams, the log and step watchers, the alert sinks'
 * fan-out, and the tables the core hot-applies (source-VRF rules, the
 * capture allowlist, pools, RADIUS). Each section's operations live in its
 * port (durable-objects/ports/), which reads and writes the model through
 * `model` and maps its failure reasons with ports/reasons.ts.
 */
import {
  Gateway,
  compileSteering,
  type FieldValue,
  type LocalInstallReport,
  type LicenceTerms,
  type LocalSubscriber,
  type ModelViews,
  type LogEntry,
  type PortBlockRecord,
  type PoolSettings,
  type Profile,
  type RadiusServerSettings,
  type AccessOutcome,
  type AccessRequestRecord,
  type AccountingRecord,
  type Pacing,
  type ServerHealth,
  type Severity,
  type SourceVrfRule,
  type SteeringTable,
} from "../simulator/index.ts";
import { decodeSnapshot } from "../simulator/snapshot.ts";
import type { AlertNotification } from "../src/schemas/alarms.ts";
import { ScenarioAction } from "../src/schemas/scenario.ts";
import { AlarmNotifier } from "../simulator/alert-fanout.ts";
import { AlertSinks, type SinkSettings } from "./alert-sinks.ts";
import type { WatchSink } from "../simulator/control-plane-watch.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import { refusalFor } from "./ports/reasons.ts";
import type { DataPlaneScrape } from "../src/metrics/families.ts";
import type { HardwareIdentity } from "../simulator/hardware.ts";
import type { UpgradePlan } from "../simulator/upgrade-plan.ts";

/** How often the clock moves while nobody scripts it: the spec's 10-second sampling interval. */
export const TICK_MS = 10_000;
/** After a restart, at most this much missed time is simulated; the rest is skipped (the appliance was off). */
const CATCH_UP_SUB_STEPS = 60;
/** The simulated time a reopen re-simulates from the snapshot at most. */
const CATCH_UP_MS = CATCH_UP_SUB_STEPS * TICK_MS;
/**
 * How far the stored snapshot may lag the model: a minute short of what a reopen
 * re-simulates, so a restart loses nothing. Between operator acts (each stored at
 * once) the model is its snapshot plus time, re-simulated step for step, so the
 * snapshot is written only as often as that window needs.
 */
const SNAPSHOT_LAG_MS = CATCH_UP_MS - 60_000;
/** A reopen that had to catch up this much stores the result at once, so the next reopen does not redo it. */
const REOPEN_STORE_MS = 60_000;
/** Open log streams per owner (account or token) at most. */
export const STREAMS_PER_OWNER = 4;
/** Live log entries a stream's reader may fall behind before it is disconnected (`event: overflow`). */
export const STREAM_LAG_MAX = 1000;
/** The SSE keepalive comment interval (spec: one every 15 seconds). */
export const KEEPALIVE_MS = 15_000;

const encoder = new TextEncoder();
/**
 * A turn of the event loop: every object of the process runs in one isolate, and a long advance lets the others in
 * between slices.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A source-VRF rule as the data plane applies it (simulator/steering.ts). */
export type { SourceVrfRule };

/** The model as the ports reach it: every section's read views and the writes of an operator's act. */
export type PortModel = ModelViews &
  Pick<
    Gateway,
    | "disconnect"
    | "clearAlarm"
    | "identifyBinding"
    | "startCapture"
    | "stopCapture"
    | "inject"
    | "countEmitted"
    | "ping"
  > & {
    /** The running profile (its ports name an injected frame's ingress). */
    readonly profile: Gateway["profile"];
  };

export class DataPlane {
  readonly #sql: SqlStorage;
  readonly #appliance: string;
  #allowlist: string[];
  #gateway: Gateway;
  /** Simulated time minus wall time: grows when a scenario advances the clock. */
  #offsetMs: number;
  #persistedAtMs: number;
  #steering = compileSteering([]);
  #sinks: AlertSinks;
  /** Compliance events lost per logger driver, as the object's drivers count them. */
  #driverLosses: () => Record<string, number> = () => ({ syslog: 0 });
  /** Serial numbers and MACs follow the appliance and its fleet-file seed (not a reseed). */
  readonly #identity: HardwareIdentity;
  /** What an upgrade's reboot boots with (set by the object); null = the running profile. */
  #bootProfile: (() => Profile) | null = null;
  /** An upgrade's reboot happened since the last snapshot: the next one is written at once. */
  #rebooted = false;
  /** Restored from a snapshot at open (not started empty). */
  #restored = false;
  /** Real RADIUS: hands the client's answers to the model before the clock moves; null with simulated servers. */
  #deliverAaa: (() => void) | null = null;
  /** Real RADIUS: ends the subscription that hands the model's accounting records to the client. */
  #stopAccounting: (() => void) | null = null;

  /** Opens the data plane: restores the last snapshot, or starts a fresh appliance from its seed. */
  /**
   * Open log streams by their handle (logStream), oldest first: their owner, how to recheck their credential, how to
   * end them.
   */
  readonly #streams = new Map<string, { owner: string; recheck: () => void; release: () => void; evict: () => void }>();

  /** The clock moves with the wall clock (every 10 s); false when only scenario actions move it (BNG_CLOCK=manual). */
  readonly #live: boolean;
  /** The instant of the act under way (`atInstant`): every entry it logs carries it. */
  #heldInstant: number | null = null;

  /**
   * `clock.startMs`: where a fresh appliance's simulated clock starts (BNG_CLOCK_START), null = the wall clock;
   * `clock.live`: false when only scenario actions move it (BNG_CLOCK=manual).
   */
  constructor(
    sql: SqlStorage,
    appliance: string,
    profile: Profile,
    seed: number,
    captureAllowlist: string[],
    clock: { startMs: number | null; live: boolean } = { startMs: null, live: true },
  ) {
    const { startMs } = clock;
    this.#live = clock.live;
    this.#sql = sql;
    this.#appliance = appliance;
    this.#allowlist = captureAllowlist;
    sql.exec(`
      CREATE TABLE IF NOT EXISTS sim_snapshot (chunk INTEGER PRIMARY KEY, data BLOB NOT NULL);
      CREATE TABLE IF NOT EXISTS sim_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
    // Read row by row as the decoder asks: the stored chunks are never all in memory at once.
    const chunks = (function* () {
      for (const row of sql.exec<{ data: ArrayBuffer }>("SELECT data FROM sim_snapshot ORDER BY chunk")) yield row.data;
    })();
    const offset = sql.exec<{ value: string }>("SELECT value FROM sim_state WHERE key = 'offsetMs'").toArray()[0];
    this.#offsetMs = offset ? Number(offset.value) : 0;
    const restored = this.#restore(chunks, profile);
    if (!restored && startMs !== null && !offset) {
      // A pinned start: simulated time runs from it, the offset (negative for a start in the past) stored like an
      // advance's.
      this.#offsetMs = startMs - Date.now();
      this.#storeOffset();
    }
    this.#gateway = restored ?? Gateway.create(profile, { seed, startTimeMs: this.#now() });
    this.#restored = restored !== null;
    // An act between steps happens at the appliance's now: the wall clock's (with the scenario's lead), or on a
    // manual clock the instant it was advanced to.
    this.#gateway.setEventClock(
      () => this.#heldInstant ?? (this.#live ? this.#now() : this.#gateway.nowMs + this.#gateway.pendingMs),
    );
    this.#identity = { appliance, seed };
    this.#gateway.onReboot(() => {
      this.#rebooted = true;
      return this.#bootProfile?.() ?? this.#gateway.profile;
    });
    // The stored state is as old as its snapshot, not as the catch-up. An object evicted between its 10 s
    // alarms is opened again at each one: without this, it would restore the same ever older snapshot every
    // time, re-simulate (and then skip) a growing gap, and its counters could run backwards once the gap
    // passed the catch-up limit.
    this.#persistedAtMs = this.#gateway.nowMs;
    this.#gateway.advanceTo(this.#now(), CATCH_UP_SUB_STEPS);
    if (this.#gateway.nowMs - this.#persistedAtMs >= REOPEN_STORE_MS) this.persist();
    // Alarms raised and cleared from here on go to the push sinks (not those of the catch-up: the box was off).
    this.#sinks = new AlertSinks((severity, msgId, fields) => this.log(severity, msgId, fields));
    const notifier = new AlarmNotifier(appliance);
    this.#gateway.onLog((entry) => {
      const sent = notifier.observe(entry, Date.parse(entry.timestamp), () => this.#gateway.alarms.list());
      if (sent) this.#sinks.send(sent);
    });
  }

  #restore(chunks: Iterable<ArrayBuffer>, profile: Profile): Gateway | null {
    const decoded = decodeSnapshot(chunks);
    if (!decoded.ok) return null;
    const restored = Gateway.restore(profile, decoded.snapshot);
    // A changed profile starts the appliance afresh, as a real box booting a new configuration would.
    return restored.ok ? restored.gateway : null;
  }

  #now(): number {
    return Date.now() + this.#offsetMs;
  }

  /**
   * How long until the model's next 10 s step falls due (0 when it is due already): when the object's alarm should next
   * fire.
   */
  msUntilNextStep(): number {
    return Math.max(0, this.#gateway.nextStepDueMs() - this.#now());
  }

  /** Moves the clock to now (called every 10 s by the object's alarm) and stores a snapshot when one is due. */
  tick(): void {
    this.#deliverAaa?.();
    this.#gateway.advanceTo(this.#now());
    if (this.#persistDue()) this.persist();
  }

  /**
   * Whether the next snapshot is due: after a reboot, or when the stored one
   * lags the model by SNAPSHOT_LAG_MS of simulated time. A snapshot is the
   * whole model (3 MB for `default`, 20 MB for `large`), and SQLite's writes of
   * it were most of a fleet's CPU when each appliance wrote one a minute: a
   * fleet of 1,000 wrote 50 MB/s (issue #28). Nothing is lost by waiting, since
   * a reopen re-simulates the gap from the snapshot and the stored clock offset.
   */
  #persistDue(): boolean {
    return this.#rebooted || this.#gateway.nowMs - this.#persistedAtMs >= SNAPSHOT_LAG_MS;
  }

  /** Writes the model's snapshot, replacing the previous one in one transaction. */
  persist(): void {
    // Chunk by chunk from the model's own arrays, each stored and dropped: a large appliance's state is never held
    // twice.
    this.#sql.exec("DELETE FROM sim_snapshot");
    let i = 0;
    for (const chunk of this.#gateway.snapshotChunks())
      this.#sql.exec("INSERT INTO sim_snapshot (chunk, data) VALUES (?, ?)", i++, chunk);
    this.#storeOffset();
    this.#persistedAtMs = this.#gateway.nowMs;
    this.#rebooted = false;
  }

  /**
   * Stores the clock's lead over the wall clock: with the snapshot, what a reopen needs to re-simulate to the same
   * moment.
   */
  #storeOffset(): void {
    this.#sql.exec(
      "INSERT INTO sim_state (key, value) VALUES ('offsetMs', ?) ON CONFLICT (key) DO " +
        "UPDATE SET value = excluded.value",
      String(this.#offsetMs),
    );
  }

  /** The simulated clock and the seed in use, for models derived from them (GRE circuit status). */
  clock(): { nowMs: number; seed: number } {
    return { nowMs: this.#gateway.nowMs, seed: this.#gateway.seed };
  }

  /** The CGN section the running allocators were built from at the last start. */
  runningCgn(): Profile["cgn"] {
    return structuredClone(this.#gateway.profile.cgn);
  }

  /**
   * The model as the sections' ports reach it (durable-objects/ports/): its read views (simulator/views.ts) and the
   * writes an operator's act makes, each answering the model's own outcome. A port reads
   * `dataPlane().model.sessions.summary()` straight, and writes with `model.disconnect(id)` inside `atInstant`.
   */
  get model(): PortModel {
    return this.#gateway;
  }

  /** The running source-VRF rules, compiled (`setSourceVrfRules`): a session's steering, an injected frame's VRF. */
  get steering(): SteeringTable {
    return this.#steering;
  }

  /** The running `captures.mirrorAllowlist` (`setCaptureAllowlist`); empty allows every destination. */
  get captureAllowlist(): readonly string[] {
    return this.#allowlist;
  }

  /** Appends an event from outside the model at the appliance's now, or at `atMs` (an instant `eventInstant` gave). */
  log(severity: Severity, msgId: string, fields: Record<string, FieldValue>, atMs?: number): void {
    this.#gateway.appendLog(severity, msgId, fields, atMs);
  }

  /** The instant an act happens now (never before the newest log entry): what its reply and its log entry both say. */
  eventInstant(): number {
    return this.#gateway.eventInstant();
  }

  /** Runs an act whose every log entry (its own and its effects') carries `instantMs`, one `eventInstant` gave. */
  atInstant<T>(instantMs: number, act: () => T): T {
    const held = this.#heldInstant;
    this.#heldInstant = instantMs;
    try {
      return act();
    } finally {
      this.#heldInstant = held;
    }
  }

  /** Hot-applies `sourceVrfRules`: which rule (if any) routes a session's traffic into another VRF. */
  setSourceVrfRules(rules: SourceVrfRule[]): void {
    this.#steering = compileSteering(rules);
  }

  // ── local subscribers ────────────────────────────────────────────────────

  /** Hot-applies the local subscriber table (at open and on every commit that touches it). */
  setLocalSubscribers(list: LocalSubscriber[]): LocalInstallReport {
    return this.#gateway.setLocalSubscribers(list);
  }

  /** Live session ids of the online local subscribers, by `kind/key`. */
  localSubscriberSessions(): Record<string, number> {
    const online: Record<string, number> = {};
    for (const s of this.#gateway.localSubscribers.list())
      if (s.sessionId !== null) online[`${s.kind}/${s.key}`] = s.sessionId;
    return online;
  }

  /**
   * Hot-applies the configured address pools (at open and on every commit
   * that touches them). A refusal cannot follow a validated commit; should
   * one happen, the pools keep running as they were and the log says why.
   */
  setPools(pools: PoolSettings[]): void {
    const result = this.#gateway.setPools(pools);
    if (!result.ok) this.log("error", "config.apply-failed", { key: "addressPools", issues: result.issues.join("; ") });
  }

  /**
   * GET /cgn/status: the model's, with the losses of the object's logger drivers (syslog.ts) while the logger pump
   * runs.
   */
  cgnStatus() {
    const status = this.#gateway.cgn.status();
    return status.eventsLostByDriver === null ? status : { ...status, eventsLostByDriver: this.#driverLosses() };
  }

  /** Where the compliance logger drivers' losses are read (the object's syslog shipper). */
  setDriverLosses(read: () => Record<string, number>): void {
    this.#driverLosses = read;
  }

  /**
   * Calls `listener` with every CGN port block allocated, released or identified (compliance logging); returns the
   * unsubscribe function.
   */
  watchPortBlocks(listener: (record: PortBlockRecord) => void): () => void {
    return this.#gateway.onPortBlock(listener);
  }

  /**
   * Hot-applies the configured RADIUS servers (at open and on every commit that touches them); with real ones,
   * `maxOutstanding` is what their client can send in time.
   */
  setRadiusServers(servers: RadiusServerSettings[], maxOutstanding?: number): void {
    this.#gateway.setRadiusServers(servers, maxOutstanding);
  }

  /**
   * Real RADIUS servers (durable-objects/radius/real-aaa.ts): where the model's Access-Requests go, and `deliver`,
   * run before the clock moves, hands it what came back.
   */
  connectRealAaa(hooks: {
    request: ((r: AccessRequestRecord) => void) | null;
    account: ((r: AccountingRecord) => void) | null;
    deliver: (() => void) | null;
  }): void {
    this.#gateway.onAccessRequest(hooks.request);
    this.#stopAccounting?.();
    this.#stopAccounting = hooks.account ? this.#gateway.onAccounting(hooks.account) : null;
    this.#deliverAaa = hooks.deliver;
  }

  /** Real RADIUS: hands the model the client's answers, health and pacing (applied at its next sub-step). */
  deliverAaa(outcomes: AccessOutcome[], health: ServerHealth[], pacing: Pacing): void {
    this.#gateway.deliverAaa(outcomes, health, pacing);
  }

  /** Real RADIUS: the Access-Requests awaiting an answer (sent again by a client that starts afresh). */
  outstandingAccess(): AccessRequestRecord[] {
    return this.#gateway.outstandingAccess();
  }

  /** The running profile's AAA rules (failover: attempts, dead marking), which a real server's client follows too. */
  aaaPolicy(): { maxAttempts: number; deadAfterFailures: number } {
    const { maxAttempts, deadAfterFailures } = this.#gateway.profile.aaa;
    return { maxAttempts, deadAfterFailures };
  }

  /** Whether the data plane was restored from a snapshot (its sessions survived) rather than started empty. */
  get restored(): boolean {
    return this.#restored;
  }

  /** Whether the routing and IPsec daemons can be queried (scenario `fail-daemon`). */
  daemons() {
    return this.#gateway.daemons();
  }

  /** The routes live sessions put in a VRF's table, for the routing store. */
  /**
   * Runs a control-plane watcher's sample now and after every 10 s step; the sink logs and raises alarms in this data
   * plane.
   */
  /** Calls `listener` with every log entry as it is appended (the audit trail keeps its own copy of some). */
  watchLog(listener: (entry: LogEntry) => void): void {
    this.#gateway.onLog(listener);
  }

  watchSteps(sample: (sink: WatchSink) => void): void {
    const sink: WatchSink = {
      log: (severity, msgId, fields) => this.log(severity, msgId, fields),
      observeAlarm: (id, instance, high, low, describe) =>
        this.#gateway.observeAlarm(id, instance, high, low, describe),
      retireAlarm: (id, instance) => this.#gateway.retireAlarm(id, instance),
    };
    // Once now, as the object starts: the baseline every later step is compared with.
    sample(sink);
    this.#gateway.onStep(() => sample(sink));
  }

  /** Changes whenever the live sessions may have (routes derived from them can be kept until it does). */
  sessionsVersion(): string {
    return this.#gateway.sessionsVersion;
  }

  /**
   * Installs licence terms (the licensing store's, at open and on every change); a change is written to the snapshot at
   * once.
   */
  setLicence(terms: LicenceTerms) {
    const changed = JSON.stringify(terms) !== JSON.stringify(this.#gateway.licence.terms());
    const status = this.#gateway.setLicence(terms);
    if (changed) this.persist();
    return status;
  }

  /**
   * Everything the Prometheus scrape shows, read in one call: separate calls
   * could straddle a clock tick, and the scrape must agree with the JSON
   * endpoints at one instant. Port rates are the metrics history's newest point.
   */
  scrape(): DataPlaneScrape {
    const g = this.#gateway;
    return {
      appliance: this.#appliance,
      interfaces: this.interfaces(),
      sessionEvents: g.sessions.events(),
      dataPlaneUptimeSeconds: Math.max(0, Math.floor((g.nowMs - g.bootedMs) / 1000)),
      l2tpTunnels: g.l2tp.tunnels().tunnels,
      profile: g.profile.name,
      sessions: g.sessions.summary(),
      ports: g.portRates(),
      pools: g.pools.list(),
      cgn: this.cgnStatus(),
      radius: g.radius.status(),
      alarms: g.alarms.list(),
      alertSinks: this.#sinks.states(),
      licence: g.licence.meter(),
      lastSeq: g.lastSeq,
    };
  }

  // ── system and software upgrade ──────────────────────────────────────────

  /** Everything GET /system/status shows of the data plane, read at one instant. */
  systemView() {
    const g = this.#gateway;
    const ports = g.portRates();
    const alarms = g.alarms.list();
    const upgrade = g.upgrade();
    return {
      appliance: this.#appliance,
      profile: g.profile.name,
      seed: g.seed,
      nowMs: g.nowMs,
      bootedMs: g.bootedMs,
      forwarding: g.forwarding,
      upgradePhase: upgrade && upgrade.phase !== "complete" ? upgrade.phase : null,
      sessions: g.sessions.summary().total,
      sessionEvents: g.sessions.events(),
      licence: g.licence.meter(),
      ports,
      load: g.systemLoad(ports),
      alarms: { count: alarms.count, countBySeverity: alarms.countBySeverity },
    };
  }

  /** The hardware inventory at the simulated now. */
  inventory() {
    return { asOfUtc: new Date(this.#gateway.nowMs).toISOString(), ...this.#gateway.inventory(this.#identity) };
  }

  /**
   * The interface table at the simulated now, its counters read at this instant between two 10 s steps, as a
   * scrape or a poll reads a real interface's: on a live clock the time since the last step fell due, on a manual
   * clock the time advance-clock carried past it, so advancing 15 s between scrapes reads as a live 15 s scrape.
   */
  interfaces() {
    return this.interfaceTable().interfaces;
  }

  /**
   * The interface table with the instant its counters were read at: the last step's plus the time since it, so
   * `asOfUtc` moves with them.
   */
  interfaceTable(): { interfaces: ReturnType<Gateway["interfaces"]>; asOfMs: number } {
    const sinceStep = this.#live ? TICK_MS - this.msUntilNextStep() : this.#gateway.pendingMs;
    const progress = Math.min(1, Math.max(0, sinceStep / TICK_MS));
    return {
      interfaces: this.#gateway.interfaces(this.#identity, progress),
      asOfMs: this.#gateway.nowMs + Math.round(progress * TICK_MS),
    };
  }

  /** Sets what an upgrade's reboot boots with: the object applies the configuration's restart-only keys there. */
  onReboot(bootProfile: () => Profile): void {
    this.#bootProfile = bootProfile;
  }

  /** Starts an accepted upgrade plan (the store has checked it) and snapshots at once, so a restart finds it. */
  beginUpgrade(plan: UpgradePlan): void {
    this.#gateway.beginUpgrade(plan);
    this.persist();
  }

  /** Abandons an upgrade that a restart interrupted before its reboot: sessions are admitted again. */
  abandonUpgrade(): void {
    this.#gateway.abandonUpgrade();
    this.persist();
  }

  /** The upgrade under way or last completed in this data plane, with its progress. */
  upgrade() {
    return this.#gateway.upgrade();
  }

  /**
   * The SSE log stream: replays entries newer than `sinceSeq`, then sends each
   * new entry as an event named `log`, and a `: keepalive` comment every 15 s.
   * A stream lives only as long as the credential that opened it: it is
   * rechecked at every keepalive and whenever credentials change
   * (`recheckStreams`), and the stream ends with an `event: closed` once the
   * credential is gone. A reader that falls more than `STREAM_LAG_MAX` live
   * entries behind is disconnected with an `event: overflow` naming the seq
   * to resume from, so a stalled reader never makes the object queue without
   * bound. Each owner (account or token) holds at most `STREAMS_PER_OWNER`: a
   * new one ends the owner's oldest (`event: closed`) rather than being
   * refused, since a consumer that restarts still holds the streams its
   * earlier self left until their next write, and would otherwise lock itself
   * out (npm `eventsource` never retries a 429). The `handle` (random, a capability to end this one stream) lets the
   * local
   * launcher's listener free the place the moment the client leaves
   * (`releaseLogStream`): workerd tells a stream of its reader's cancel only at
   * its next write (docs/observability.md, The log stream and EventSource).
   */
  logStream(
    sinceSeq: number | null,
    owner: string,
    stillValid: () => boolean,
  ): Outcome<{ stream: ReadableStream<Uint8Array>; handle: string }> {
    const mine = [...this.#streams.values()].filter((s) => s.owner === owner);
    for (const oldest of mine.slice(0, Math.max(0, mine.length - STREAMS_PER_OWNER + 1))) oldest.evict();
    const handle = crypto.randomUUID();
    let keepalive: ReturnType<typeof setInterval> | undefined;
    let unsubscribe = () => {};
    let lastSent = sinceSeq ?? this.#gateway.lastSeq;
    let replayed = 0;
    let ended = false;
    // The entries of one burst (a step's or a scenario's, often hundreds; a replay's page) go out as one chunk, so
    // each burst crosses to the Worker and its socket once, not once an entry. The queue still counts entries
    // (`entriesIn`, its size), which the lag limit is in.
    const entriesIn = new WeakMap<Uint8Array, number>();
    let batch = "";
    let batched = 0;
    let batchLast = lastSent;
    const add = (entry: LogEntry) => {
      batch += `id: ${entry.seq}\nevent: log\ndata: ${JSON.stringify(entry)}\n\n`;
      batched++;
      batchLast = entry.seq;
    };
    const stop = () => {
      ended = true;
      unsubscribe();
      clearInterval(keepalive);
      this.#streams.delete(handle);
    };
    const stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          const send = (chunk: Uint8Array) => {
            if (ended) return;
            try {
              controller.enqueue(chunk);
            } catch {
              stop();
            }
          };
          const flush = () => {
            if (batched === 0) return;
            const chunk = encoder.encode(batch);
            entriesIn.set(chunk, batched);
            batch = "";
            batched = 0;
            send(chunk);
            lastSent = batchLast;
          };
          // Ends the stream, after what it has batched, with a last event saying why, or without one when its client
          // has
          // left (released). The event's data is read once the batch is out: the overflow's resumeFromSeq is its last
          // entry.
          const end = (name?: string, data: () => Record<string, unknown> = () => ({})) => {
            if (ended) return;
            flush();
            stop();
            try {
              if (name !== undefined)
                controller.enqueue(encoder.encode(`event: ${name}\ndata: ${JSON.stringify(data())}\n\n`));
              controller.close();
            } catch {
              // The reader has gone already.
            }
          };
          const live = (entry: LogEntry) => {
            // The queue beyond the replay, and the batch: a reader this far behind is not keeping up.
            if (-(controller.desiredSize ?? 0) + batched > replayed + STREAM_LAG_MAX)
              return end("overflow", () => ({ reason: "the reader fell behind", resumeFromSeq: lastSent }));
            if (batched === 0) queueMicrotask(flush);
            add(entry);
          };
          let cursor = sinceSeq ?? this.#gateway.lastSeq;
          // Replay in pages of the tail's maximum until caught up (bounded by the ring).
          for (;;) {
            const page = this.#gateway.logs.tail({ count: 1000, sinceSeq: cursor });
            for (const entry of page.entries) add(entry);
            flush();
            replayed += page.entries.length;
            if (page.entries.length < 1000) break;
            cursor = page.entries[page.entries.length - 1]!.seq;
          }
          send(encoder.encode(": connected\n\n"));
          unsubscribe = this.#gateway.onLog(live);
          const recheck = () => {
            if (!stillValid())
              end("closed", () => ({
                reason: "the credential that opened this stream has ended (logout, revocation, expiry)",
              }));
          };
          keepalive = setInterval(() => {
            recheck();
            send(encoder.encode(": keepalive\n\n"));
          }, KEEPALIVE_MS);
          const replaced = `replaced: ${owner} opened a newer stream, and holds ${STREAMS_PER_OWNER} at most`;
          const evict = () => end("closed", () => ({ reason: replaced }));
          this.#streams.set(handle, { owner, recheck, release: () => end(), evict });
        },
        cancel: stop,
      },
      { highWaterMark: 0, size: (chunk) => entriesIn.get(chunk) ?? 1 },
    );
    return { ok: true, stream, handle };
  }

  /** Ends the log stream of `handle` and frees its place now: its client has left. Unknown handles are ignored. */
  releaseLogStream(handle: string): void {
    this.#streams.get(handle)?.release();
  }

  /** Rechecks every open log stream's credential now (called when a session or token ends). */
  recheckStreams(): void {
    for (const stream of [...this.#streams.values()]) stream.recheck();
  }

  /**
   * Hot-applies `alarms.sinks` (credentials included: this comes from the object, not the Worker) and
   * `alarms.webhookAllowlist`.
   */
  setAlertSinks(sinks: SinkSettings[], webhookAllowlist: readonly string[]): void {
    this.#sinks.set(sinks, webhookAllowlist);
  }

  /** Each push sink's delivery state and counts (GET /api/v1/alarms/sinks, the scrape). */
  alertSinkStates() {
    return this.#sinks.states();
  }

  /** Sends a notification through the push sinks' fan-out (the alarms the model raises and clears go by themselves). */
  alert(notification: AlertNotification): void {
    this.#sinks.send(notification);
  }

  /** Resolves when no alert delivery attempt is under way (a sink waiting to retry is not waited for). */
  alertsSettled(): Promise<void> {
    return this.#sinks.settled();
  }

  // ── captures ─────────────────────────────────────────────────────────────

  /** Hot-applies `captures.mirrorAllowlist` from a configuration commit: the next capture request is judged by it. */
  setCaptureAllowlist(allowlist: string[]): void {
    this.#allowlist = [...allowlist];
  }

  // ── scenario control ─────────────────────────────────────────────────────

  /**
   * Applies a scenario action (validated by the simulator's schema), keeps the clock offset and persists. A clock
   * advance yields to the event loop between simulated hours, so the process's other appliances answer meanwhile
   * (requests to this one may too, and see the clock part-way: each slice ends at a whole sub-step).
   */
  async scenario(raw: unknown, actor: string) {
    const parsed = ScenarioAction.safeParse(raw);
    if (!parsed.success)
      return refuse(
        "invalid",
        parsed.error.issues.map((i) => `${i.path.join(".") || "action"}: ${i.message}`).join("; "),
      );
    this.log("notice", "audit.scenario", { action: parsed.data.action, actor });
    this.#deliverAaa?.();
    const result =
      parsed.data.action === "advance-clock"
        ? await this.#gateway.advanceClock(parsed.data.seconds, yieldToEventLoop)
        : this.#gateway.scenario(parsed.data);
    if (!result.ok) return refusalFor(result, { inProfile: true });
    // An advanced clock stays advanced (simulated time keeps its lead over the wall clock), stored at once: a reopen
    // re-simulates up to it.
    const offsetMs = Math.max(this.#offsetMs, this.#gateway.nowMs - Date.now());
    if (offsetMs !== this.#offsetMs) {
      this.#offsetMs = offsetMs;
      this.#storeOffset();
    }
    // Any other action is an input a reopen cannot re-simulate (a fill, a failed server, a reseed): written at once.
    // Snapshots
    // cost ~0.1 s at 128,000 sessions and block the API meanwhile, so an advance waits until the next one falls due.
    if (parsed.data.action !== "advance-clock" || this.#persistDue()) this.persist();
    return { ok: true as const, result: { ...result, state: this.scenarioState() } };
  }

  /** What a pipeline needs to know about the simulation. */
  scenarioState() {
    return {
      appliance: this.#appliance,
      profile: this.#gateway.profile.name,
      seed: this.#gateway.seed,
      simulatedTimeUtc: new Date(this.#gateway.nowMs).toISOString(),
      clockLeadSeconds: Math.round(this.#offsetMs / 1000),
      sessions: this.#gateway.sessions.summary().total,
      lastSeq: this.#gateway.lastSeq,
    };
  }
}
