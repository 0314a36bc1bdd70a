/** Frame and packet sizes shared by the traffic model, the port counters, the session rates and ping: a leaf module with no imports. */

/** IP MTU of the access and core ports. */
export const PORT_MTU = 1500;
/** Average upstream packet size in bytes (ACK-heavy). */
export const UP_PACKET_BYTES = 400;
/** Average downstream packet size in bytes (mostly full-size segments). */
export const DOWN_PACKET_BYTES = 1100;
