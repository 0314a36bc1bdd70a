/**
 * Control-plane events as a router logs them: the BGP, IGP, IPsec and GRE
 * models (routing.ts, igp.ts, ipsec.ts, gre.ts) are functions of the clock, so nothing in them
 * "happens"; this watcher samples their states at every 10 s step and turns
 * the differences into log entries and alarms. A session or tunnel that was
 * up and goes down raises an alarm; up again (or deleted, or shut down by an
 * operator) clears it. The first sample is the baseline, so a restart logs
 * nothing; an object configured later starts from the restart state (a BGP
 * session from Idle), so its bring-up is logged. A
 * bounce shorter than a step (a reset that is back before the next sample)
 * is told by the state's start instant, and logged as the down and the up.
 */
import type { AlarmId } from "./alarms.ts";
import type { FieldValue } from "./log-catalogue.ts";
import type { Severity } from "./vocabulary.ts";

export interface WatchedState {
  /** The object's key: a neighbor's address, a circuit's id. */
  key: string;
  state: string;
  /** When the object entered this state (a later instant in the same state means it left and came back). */
  sinceMs?: number | null;
}

/** What the watcher asks of the data plane. */
export interface WatchSink {
  log(severity: Severity, msgId: string, fields: Record<string, FieldValue>): void;
  observeAlarm(
    id: AlarmId,
    instance: string,
    high: boolean,
    low: boolean,
    describe: () => { text: string; context: Record<string, string> },
  ): void;
  /** Clears an alarm at once: its object was deleted from the configuration. */
  retireAlarm(id: AlarmId, instance: string): void;
}

/** One kind of watched object: how its states read and which alarm a fall raises. */
export interface WatchKind {
  msgId: string;
  alarm: AlarmId;
  /** The log field naming the object. */
  field: string;
  up: (state: string) => boolean;
  /** States an operator chose (an admin shutdown): not a fault, so they clear rather than raise. */
  administrative: (state: string) => boolean;
  describe: (key: string, state: string) => string;
  /** The state a restart passes through (a BGP session starts again from Idle; a tunnel is down). */
  bounceVia: string;
}

export class StateWatch {
  readonly #kind: WatchKind;
  readonly #last = new Map<string, { state: string; sinceMs: number | null }>();
  #baselined = false;

  constructor(kind: WatchKind) {
    this.#kind = kind;
  }

  /**
   * Compares the states now with the last sample; `null` = the states cannot be read now (a failed daemon): nothing
   * changes.
   */
  sample(states: readonly WatchedState[] | null, sink: WatchSink): void {
    if (states === null) return;
    const seen = new Set<string>();
    for (const { key, state, sinceMs = null } of states) {
      seen.add(key);
      const before =
        this.#last.get(key) ?? (this.#baselined ? { state: this.#kind.bounceVia, sinceMs: null } : undefined);
      this.#last.set(key, { state, sinceMs });
      if (before === undefined) continue;
      if (before.state !== state) this.#changed(key, before.state, state, sink);
      else if (sinceMs !== null && before.sinceMs !== null && sinceMs > before.sinceMs) {
        this.#changed(key, state, this.#kind.bounceVia, sink);
        this.#changed(key, this.#kind.bounceVia, state, sink);
      }
    }
    this.#baselined = true;
    for (const key of [...this.#last.keys()]) {
      if (seen.has(key)) continue;
      this.#last.delete(key);
      // Deleted from the configuration: whatever it raised is over.
      sink.retireAlarm(this.#kind.alarm, key);
    }
  }

  #changed(key: string, from: string, to: string, sink: WatchSink): void {
    const k = this.#kind;
    const fell = k.up(from) && !k.up(to) && !k.administrative(to);
    sink.log(fell ? "warning" : "notice", k.msgId, { [k.field]: key, from, to });
    sink.observeAlarm(k.alarm, key, fell, k.up(to) || k.administrative(to), () => ({
      text: k.describe(key, to),
      context: { [k.field]: key, state: to },
    }));
  }
}

/** BGP sessions: Established is up; `Idle (Admin)` is an operator's shutdown. */
export const BGP_WATCH: WatchKind = {
  msgId: "bgp.neighbor.state",
  alarm: "bgp.neighbor.down",
  field: "peer",
  up: (state) => state === "Established",
  administrative: (state) => state === "Idle (Admin)",
  describe: (peer, state) => `BGP session with ${peer} went down (${state})`,
  bounceVia: "Idle",
};

/** A GRE circuit's eBGP session, keyed by its neighbor: the remote tunnel address (and its VRF if not global). */
export const GRE_BGP_WATCH: WatchKind = {
  ...BGP_WATCH,
  administrative: () => false,
  describe: (peer, state) => `BGP session with ${peer} over its GRE circuit went down (${state})`,
};

/** GRE tunnels: up is up; provisioning is the operator's own change. */
export const GRE_WATCH: WatchKind = {
  msgId: "gre.circuit.state",
  alarm: "gre.circuit.down",
  field: "circuit",
  up: (state) => state === "up",
  administrative: (state) => state === "provisioning",
  describe: (circuit) => `GRE circuit ${circuit}: its tunnel went down`,
  bounceVia: "down",
};

/** IGP adjacencies: Full (OSPF) or Up (IS-IS) is up; keyed `<interface> <neighbor id>`. */
export const IGP_WATCH: WatchKind = {
  msgId: "igp.adjacency.state",
  alarm: "igp.adjacency.down",
  field: "adjacency",
  up: (state) => state === "Full" || state === "Up",
  administrative: () => false,
  describe: (adjacency, state) => `IGP adjacency ${adjacency} went down (${state})`,
  bounceVia: "Down",
};

/** IPsec IKE SAs: ESTABLISHED is up; DISABLED (IPsec switched off by an operator) is administrative. */
export const IPSEC_WATCH: WatchKind = {
  msgId: "ipsec.peer.state",
  alarm: "ipsec.peer.down",
  field: "peer",
  up: (state) => state === "ESTABLISHED",
  administrative: (state) => state === "DISABLED",
  describe: (peer, state) => `IPsec connection ${peer} lost its IKE SA (${state})`,
  bounceVia: "DOWN",
};
