/** Frame and packet sizes shared by the traffic model, the port counters, the session rates and ping: a leaf module with no imports. */

/** IP MTU of the access and core ports. */
export const PORT_MTU = 1500;
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
