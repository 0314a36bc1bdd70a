/**
 * The interface table: one row per subscriber-facing port (the profile's,
 * with the session summary's `portId` and `label`), the core uplinks, the
 * loopback and the management port. A port's rates are the metrics history's
 * newest point, an uplink's its last step's; byte and packet counters are
 * kept per port and uplink from the same per-step rates on the wire (wire.ts),
 * so they only grow while the data plane runs and restart at its boot (the
 * row's `countersSinceUtc`, like SNMP's ifCounterDiscontinuityTime).
 */
import { SUB_STEP_SECONDS, isoTime } from "./clock.ts";
import { macAt, portHardware, type HardwareIdentity, type PortLoad } from "./hardware.ts";
import { CORE_MTU, PORT_MTU } from "./frame-sizes.ts";
import type { Uplink } from "./wire.ts";
import type { Interface } from "../src/schemas/system.ts";

/**
 * Cumulative per-port traffic since the data plane booted. A step adds its
 * ten seconds of traffic at once; read between steps, the counters move on
 * from the previous step's values towards the last step's in proportion to
 * the time since it (`progress`), as a real interface's counters advance at
 * any read instant: a scrape every 15 s then sees an even share of each step,
 * not one step or two (rate() zig-zagged by ±14 %, irate() by ±35 %). They lag
 * the model by one step, and never run backwards.
 */
export class PortCounters {
  /** Per port: rx bytes, tx bytes, rx packets, tx packets; then the same four as they were before the last step. */
  #values: Float64Array;
  readonly #width: number;

  constructor(ports: number) {
    this.#width = ports * 4;
    this.#values = new Float64Array(this.#width * 2);
  }

