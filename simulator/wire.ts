/**
 * What the data-plane ports carry on the wire, each sub-step (issue #52): a subscriber-facing port carries its
 * sessions' IP packets in their access frames (Ethernet, two VLAN tags, PPPoE) plus the control plane of its
 * sessions (LCP echo, DHCP renewals); the core uplinks carry every session's traffic towards and from the core
 * (an LNS-terminated session's twice: in its L2TP tunnel and out to the core; a LAC session's in its tunnel),
 * plus transit, shared between the uplinks as ECMP hashes flows. So the uplinks' counters are above the sum of
 * the subscriber ports', and a port's above the sum of its sessions'.
 */
import { LCP_ECHO_SECONDS } from "./lifetimes.ts";
import type { ModelCore } from "./model-core.ts";
import { portHardware } from "./hardware.ts";
import {
  CORE_FRAME_OVERHEAD_BYTES,
  DHCP_FRAME_BYTES,
  L2TP_OVERHEAD_BYTES,
  MIN_FRAME_BYTES,
  TRANSIT_PACKET_BYTES,
} from "./frame-sizes.ts";
import { mix32 } from "./random.ts";
import { ENCAP_L2TP, ENCAP_PPPOE_LAC } from "./subscribers.ts";

/** The core uplinks, named as the seeded IGP configuration names them (igp.interfaces), so the two reconcile. */
export const UPLINK_NAMES = ["uplink0", "uplink1"] as const;

/** A core uplink as the interface table shows it. */
export interface Uplink {
  name: string;
  /** As fast as the fastest subscriber-facing port: the chassis's fastest media. */
  speedMbps: number;
  /** Its share of the ECMP-hashed traffic. */
  share: number;
}

/**
 * The uplinks of a profile and seed: ECMP's split is never exactly even (a flow hash over a few thousand flows), within
 * ±4 %.
 */
export function uplinksOf(m: Pick<ModelCore, "profile" | "seed">): Uplink[] {
  const speedMbps = Math.max(...m.profile.ports.map((p) => portHardware(p).speedMbps));
  const first = 0.5 + (mix32(m.seed ^ 0x6c62272e) / 4294967296 - 0.5) * 0.08;
  return UPLINK_NAMES.map((name, u) => ({ name, speedMbps, share: u === 0 ? first : 1 - first }));
}

/**
 * Per-port rates on the wire (bits and packets per second): the subscriber ports in profile order, then the uplinks.
 */
export class WireRates {
  readonly rx: Float64Array;
  readonly tx: Float64Array;
  readonly rxPps: Float64Array;
  readonly txPps: Float64Array;
  readonly #shares: Float64Array;

  constructor(ports: number, uplinks: readonly Uplink[]) {
    const width = ports + uplinks.length;
    this.rx = new Float64Array(width);
    this.tx = new Float64Array(width);
    this.rxPps = new Float64Array(width);
    this.txPps = new Float64Array(width);
    this.#shares = Float64Array.from(uplinks, (u) => u.share);
  }

  /** Works out this sub-step's rates from the session table's sums (rx = received on the port). */
  update(m: ModelCore): void {
    const s = m.store;
    const ports = s.portRx.length;
    // Control plane per session: PPP answers an LCP Echo-Request every LCP_ECHO_SECONDS (RFC 1661 §5.8, a minimum
    // frame each way); an IPoE client renews its lease at T1, half the lease (RFC 2131 §4.4.5), a REQUEST and an ACK.
    const renewSeconds = m.profile.leases.ipoeLeaseSeconds / 2;
    for (let p = 0; p < ports; p++) {
      const ppp = s.pppByPort[p] ?? 0;
      const ipoe = (s.byPort[p] ?? 0) - ppp;
      const controlPps = ppp / LCP_ECHO_SECONDS + ipoe / renewSeconds;
      const controlBytes = (ppp * MIN_FRAME_BYTES) / LCP_ECHO_SECONDS + (ipoe * DHCP_FRAME_BYTES) / renewSeconds;
      this.rx[p] = (s.portRx[p] ?? 0) + 8 * ((s.portRxOverhead[p] ?? 0) + controlBytes);
      this.tx[p] = (s.portTx[p] ?? 0) + 8 * ((s.portTxOverhead[p] ?? 0) + controlBytes);
      this.rxPps[p] = (s.portRxPps[p] ?? 0) + controlPps;
      this.txPps[p] = (s.portTxPps[p] ?? 0) + controlPps;
    }
    // Towards the core (an uplink's transmit side): every session's upstream; a LAC session's in its tunnel to the
    // LNS; an LNS-terminated session's downstream, back in its tunnel to the LAC. From the core: the mirror image.
    const sum = (a: Float64Array) => a.reduce((x, y) => x + y, 0);
    const up = sum(s.encapRx) / 8;
    const down = sum(s.encapTx) / 8;
    const upPps = sum(s.encapRxPps);
    const downPps = sum(s.encapTxPps);
    const lacUpPps = s.encapRxPps[ENCAP_PPPOE_LAC] ?? 0;
    const lacDownPps = s.encapTxPps[ENCAP_PPPOE_LAC] ?? 0;
    const lnsUpPps = s.encapRxPps[ENCAP_L2TP] ?? 0;
    const lnsDownPps = s.encapTxPps[ENCAP_L2TP] ?? 0;
    const toCorePps = upPps + lnsDownPps;
    const toCore =
      up + L2TP_OVERHEAD_BYTES * lacUpPps + (s.encapTx[ENCAP_L2TP] ?? 0) / 8 + L2TP_OVERHEAD_BYTES * lnsDownPps;
    const fromCorePps = downPps + lnsUpPps;
    const fromCore =
      down + L2TP_OVERHEAD_BYTES * lacDownPps + (s.encapRx[ENCAP_L2TP] ?? 0) / 8 + L2TP_OVERHEAD_BYTES * lnsUpPps;
    // Transit: traffic crossing the box between its uplinks, in proportion to the subscribers' (it follows the day
    // too).
    const transit = m.profile.traffic.transitShare * down;
    const transitPps = transit / TRANSIT_PACKET_BYTES;
    this.#shares.forEach((share, u) => {
      const i = ports + u;
      this.tx[i] = 8 * share * (toCore + transit + CORE_FRAME_OVERHEAD_BYTES * (toCorePps + transitPps));
      this.rx[i] = 8 * share * (fromCore + transit + CORE_FRAME_OVERHEAD_BYTES * (fromCorePps + transitPps));
      this.txPps[i] = share * (toCorePps + transitPps);
      this.rxPps[i] = share * (fromCorePps + transitPps);
    });
  }
}
