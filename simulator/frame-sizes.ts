/**
 * Frame and packet sizes shared by the traffic model, the port counters, the session rates and ping: a leaf module with
 * no imports.
 */

import { ENCAP_IPOE } from "./subscribers.ts";

/** IP MTU of the subscriber-facing ports. */
export const PORT_MTU = 1500;
/** IP MTU of the core uplinks: jumbo, so a full segment in L2TP (L2TP_OVERHEAD_BYTES more) crosses whole. */
export const CORE_MTU = 9000;
/**
 * IP packet sizes of the traffic mix (traffic.ts). Internet packet sizes are bimodal: full-size segments at the
 * MTU and pure TCP ACKs at the bottom (CAIDA's packet size distributions; Sinha et al., "Internet Packet Size
 * Distributions: Some Observations", 2007); a receiver ACKs at least every second full-size segment (delayed
 * ACK, RFC 1122 §4.2.3.2, RFC 5681 §4.2).
 */
export const FULL_SEGMENT_BYTES = 1500;
/** A pure ACK: IPv4 and TCP headers with the timestamp option (RFC 7323), 20 + 32 bytes. */
export const ACK_BYTES = 52;
/** The smaller packets of interactive traffic (games, calls, DNS, requests) a download mixes in, on average. */
export const SMALL_PACKET_BYTES = 200;
/** A subscriber's downstream is this share of full segments (uniform between the two: video all but whole). */
export const DOWN_FULL_SHARE = [0.6, 0.97] as const;

/**
 * What a frame on a subscriber-facing port adds to its IP packet, as interface byte counters count it (frame
 * without preamble and FCS): an Ethernet header (14) and the access network's two 802.1Q tags (S-VLAN and
 * C-VLAN, 802.1ad: 8); a PPP session adds the PPPoE header (6, RFC 2516) and the PPP protocol field (2).
 */
export const IPOE_FRAME_OVERHEAD_BYTES = 22;
export const PPPOE_FRAME_OVERHEAD_BYTES = 30;

/** The access frame overhead of an encapsulation index (subscribers.ts): IPoE, or PPP over Ethernet. */
export function accessOverheadBytes(encap: number): number {
  return encap === ENCAP_IPOE ? IPOE_FRAME_OVERHEAD_BYTES : PPPOE_FRAME_OVERHEAD_BYTES;
}

/** A core uplink's frame adds its Ethernet header (untagged). */
export const CORE_FRAME_OVERHEAD_BYTES = 14;
/**
 * An L2TP data packet around a PPP frame: outer IPv4 (20), UDP (8), L2TPv2 header (6, RFC 2661 §3.1), PPP protocol (2).
 */
export const L2TP_OVERHEAD_BYTES = 36;
/** The smallest Ethernet frame without its FCS: an LCP echo is padded to it. */
export const MIN_FRAME_BYTES = 60;
/** A DHCP REQUEST or ACK on the access port: frame overhead, IPv4 and UDP headers and a BOOTP message with options. */
export const DHCP_FRAME_BYTES = 22 + 20 + 8 + 300;
/** The mean packet of transit traffic, as backbone traces average it (CAIDA, Sinha et al.: between the two modes). */
export const TRANSIT_PACKET_BYTES = 900;
