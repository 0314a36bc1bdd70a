/**
 * The model's state in one place: every component, the clock, the random
 * stream and the bookkeeping shared by the lifecycle, the step and the
 * queries. Internal to the simulator; the Gateway façade is the public face.
 */
import { RadiusPool } from "./aaa.ts";
import type { AccessRequestRecord, AccountingRecord } from "./radius-records.ts";
import { AlarmBook } from "./alarms.ts";
import { Captures } from "./captures.ts";
import { Cgn } from "./cgn.ts";
import { L2tpTable } from "./l2tp.ts";
import { LeaseTimers } from "./lease-timers.ts";
import { Lifetimes } from "./lifetimes.ts";
import { DEV_TERMS, type LicenceTerms } from "./licence.ts";
import type { LicenceState } from "./vocabulary.ts";
import { LogRing } from "./logs.ts";
import { MetricsRing } from "./metrics.ts";
import type { ModelCore } from "./model-core.ts";
import { AddressPool } from "./pools.ts";
import type { PoolDefinition } from "./pool-rules.ts";
import type { Profile } from "./profile.ts";
import { LocalTable } from "./local-subscribers.ts";
import { Random } from "./random.ts";
import { RowTexts } from "./row-texts.ts";
import { PageTexts } from "./page-texts.ts";
import { SessionStore } from "./sessions.ts";
import { SubscriberBase, blankAttrs, type SubscriberAttrs } from "./subscribers.ts";
import { PortCounters } from "./interfaces.ts";
import { WireRates, uplinksOf, type Uplink } from "./wire.ts";
import type { Maintenance } from "./upgrade-plan.ts";
import type { ScenarioFaults } from "../src/schemas/scenario.ts";
import type { SessionList } from "../src/schemas/sessions.ts";

/** Sub-steps the session-loss alarm looks back over: five minutes. */
export const LOSS_WINDOW_STEPS = 30;

/** A control-plane daemon a scenario can fail (the contract's enumeration). */
export type Daemon = ScenarioFaults["failedDaemons"][number];

const FAMILIES = ["ipv4", "ipv6-wan", "ipv6-pd"] as const;

/** Counts and sampling budgets of the current sub-step (or of actions between steps). */
export interface Tally {
  up: number;
  down: number;
  failed: number;
  loggedUp: number;
  loggedDown: number;
  loggedFailed: number;
}

/** The simulator's complete state. */
export class Model implements ModelCore {
  readonly profile: Profile;
  seed: number;
  rng: Random;
  nowMs: number;
  /** Milliseconds requested by `step` but shorter than a sub-step, carried to the next call. */
  pendingMs = 0;
  tick = 0;
  nextSessionId = 1;
  churnMultiplier = 1;
  peakSessions = 0;
  readonly vrfNames: string[];
  readonly subscribers: SubscriberBase;
  /**
   * Offline subscribers as a dense set (swap-remove), so a uniform pick is O(1): the first `readyCount`
   * are ready to connect (their CPE is up and dialling), the rest until `offlineCount` are away (their
   * CPE is off, rebooting or its line is down) until their `backAt`.
   */
  offline: Int32Array;
  offlinePos: Int32Array;
  offlineCount: number;
  readyCount: number;
  /** When each subscriber's CPE is back (epoch seconds; 0 = not away): a return filed in `returns`. */
  readonly backAt: Uint32Array;
  /** The subscribers' returns, by the sub-step they fall due in. */
  readonly returns = new LeaseTimers();
  /** What ends sessions and when (lifetimes.ts). */
  readonly lifetimes: Lifetimes;
  /**
   * Live slot of each generated subscriber, -1 when offline: the username filter's index from subscriber number to
   * session.
   */
  readonly slotOfSub: Int32Array;
  readonly store: SessionStore;
  /** The running pools, in configured order (the profile's at start; `setPools` replaces them). */
  pools: AddressPool[] = [];
  /** What the running pools were built from, in the same order (snapshotted: it may differ from the profile's). */
  poolConfigs: PoolDefinition[] = [];
  /** Pool indices per (VRF, family): `poolTable[vrf * 3 + family]`. */
  poolTable: number[][] = [];
  /** VRFs whose IPv4 sessions the running CGN translates (their IPv4 pools are `cgnTranslated`). */
  readonly cgnVrfs: ReadonlySet<string>;
  readonly radius: RadiusPool;
  readonly cgn: Cgn;
  readonly logs: LogRing;
  readonly alarms: AlarmBook;
  readonly captures: Captures;
  readonly metrics: MetricsRing;
  /** Locally defined subscribers (the configuration's local subscriber table). */
  readonly locals = new LocalTable();
  /** The rows of served session pages, kept encoded while their sessions live. */
  readonly rowTexts = new RowTexts();
  /** Session pages as served, while the clock and the live set stand still. */
  readonly pageTexts = new PageTexts<SessionList>();
  /** L2TP tunnels and the tunnel of each pppoe-lac and l2tp session. */
  readonly l2tp: L2tpTable;
  /** The licence terms the appliance object installed, and the state last observed (licence.ts). */
  licence: LicenceTerms = DEV_TERMS;
  licenceState: LicenceState = "Dev";
  /**
   * Control-plane daemons a scenario stopped (`fail-daemon`: `routing`, `ipsec`); a reseed (a reboot) starts them
   * again.
   */
  daemonsDown = new Set<Daemon>();
  /** Sessions down in each of the last LOSS_WINDOW_STEPS sub-steps, a ring from `lossAt` (sessions.loss.high). */
  lossRing = new Int32Array(LOSS_WINDOW_STEPS);
  lossAt = 0;
  /** Events since the last metrics sample (sessionsUp / sessionsDown per interval). */
  upSinceSample = 0;
  downSinceSample = 0;
  tally: Tally = { up: 0, down: 0, failed: 0, loggedUp: 0, loggedDown: 0, loggedFailed: 0 };
  /**
   * Session setups, teardowns and failed setups since this data plane booted (the scrape's counters; a reboot starts a
   * new model).
   */
  sessionEvents = { setups: 0, teardowns: 0, failures: 0 };
  readonly scratch: SubscriberAttrs = blankAttrs();
  /** Told every Access-Request for a real RADIUS server (Gateway `onAccessRequest`); null = nobody listens. */
  accessListener: ((request: AccessRequestRecord) => void) | null = null;
  /** Told every accounting request as a transport would send it (Gateway `onAccounting`); null = nobody listens. */
  accountingListener: ((record: AccountingRecord) => void) | null = null;
  /** Per-port traffic counters since this data plane booted (interfaces.ts). */
  /** Counters of the subscriber ports in profile order, then of the core uplinks (wire.ts). */
  readonly portCounters: PortCounters;
  readonly uplinks: readonly Uplink[];
  /** This sub-step's rates on the wire, ports then uplinks. */
  readonly wire: WireRates;
  /** When this data plane booted: its creation, a reseed, or the end of an upgrade's reboot. */
  bootedMs: number;
  /** A software upgrade under way or just done (upgrade.ts); null when none. */
  maintenance: Maintenance | null = null;

