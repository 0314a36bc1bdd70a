/**
 * The façade: one simulated appliance's data plane, as the Durable Object
 * sees it. Every read returns the spec's wire shape; every expected failure
 * is a tagged union. Time moves only through `step` / `advanceTo`.
 */
import type { RadiusReconfigureReport, RadiusServerSettings } from "./aaa.ts";
import { outstandingRequests } from "./external-aaa.ts";
import type { AccessOutcome, AccessRequestRecord, AccountingRecord, Pacing, ServerHealth } from "./radius-records.ts";
import type { AlarmClearResult } from "../src/schemas/alarms.ts";
import type { AlarmId } from "./alarms.ts";
import type { CaptureRecord } from "../src/schemas/captures.ts";
import type { CgnBindingRow } from "../src/schemas/cgn.ts";
import type { PortBlockRecord } from "./cgn.ts";
import { SUB_STEP_MS, isoTime } from "./clock.ts";
import { evaluateAlarms } from "./conditions.ts";
import { teardownSession } from "./lifecycle.ts";
import type { FieldValue } from "./log-catalogue.ts";
import type { Severity } from "./vocabulary.ts";
import type { LogListener } from "./logs.ts";
import type { InjectRequest, InjectResult, PingResult } from "../src/schemas/diagnostics.ts";
import { traceInject, type InjectRefusal } from "./inject.ts";
import type { LicenceStatus } from "../src/schemas/licensing.ts";
import { type LicenceTerms } from "./licence.ts";
import { installLocalSubscribers, type LocalInstallReport } from "./local-sessions.ts";
import type { LocalSubscriber } from "./local-subscribers.ts";
import { Model } from "./model.ts";
import { viewsOf, type ModelViews } from "./views.ts";
import { runPing, type PingRequest } from "./ping.ts";
import { poolSettingsOf, reconfigurePools, type PoolReconfigureResult } from "./pool-reconfigure.ts";
import type { PoolSettings } from "./pool-rules.ts";
import type { Profile } from "./profile.ts";
import { applyAction, type ScenarioResult } from "./scenario.ts";
import type { ScenarioAction } from "../src/schemas/scenario.ts";
import { restoreModel, snapshotChunks, snapshotModel, type GatewaySnapshot } from "./snapshot.ts";
import type { SteeringTable } from "./steering.ts";
import { subStep } from "./step.ts";
import {
  hardwareInventory,
  systemLoad,
  type HardwareIdentity,
  type HardwareInventory,
  type PortLoad,
  type SystemLoad,
} from "./hardware.ts";
import { interfaceTable } from "./interfaces.ts";
import type { Interface } from "../src/schemas/system.ts";
import { noteReboot, rebootDue } from "./upgrade.ts";
import { startMaintenance, upgradePhase, type Maintenance, type UpgradePlan } from "./upgrade-plan.ts";

/** Sub-steps between two pauses of a sliced advance: a simulated hour (360 × 10 s). */
const SLICE_SUB_STEPS = 3_600_000 / SUB_STEP_MS;

/** How a gateway starts. */
export interface GatewayOptions {
  /** Seed of the data-plane simulation (fleet file `seed`). */
  seed: number;
  /** Simulated start instant, epoch milliseconds (rounded down to a 10 s boundary). */
  startTimeMs: number;
}

/** What a `step` or `advanceTo` did. */
export interface StepReport {
  subSteps: number;
  /** Sub-steps skipped without simulation (advanceTo beyond its limit). */
  skipped: number;
  nowUtc: string;
  sessions: number;
}

/**
 * The model's read views (views.ts) shown as the Gateway's own members,
 * `gateway.sessions.summary()`: declared here, set in the constructor from
 * views.ts's one table, so a new section's view is written there alone.
 */
export interface Gateway extends ModelViews {}

