/**
 * Which listener a request came in on, in the local fleet. One Worker serves
 * every listener of `npm start` (launcher/launch.ts); each listener names its
 * appliance in `X-BNG-Appliance`, after removing any such header a client sent
 * (launcher/listeners.ts), as it does for the peer address. Deployed, nothing
 * strips it, so a client could pick any appliance with it: there it is ignored
 * and the hostname decides (src/fleet/definition.ts); locally it is honoured
 * only on a request the launcher's wiring sent (src/fleet/wiring.ts).
 */

/** The header the launcher's listeners set to their appliance's name (and strip from clients). */
export const APPLIANCE_HEADER = "x-bng-appliance";

/** The appliance named by the listener a request came in on; null unless the launcher's wiring sent it (`wired`). */
export function listenerAppliance(headers: Headers, wired: boolean): string | null {
  return wired ? headers.get(APPLIANCE_HEADER) : null;
}

/**
 * The header a log stream's answer carries to the local launcher's listener: the stream's handle, with which the
 * listener frees the stream's place the moment its client leaves (Appliance.releaseLogStream, through Miniflare).
 * Never relayed either way: the listener strips it from requests and answers alike.
 */
export const STREAM_HANDLE_HEADER = "x-bng-stream";