  constructor(profile: Profile, seed: number, startTimeMs: number, logs?: LogRing) {
    this.profile = profile;
    this.seed = seed >>> 0;
    this.rng = new Random(this.seed);
    // Sub-steps fall on 10 s boundaries of the epoch so every appliance samples at the same instants.
    this.nowMs = Math.floor(startTimeMs / 10_000) * 10_000;
    this.vrfNames = profile.vrfs.map((v) => v.name);
    this.subscribers = new SubscriberBase(profile, this.seed);
    const n = profile.population.subscribers;
    this.offline = new Int32Array(n);
    this.offlinePos = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      this.offline[i] = i;
      this.offlinePos[i] = i;
    }
    this.offlineCount = n;
    this.readyCount = n;
    this.backAt = new Uint32Array(n);
    this.lifetimes = new Lifetimes(profile, this.seed);
    // A fresh appliance: every CPE that is on dials at once; the share switched off comes back over the days ahead.
    for (let sub = 0; sub < n; sub++) {
      const back = this.lifetimes.awayAtStart(sub, this.nowMs);
      if (back > 0) {
        this.#swap(this.offlinePos[sub] ?? 0, --this.readyCount);
        this.backAt[sub] = back;
        this.returns.add(sub, back * 1000);
      }
    }
    this.slotOfSub = new Int32Array(n).fill(-1);
    this.store = new SessionStore(
      profile.population.licensedSessions,
      profile.ports.length,
      this.vrfNames.length,
      profile.identities.realms.length,
      profile.population.steadyStateSessions,
    );
    this.cgnVrfs = new Set(profile.cgn.groups.flatMap((g) => g.insideVrfs));
    this.l2tp = new L2tpTable(profile, this.seed, profile.population.licensedSessions);
    this.installPools(profile.pools);
    this.logs = logs ?? new LogRing();
    this.radius = new RadiusPool(profile.aaa, this.logs);
    this.cgn = new Cgn(profile.cgn, this.vrfNames, this.logs);
    this.alarms = new AlarmBook(this.logs);
    this.captures = new Captures(this.logs);
    this.metrics = new MetricsRing(profile.ports.length);
    this.uplinks = uplinksOf(this);
    this.wire = new WireRates(profile.ports.length, this.uplinks);
    this.portCounters = new PortCounters(profile.ports.length + this.uplinks.length);
    this.bootedMs = this.nowMs;
  }

  /** Builds fresh pools (nothing held but their statics) from definitions: at start, at a restore and at a reseed. */
  installPools(definitions: readonly PoolDefinition[]): void {
    this.poolConfigs = structuredClone([...definitions]);
    this.pools = this.poolConfigs.map((p, i) => this.newPool(p, i));
    this.indexPools();
  }

  /** An empty pool of a definition at an index, translated when the running CGN translates its VRF. */
  newPool(definition: PoolDefinition, index: number): AddressPool {
    return new AddressPool(
      definition,
      index,
      definition.family === "ipv4" && this.cgnVrfs.has(definition.vrf ?? "default"),
    );
  }

  /** Rebuilds the (VRF, family) → pools table, learning the pools' VRFs. */
  indexPools(): void {
    for (const p of this.pools) this.addVrf(p.config.vrf ?? "default");
    this.poolTable = [];
    for (let v = 0; v < this.vrfNames.length; v++) {
      for (let f = 0; f < 3; f++) {
        this.poolTable.push(
          this.pools
            .filter((p) => (p.config.vrf ?? "default") === this.vrfNames[v] && p.config.family === FAMILIES[f])
            .map((p) => p.index),
        );
      }
    }
  }

  /** The pool a subscriber uses in a VRF for a family (AAA's Framed-Pool), or null when the VRF has none. */
  poolFor(vrf: number, family: number, pick: number): AddressPool | null {
    const list = this.poolTable[vrf * 3 + family] ?? [];
    if (list.length === 0) return null;
    return this.pools[list[pick % list.length] ?? 0] ?? null;
  }

  /**
   * The index of a VRF, learnt if the profile does not list it (a local
   * subscriber or a pool placed in a VRF the configuration created; no CGN).
   * -1 when the session table's VRF column (one byte) is full.
   */
  addVrf(name: string): number {
    const known = this.vrfNames.indexOf(name);
    if (known >= 0) return known;
    if (this.vrfNames.length >= 256) return -1;
    this.vrfNames.push(name);
    this.store.growVrfs(this.vrfNames.length);
    for (let f = 0; f < 3; f++) this.poolTable.push([]);
    return this.vrfNames.length - 1;
  }

  /** Swaps two positions of the offline array. */
  #swap(i: number, j: number): void {
    const a = this.offline[i] ?? 0;
    const b = this.offline[j] ?? 0;
    this.offline[i] = b;
    this.offlinePos[b] = i;
    this.offline[j] = a;
    this.offlinePos[a] = j;
  }

  /** Removes a ready subscriber from the offline set (its session came up). */
  takeOffline(sub: number): void {
    // To the end of the ready ones, which becomes the first away place; then to the end of the away ones.
    this.#swap(this.offlinePos[sub] ?? 0, --this.readyCount);
    this.#swap(this.readyCount, --this.offlineCount);
  }

  /**
   * Returns a subscriber to the offline set: ready at once when its CPE is back by `backMs`, else away until then
   * (for good, until something makes it ready, when `backMs` is infinite: a failed LAC's subscriber, `park`).
   */
  putOffline(sub: number, backMs: number): void {
    this.#swap(this.offlinePos[sub] ?? 0, this.offlineCount++);
    if (backMs <= this.nowMs) this.makeReady(sub);
    else if (backMs === Number.POSITIVE_INFINITY) this.backAt[sub] = 0;
    else this.awayUntil(sub, backMs);
  }

  /** Moves a ready subscriber to the away ones with no return filed: back only when something makes it ready. */
  park(sub: number): void {
    this.#swap(this.offlinePos[sub] ?? 0, --this.readyCount);
    this.backAt[sub] = 0;
  }

  /** The parked subscribers: away with no return filed. */
  parked(): number[] {
    const out: number[] = [];
    for (let i = this.readyCount; i < this.offlineCount; i++) {
      const sub = this.offline[i] ?? 0;
      if ((this.backAt[sub] ?? 0) === 0) out.push(sub);
    }
    return out;
  }

  /** Files an online or away subscriber's return at `backMs` (its CPE off, rebooting or its line down until then). */
  awayUntil(sub: number, backMs: number): void {
    const back = Math.ceil(backMs / 1000);
    this.backAt[sub] = back;
    this.returns.add(sub, back * 1000);
  }

  /** Whether an offline subscriber is away (not dialling). */
  isAway(sub: number): boolean {
    const at = this.offlinePos[sub] ?? 0;
    return at >= this.readyCount && at < this.offlineCount;
  }

  /** Moves an away subscriber to the ready ones. */
  makeReady(sub: number): void {
    this.backAt[sub] = 0;
    if (this.isAway(sub)) this.#swap(this.offlinePos[sub] ?? 0, this.readyCount++);
  }

  /**
   * Username of a live slot, built when asked: a generated subscriber's from
   * its number and realm, a local subscriber's from its configuration (a
   * string per session would be most of the table's memory).
   */
  usernameOf = (slot: number): string => {
    const sub = this.store.sub[slot] ?? 0;
    return sub < 0
      ? (this.locals.ofSub(sub)?.config.username ?? "")
      : this.subscribers.username(sub, this.store.realm[slot] ?? 0);
  };

  /** A fresh tally (start of a sub-step). */
  resetTally(): void {
    this.tally = { up: 0, down: 0, failed: 0, loggedUp: 0, loggedDown: 0, loggedFailed: 0 };
  }
}