/** A simulated broadband gateway. */
export class Gateway {
  #m: Model;
  /**
   * The profile an upgrade's reboot boots with (the configuration's restart-only keys applied); null = the running one.
   */
  #bootProfile: (() => Profile) | null = null;
  #accessListener: ((request: AccessRequestRecord) => void) | null = null;
  readonly #stepListeners = new Set<(nowMs: number) => void>();
  readonly #portBlockListeners = new Set<(record: PortBlockRecord) => void>();
  readonly #accountingListeners = new Set<(record: AccountingRecord) => void>();

  private constructor(model: Model) {
    this.#m = model;
    // Read views, one per API section: each reads the model as it is at the call, so a reboot or reseed is seen.
    Object.assign(
      this,
      viewsOf(() => this.#m),
    );
    this.#tellPortBlocks(model);
    this.#tellAccess(model);
  }

  /** Where a model's Access-Requests for real RADIUS servers go (again after a reboot builds a new model). */
  #tellAccess(model: Model): void {
    model.accessListener = (request) => this.#accessListener?.(request);
  }

  /** Real RADIUS servers: every Access-Request the model asks goes to `listener` (the appliance's RADIUS client). */
  onAccessRequest(listener: ((request: AccessRequestRecord) => void) | null): void {
    this.#accessListener = listener;
  }

  /**
   * Real RADIUS servers: the client's answers (in arrival order), its servers' health and its pacing, applied at
   * the next sub-step (aaa-answers.ts), so a run is a function of its seed and of these inputs.
   */
  deliverAaa(outcomes: readonly AccessOutcome[], health: readonly ServerHealth[] | null, pacing: Pacing | null): void {
    this.#m.radius.deliver(outcomes, health, pacing);
  }