  /** Adds one sub-step of the per-port rates (bits and packets per second, rx = from subscribers). */
  add(rxBps: Float64Array, txBps: Float64Array, rxPps: Float64Array, txPps: Float64Array): void {
    const v = this.#values;
    v.copyWithin(this.#width, 0, this.#width);
    for (let p = 0; p < rxBps.length; p++) {
      const rx = rxBps[p] ?? 0;
      const tx = txBps[p] ?? 0;
      v[p * 4] = (v[p * 4] ?? 0) + (rx / 8) * SUB_STEP_SECONDS;
      v[p * 4 + 1] = (v[p * 4 + 1] ?? 0) + (tx / 8) * SUB_STEP_SECONDS;
      v[p * 4 + 2] = (v[p * 4 + 2] ?? 0) + (rxPps[p] ?? 0) * SUB_STEP_SECONDS;
      v[p * 4 + 3] = (v[p * 4 + 3] ?? 0) + (txPps[p] ?? 0) * SUB_STEP_SECONDS;
    }
  }

  /**
   * Counts one frame sent on a port (an emitted diagnostic frame): its bytes and one packet, transmit side, at once.
   */
  addTransmitted(port: number, bytes: number): void {
    const v = this.#values;
    for (const base of [0, this.#width]) {
      v[base + port * 4 + 1] = (v[base + port * 4 + 1] ?? 0) + bytes;
      v[base + port * 4 + 3] = (v[base + port * 4 + 3] ?? 0) + 1;
    }
  }

  /**
   * One port's counters, whole bytes and packets, `progress` (0 to 1) of the way from before the last step to after it.
   */
  of(port: number, progress = 1): { rxBytes: number; txBytes: number; rxPackets: number; txPackets: number } {
    const v = this.#values;
    const at = (i: number) => {
      const after = v[port * 4 + i] ?? 0;
      const before = v[this.#width + port * 4 + i] ?? 0;
      return Math.floor(before + (after - before) * progress);
    };
    return { rxBytes: at(0), txBytes: at(1), rxPackets: at(2), txPackets: at(3) };
  }

  /** The state, for snapshots. */
  exportState(): Float64Array {
    return this.#values.slice();
  }

  /** The bits per second a port or uplink carried over the last step. */
  lastStepBps(port: number): { rxBps: number; txBps: number } {
    const v = this.#values;
    const moved = (i: number) =>
      (((v[port * 4 + i] ?? 0) - (v[this.#width + port * 4 + i] ?? 0)) * 8) / SUB_STEP_SECONDS;
    return { rxBps: Math.round(moved(0)), txBps: Math.round(moved(1)) };
  }

  /**
   * Restores a snapshot's state: a snapshot without the values before its last step reads as if it had none; one
   * written before the uplinks were counted (`ports` ports only) restores its ports, the uplinks from 0. Ignored
   * when the port count differs otherwise.
   */
  importState(values: Float64Array | undefined, ports = this.#width / 4): void {
    // Every older layout holds the ports alone (`ports` × 4 values, with or without the values before the last step).
    const width = ports * 4;
    if (values?.length === this.#values.length) this.#values.set(values);
    else if (values && (values.length === width * 2 || values.length === width)) {
      this.#values.set(values.subarray(0, width));
      this.#values.set(values.subarray(values.length - width), this.#width);
    }
  }
}

/** Interface error and discard counters: a fixed, tiny share of the packets (per port), so they only grow with them. */
function faults(id: HardwareIdentity, portId: number, c: ReturnType<PortCounters["of"]>) {
  const k = 1 + (((Math.imul(portId + 1, 0x9e3779b1) ^ id.seed) >>> 0) % 5);
  return {
    rxErrors: Math.floor(c.rxPackets * k * 2e-10),
    txErrors: 0,
    // Ingress policing of out-of-contract subscriber traffic, egress shaper tail drops.
    rxDiscards: Math.floor(c.rxPackets * k * 4e-7),
    txDiscards: Math.floor(c.txPackets * k * 1e-6),
  };
}

/** What the table is built from, all read at one instant. */
export interface InterfaceInputs {
  identity: HardwareIdentity;
  ports: readonly { portId: number; label: string }[];
  /** The metrics history's newest point per port. */
  rates: readonly PortLoad[];
  /** The core uplinks, counted after the ports (PortCounters). */
  uplinks: readonly Uplink[];
  /** The session summary's `byPort`. */
  sessions: readonly { portId: number; count: number }[];
  counters: PortCounters;
  /** How far the counters have moved from the last step's start towards its end (PortCounters.of). */
  progress: number;
  /** False while the data plane reboots: the data-plane ports are down. */
  forwarding: boolean;
  bootedMs: number;
}

/**
 * The interface table: the subscriber-facing ports in profile order, the core uplinks, then `lo0` and the management
 * port.
 */
export function interfaceTable(input: InterfaceInputs): Interface[] {
  const since = isoTime(input.bootedMs);
  const rows: Interface[] = input.ports.map((port, i) => {
    const hw = portHardware(port);
    const rate = input.rates.find((r) => r.portId === port.portId);
    const counts = input.counters.of(i, input.progress);
    return {
      name: hw.name,
      description: hw.description,
      type: "ethernet",
      portId: port.portId,
      label: port.label,
      adminState: "up",
      operState: input.forwarding ? "up" : "down",
      speedMbps: hw.speedMbps,
      mtu: PORT_MTU,
      mac: macAt(input.identity, 2 + i),
      rxBps: rate?.rxBps ?? 0,
      txBps: rate?.txBps ?? 0,
      counters: { ...counts, ...faults(input.identity, port.portId, counts) },
      countersSinceUtc: since,
      sessions: input.sessions.find((s) => s.portId === port.portId)?.count ?? 0,
    };
  });
  const core = input.uplinks.map((uplink, u): Interface => {
    const i = input.ports.length + u;
    const counts = input.counters.of(i, input.progress);
    return {
      name: uplink.name,
      description: `core uplink, ECMP member ${u + 1} of ${input.uplinks.length}`,
      type: "ethernet",
      portId: null,
      label: null,
      adminState: "up",
      operState: input.forwarding ? "up" : "down",
      speedMbps: uplink.speedMbps,
      mtu: CORE_MTU,
      mac: macAt(input.identity, 2 + i),
      ...input.counters.lastStepBps(i),
      counters: { ...counts, ...faults(input.identity, 1000 + u, counts) },
      countersSinceUtc: since,
      sessions: null,
    };
  });
  rows.push(...core);
  const quiet = {
    rxBytes: 0,
    txBytes: 0,
    rxPackets: 0,
    txPackets: 0,
    rxErrors: 0,
    txErrors: 0,
    rxDiscards: 0,
    txDiscards: 0,
  };
  rows.push(
    {
      name: "lo0",
      description: "router id and service addresses",
      type: "loopback",
      portId: null,
      label: null,
      adminState: "up",
      operState: "up",
      speedMbps: null,
      mtu: 65535,
      mac: null,
      rxBps: 0,
      txBps: 0,
      counters: quiet,
      countersSinceUtc: since,
      sessions: null,
    },
    // The management plane answers this API, so it is up even while the data plane reboots; its traffic is not
    // modelled.
    {
      name: "mgmt0",
      description: "out-of-band management",
      type: "management",
      portId: null,
      label: null,
      adminState: "up",
      operState: "up",
      speedMbps: 1000,
      mtu: 1500,
      mac: macAt(input.identity, 1),
      rxBps: 0,
      txBps: 0,
      counters: quiet,
      countersSinceUtc: since,
      sessions: null,
    },
  );
  return rows;
}