  /** Real RADIUS servers: the Access-Requests awaiting their answer (sent again when the client starts afresh). */
  outstandingAccess(): AccessRequestRecord[] {
    return outstandingRequests(this.#m);
  }

  /** Wires a model's CGN to the compliance listeners and its accounting to theirs (again after a reboot). */
  #tellPortBlocks(model: Model): void {
    model.accountingListener =
      this.#accountingListeners.size === 0
        ? null
        : (record) => {
            for (const listener of this.#accountingListeners) listener(record);
          };
    model.cgn.onPortBlock = (kind, nowMs, b, chunk) => {
      if (this.#portBlockListeners.size === 0) return;
      const record = model.cgn.portBlockRecord(kind, nowMs, b, chunk, model.usernameOf);
      for (const listener of this.#portBlockListeners) listener(record);
    };
  }

  /**
   * Subscribes to accounting: every Accounting-Request Start, Interim-Update and Stop as a transport would send it
   * (accounting.ts); returns the unsubscribe function.
   */
  onAccounting(listener: (record: AccountingRecord) => void): () => void {
    this.#accountingListeners.add(listener);
    this.#tellPortBlocks(this.#m);
    return () => {
      this.#accountingListeners.delete(listener);
      this.#tellPortBlocks(this.#m);
    };
  }

  /**
   * Subscribes to CGN compliance records: every port block allocated, released or identified; returns the unsubscribe
   * function.
   */
  onPortBlock(listener: (record: PortBlockRecord) => void): () => void {
    this.#portBlockListeners.add(listener);
    return () => this.#portBlockListeners.delete(listener);
  }

  /** A fresh appliance: empty, filling up at the profile's setup rate from the first step. */
  static create(profile: Profile, options: GatewayOptions): Gateway {
    const g = new Gateway(new Model(profile, options.seed, options.startTimeMs));
    evaluateAlarms(g.#m);
    return g;
  }

  /** Rebuilds a gateway from `snapshot()` output taken with the same profile. */
  static restore(
    profile: Profile,
    snapshot: GatewaySnapshot,
  ): { ok: true; gateway: Gateway } | { ok: false; reason: "bad-format" | "profile-mismatch" } {
    const restored = restoreModel(profile, snapshot);
    return restored.ok ? { ok: true, gateway: new Gateway(restored.model) } : restored;
  }

  /** The state as JSON-safe metadata plus buffers (see snapshot.ts for chunked encoding). */
  snapshot(): GatewaySnapshot {
    return snapshotModel(this.#m);
  }

  /**
   * The state encoded chunk by chunk straight from the model's arrays (see
   * snapshot.ts): consume it at once, before the model changes; memory holds
   * one chunk beyond the state instead of two copies of it.
   */
  snapshotChunks(maxChunkBytes?: number): Generator<Uint8Array> {
    return snapshotChunks(snapshotModel(this.#m, true), maxChunkBytes);
  }

  /** Simulated now, epoch milliseconds. */
  get nowMs(): number {
    return this.#m.nowMs;
  }

  /** The seed in use (changes with a reseed). */
  get seed(): number {
    return this.#m.seed;
  }

  /** The profile in use. */
  get profile(): Profile {
    return this.#m.profile;
  }

  /** Advances simulated time in 10 s sub-steps; a remainder under 10 s is carried to the next call. */
  step(seconds: number): StepReport {
    const n = this.#subStepsFor(seconds);
    for (let i = 0; i < n; i++) this.#subStep();
    return this.#report(n, 0);
  }

  /**
   * `step` in slices of a simulated hour, awaiting `pause` between them: one
   * workerd isolate runs every appliance of a process, and a day's advance in
   * one go (seconds of CPU) would hold up all the others. The same sub-steps
   * in the same order as `step`, so the same state.
   */
  async stepInSlices(seconds: number, pause: () => Promise<void>): Promise<StepReport> {
    const n = this.#subStepsFor(seconds);
    for (let i = 0; i < n; i++) {
      if (i > 0 && i % SLICE_SUB_STEPS === 0) await pause();
      this.#subStep();
    }
    return this.#report(n, 0);
  }

  /** The whole sub-steps `seconds` more make, the remainder carried in `pendingMs`. */
  #subStepsFor(seconds: number): number {
    const m = this.#m;
    if (!(seconds > 0) || !Number.isFinite(seconds)) return 0;
    m.pendingMs += Math.round(seconds * 1000);
    const n = Math.floor(m.pendingMs / SUB_STEP_MS);
    m.pendingMs -= n * SUB_STEP_MS;
    return n;
  }

  /** Time advanced past the last sub-step and carried to the next (a remainder under 10 s of `step`). */
  get pendingMs(): number {
    return this.#m.pendingMs;
  }

  /** When the next 10 s sub-step falls due: `advanceTo` runs it once its instant reaches this one. */
  nextStepDueMs(): number {
    return this.#m.nowMs + this.#m.pendingMs + SUB_STEP_MS;
  }

  /**
   * Advances to an instant (the Durable Object's wall clock). When more than
   * `maxSubSteps` would be needed, the older part of the gap is skipped
   * without simulation (the appliance was not observed meanwhile) and only
   * the last `maxSubSteps` are run.
   */
  advanceTo(epochMs: number, maxSubSteps = 360): StepReport {
    const m = this.#m;
    const due = Math.floor((epochMs - m.nowMs - m.pendingMs) / SUB_STEP_MS);
    if (!(due > 0)) return this.#report(0, 0);
    const skipped = Math.max(0, due - Math.max(0, Math.floor(maxSubSteps)));
    m.nowMs += skipped * SUB_STEP_MS;
    for (let i = 0; i < due - skipped; i++) this.#subStep();
    return this.#report(due - skipped, skipped);
  }

  /** Force-disconnects one session, freeing its addresses, binding and capture; answers whose session it was. */
  disconnect(
    id: number,
    cause = "admin-reset",
  ): { ok: true; sessionId: number; username: string } | { ok: false; reason: "unknown-session" } {
    const m = this.#m;
    const slot = m.store.slotOf(id);
    if (slot < 0) return { ok: false, reason: "unknown-session" };
    // Read before the teardown frees the slot.
    const username = m.usernameOf(slot);
    teardownSession(m, slot, cause, true);
    evaluateAlarms(m);
    return { ok: true, sessionId: id, username };
  }

  // Local subscribers

  /**
   * Installs the configured local subscribers (the whole table, at open and
   * on every hot-apply): removed and changed ones are disconnected at once
   * and give back what they held; new ones claim their static blocks now and
   * connect at the next sub-step, through local AAA.
   */
  setLocalSubscribers(list: readonly LocalSubscriber[]): LocalInstallReport {
    const report = installLocalSubscribers(this.#m, list);
    if (report.disconnected > 0) evaluateAlarms(this.#m);
    return report;
  }

  /**
   * Installs the configured address pools (the whole list, at open and on
   * every hot-apply; see pool-reconfigure.ts for what each change does):
   * sessions holding a block that leaves the pools are disconnected at once,
   * static allocations are kept, new blocks are offered from the next setup.
   * Refused, changing nothing, when the pools break a rule of pool-rules.ts.
   */
  setPools(pools: readonly PoolSettings[]): PoolReconfigureResult {
    const result = reconfigurePools(this.#m, pools);
    if (result.ok && result.report.added.length + result.report.changed.length + result.report.removed.length > 0)
      evaluateAlarms(this.#m);
    return result;
  }

  /** The running pools' settings, in order (what `setPools` installed last, or the profile's). */
  poolSettings(): PoolSettings[] {
    return poolSettingsOf(this.#m);
  }

  /** Identifies an auto-learned binding; one Identify log event per port block. */
  identifyBinding(
    bindingIndex: number,
    subscriberId: string,
  ): { ok: true; binding: CgnBindingRow } | { ok: false; reason: "unknown-binding" | "not-auto-learned" } {
    return this.#m.cgn.identify(this.#m.nowMs, bindingIndex, subscriberId, this.#m.usernameOf);
  }

  /**
   * Installs the configured RADIUS servers (the whole list, at open and on
   * every hot-apply): new ones take requests by weight from the next setup,
   * removed ones take none and their alarms clear, kept ones keep their
   * counters and take their new weight.
   */
  setRadiusServers(servers: readonly RadiusServerSettings[], maxOutstanding?: number): RadiusReconfigureReport {
    const m = this.#m;
    if (maxOutstanding !== undefined) m.radius.maxOutstanding = maxOutstanding;
    const report = m.radius.setServers(servers);
    if (report.added.length + report.removed.length + report.changed.length === 0) return report;
    for (const label of report.removed) m.alarms.retire(m.nowMs, "radius.server.dead", label);
    m.logs.emit(m.nowMs, "radius.servers", {
      servers: report.servers,
      added: report.added.length,
      removed: report.removed.length,
      changed: report.changed.length,
    });
    evaluateAlarms(m);
    return report;
  }

  /**
   * Appends an event from outside the model (login, token events): at `atMs`, an instant `eventInstant()` gave
   * (which the act also reports, as a commit's `committedUtc`), else at the event clock's now.
   */
  appendLog(severity: Severity, msgId: string, fields: Record<string, FieldValue> = {}, atMs?: number): void {
    if (atMs === undefined) this.#m.logs.append(this.#m.nowMs, severity, msgId, fields);
    else this.#m.logs.appendAt(atMs, severity, msgId, fields);
  }

  /** Sets the clock of events outside a step (an operator's act): the appliance's own, which runs between steps. */
  setEventClock(clock: () => number): void {
    this.#m.logs.setClock(clock);
  }

  /** The instant an event outside a step happens now: never before the newest log entry, nor the model's now. */
  eventInstant(): number {
    return this.#m.logs.instant(this.#m.nowMs);
  }

  /** Subscribes to every new log entry (SSE fan-out); returns the unsubscribe function. */
  onLog(listener: LogListener): () => void {
    return this.#m.logs.subscribe(listener);
  }

  /**
   * Subscribes to every 10 s sub-step, after it ran (watchers of state kept outside the model); returns the unsubscribe
   * function.
   */
  onStep(listener: (nowMs: number) => void): () => void {
    this.#stepListeners.add(listener);
    return () => this.#stepListeners.delete(listener);
  }

  /**
   * Feeds an alarm whose condition is judged outside the model (control-plane watchers), as the model's own conditions
   * are.
   */
  observeAlarm(
    id: AlarmId,
    instance: string | null,
    high: boolean,
    low: boolean,
    describe: () => { text: string; context: Record<string, string> },
  ): void {
    this.#m.alarms.observe(this.#m.nowMs, id, instance, high, low, describe);
  }

  /** Clears an alarm raised outside the model at once: its object left the configuration (control-plane watchers). */
  retireAlarm(id: AlarmId, instance: string | null): void {
    this.#m.alarms.retire(this.#m.nowMs, id, instance);
  }

  /** Changes whenever the live sessions may have: the instant, how many are up, how many were ever set up. */
  get sessionsVersion(): string {
    return `${this.#m.nowMs}:${this.#m.store.liveCount}:${this.#m.nextSessionId}`;
  }

  /** Newest log sequence number. */
  get lastSeq(): number {
    return this.#m.logs.lastSeq;
  }

  /** Operator clear; `{cleared: false}` when nothing matched. */
  clearAlarm(id: string, instance: string | null = null): AlarmClearResult {
    return this.#m.alarms.clear(this.#m.nowMs, id, instance);
  }

  // Captures

  /** Starts mirroring a session (allowlist and audit are the caller's). */
  startCapture(
    sessionId: number,
    destinationIp: string,
    maxPackets: number | null,
    maxDurationSeconds: number | null,
  ):
    | { ok: true; capture: CaptureRecord }
    | { ok: false; reason: "unknown-session" | "already-capturing" | "invalid-destination" | "invalid-limit" } {
    const m = this.#m;
    return m.captures.start(
      m.nowMs,
      sessionId,
      m.store.slotOf(sessionId),
      destinationIp,
      maxPackets,
      maxDurationSeconds,
    );
  }

  /** Stops a session's capture: the spec's `{status: "stopped", sessionId}`. */
  stopCapture(
    sessionId: number,
  ): { ok: true; status: "stopped"; sessionId: number } | { ok: false; reason: "not-capturing" } {
    return this.#m.captures.stop(this.#m.nowMs, sessionId, "operator");
  }

  // Diagnostics

  /**
   * Walks a synthetic frame through the forwarding pipeline under the running source-VRF rules (inject.ts); changes
   * nothing.
   */
  inject(request: InjectRequest, rules: SteeringTable): { ok: true; result: InjectResult } | InjectRefusal {
    return traceInject(this.#m, rules, request);
  }

  /**
   * Sends an emitted diagnostic frame out of its egress port: the port's
   * transmit counters (GET /system/interfaces, the scrape) count it. An
   * upstream frame (egress -1) leaves by the core: the first uplink counts it
   * (one frame is one flow, and ECMP puts a flow on one member). Returns
   * whether an interface counted it.
   */
  countEmitted(egressPortId: number, frameBytes: number): boolean {
    const ports = this.#m.profile.ports;
    const index =
      egressPortId === -1 && this.#m.uplinks.length > 0
        ? ports.length
        : ports.findIndex((p) => p.portId === egressPortId);
    if (index < 0) return false;
    this.#m.portCounters.addTransmitted(index, frameBytes);
    return true;
  }

  /** An ICMP echo from the forwarding plane inside a VRF (ping.ts); changes nothing. */
  ping(request: PingRequest): { ok: true; result: PingResult } | { ok: false; reason: "bad-destination" } {
    return runPing(this.#m, request);
  }

  // Routing and IPsec

  /** Whether the control-plane daemons can be queried (a scenario may fail them). */
  daemons(): { routing: boolean; ipsec: boolean } {
    return { routing: !this.#m.daemonsDown.has("routing"), ipsec: !this.#m.daemonsDown.has("ipsec") };
  }

  /**
   * Installs licence terms (at open and after activation, a lease or a renewal); a state change is logged and alarmed
   * at once.
   */
  setLicence(terms: LicenceTerms): LicenceStatus {
    this.#m.licence = { ...terms };
    evaluateAlarms(this.#m);
    return this.licence.status();
  }

  /** Applies a scenario action (validate the body with the `ScenarioAction` schema first). */
  scenario(action: ScenarioAction): ScenarioResult {
    const m = this.#m;
    if (action.action === "advance-clock") return this.#advanced(action.seconds, this.step(action.seconds));
    if (action.action === "reseed") {
      // A reseed restarts the data plane like a reboot: sessions, pools, CGN, RADIUS, alarms, captures and
      // metrics start afresh; the log ring (and its seq) and session ids continue.
      const dropped = m.store.liveCount;
      const next = this.#restart(action.seed, m.profile);
      next.logs.emit(next.nowMs, "scenario.action", {
        action: action.action,
        detail: `seed=${action.seed} dropped=${dropped}`,
      });
      evaluateAlarms(next);
      return { ok: true, action: action.action, detail: { seed: action.seed, dropped } };
    }
    return applyAction(m, action);
  }

  /** The `advance-clock` action with `stepInSlices`: `pause` is awaited between simulated hours. */
  async advanceClock(seconds: number, pause: () => Promise<void>): Promise<ScenarioResult> {
    return this.#advanced(seconds, await this.stepInSlices(seconds, pause));
  }

  #advanced(seconds: number, r: StepReport): ScenarioResult {
    this.#m.logs.emit(this.#m.nowMs, "scenario.action", {
      action: "advance-clock",
      detail: `seconds=${seconds} subSteps=${r.subSteps}`,
    });
    return { ok: true, action: "advance-clock", detail: { seconds, subSteps: r.subSteps } };
  }

  /**
   * A fresh data plane at the same instant: what survives a reboot (configuration, logs, session ids, an upgrade under
   * way) carried over.
   */
  #restart(seed: number, profile: Profile): Model {
    const m = this.#m;
    m.alarms.clearAll(m.nowMs);
    const next = new Model(profile, seed, m.nowMs, m.logs);
    next.nextSessionId = m.nextSessionId;
    next.pendingMs = m.pendingMs;
    next.maintenance = m.maintenance;
    // The licence is the appliance's, not the data plane's: it survives the reboot.
    next.licence = m.licence;
    next.licenceState = m.licenceState;
    this.#m = next;
    this.#tellPortBlocks(next);
    this.#tellAccess(next);
    // The configuration survives a reboot: the pools, the RADIUS servers and the local subscriber table are installed
    // again.
    next.installPools(m.poolConfigs);
    next.radius.setServers(m.radius.settings());
    next.radius.maxOutstanding = m.radius.maxOutstanding;
    installLocalSubscribers(next, m.locals.installed());
    return next;
  }

  /**
   * One sub-step, then an upgrade's reboot when it falls due (before the step too, should a skipped gap have
   * passed it). Its log entries are held until it ends, then stamped over its 10 s (logs.ts); the listeners
   * sample the state at its end.
   */
  #subStep(): void {
    const logs = this.#m.logs;
    logs.openStep(this.#m.nowMs, this.#m.nowMs + SUB_STEP_MS, this.#m.seed);
    try {
      if (rebootDue(this.#m)) this.#reboot();
      subStep(this.#m);
      if (rebootDue(this.#m)) this.#reboot();
      logs.judgeStep();
      for (const listener of this.#stepListeners) listener(this.#m.nowMs);
    } finally {
      logs.closeStep();
    }
  }

  /**
   * An upgrade's reboot: every remaining session drops, and a fresh data plane boots (with the boot profile) once the
   * reboot is over.
   */
  #reboot(): void {
    const m = this.#m;
    noteReboot(m);
    const next = this.#restart(m.seed, this.#bootProfile?.() ?? m.profile);
    next.bootedMs = m.maintenance?.plan.upMs ?? m.nowMs;
    evaluateAlarms(next);
  }

  // Software upgrade and system views

  /** Sets what an upgrade's reboot boots with (called at the reboot, so it sees the configuration as it is then). */
  onReboot(bootProfile: () => Profile): void {
    this.#bootProfile = bootProfile;
  }

  /** Starts an accepted upgrade (upgrade.ts): the model drains, reboots and comes back on the plan's instants. */
  beginUpgrade(plan: UpgradePlan): void {
    const m = this.#m;
    m.maintenance = startMaintenance(plan);
    m.logs.emit(m.nowMs, "upgrade.started", {
      packageId: plan.packageId,
      version: plan.version,
      drain: plan.drain,
      rebootUtc: isoTime(plan.rebootMs),
      upUtc: isoTime(plan.upMs),
    });
  }

  /**
   * Abandons an upgrade before its reboot (the appliance restarted while installing or draining): sessions are admitted
   * again.
   */
  abandonUpgrade(): void {
    this.#m.maintenance = null;
  }

  /** The upgrade under way or last completed in this data plane, with its progress; null when none. */
  upgrade(): (Maintenance & { phase: ReturnType<typeof upgradePhase>; sessions: number }) | null {
    const m = this.#m;
    return m.maintenance
      ? {
          ...structuredClone(m.maintenance),
          phase: upgradePhase(m.maintenance.plan, m.nowMs),
          sessions: m.store.liveCount,
        }
      : null;
  }

  /** When this data plane booted (creation, reseed, or the end of an upgrade's reboot). */
  get bootedMs(): number {
    return this.#m.bootedMs;
  }

  /** False while an upgrade's reboot has the data plane down. */
  get forwarding(): boolean {
    const maintenance = this.#m.maintenance;
    return !maintenance || upgradePhase(maintenance.plan, this.#m.nowMs) !== "rebooting";
  }

  /** Each port's newest rates: the metrics history's newest point, as every endpoint shows them. */
  portRates(): PortLoad[] {
    return this.#m.metrics.newestPortRates(this.#m.profile.ports);
  }

  /** CPU and memory utilisation derived from the sessions and the newest port rates. */
  systemLoad(ports: readonly PortLoad[] = this.portRates()): SystemLoad {
    return systemLoad(this.#m.profile, this.#m.store.liveCount, ports);
  }

  /** The hardware inventory at the simulated now (hardware.ts). */
  inventory(identity: HardwareIdentity): HardwareInventory {
    const ports = this.portRates();
    return hardwareInventory(identity, this.#m.profile, this.#m.nowMs, ports, this.systemLoad(ports));
  }

  /**
   * The interface table at the simulated now, its counters `progress` of the way through the last step (interfaces.ts).
   */
  interfaces(identity: HardwareIdentity, progress = 1): Interface[] {
    const m = this.#m;
    return interfaceTable({
      identity,
      ports: m.profile.ports,
      uplinks: m.uplinks,
      rates: this.portRates(),
      sessions: this.sessions.summary().byPort,
      counters: m.portCounters,
      progress,
      forwarding: this.forwarding,
      bootedMs: m.bootedMs,
    });
  }

  #report(subSteps: number, skipped: number): StepReport {
    return { subSteps, skipped, nowUtc: isoTime(this.#m.nowMs), sessions: this.#m.store.liveCount };
  }
}
