/**
 * The public listeners' connection limits (docs/running.md, "The local listeners'
 * limits"). One Node process holds every appliance's listener, so a client
 * that opens connections and sends nothing, or a request line a byte at a time
 * (slowloris), must not hold descriptors for ever. Event streams and slow
 * uploads stay legitimate: once a request's headers are in, no timer runs.
 */
import type http from "node:http";

export type ListenerLimits = {
  /**
   * From accepting a connection (or the end of the previous request) to a request's complete headers, TLS handshake
   * included.
   */
  headersTimeoutMs: number;
  /** An idle kept-alive connection between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections per listener; more are closed as they arrive. */
  maxConnections: number;
  /** Open connections per client address on one listener; more from that address are closed as they arrive. */
  maxConnectionsPerClient: number;
};

/**
 * Headers: Apache's mod_reqtimeout allows 20 s, nginx 60 s (client_header_timeout);
 * no client of a management API needs more than 20. Idle: Node's own 5 s rather
 * than nginx's 75 s, as one process holds every appliance's connections and a
 * client reopens one in a round trip. Connections: nginx opens 512 per worker;
 * 256 per listener (each relayed one holds a second descriptor upstream) keeps
 * a hundred appliances inside a 64k descriptor limit. Per client address a
 * quarter of that, 64 (issue #47: 300 idle connections from one address held
 * all 256 places, and reopened each as the headers timeout closed it): a browser
 * opens 6 per origin, its live channels 4 per session, `npm run bench`'s wrk 10;
 * so no one address takes more than a quarter of an appliance's connections.
 * Every process of this machine is 127.0.0.1 to a loopback listener: the share
 * protects a listener bound to a LAN address from its clients.
 */
export const LISTENER_LIMITS: ListenerLimits = {
  headersTimeoutMs: 20_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 256,
  maxConnectionsPerClient: 64,
};

/**
 * Counts a listener's open connections per client address: `admit` takes a place for a new connection (false when
 * its address holds its share: the caller closes it at once, a clean close rather than a hang), the connection's
 * close gives it back.
 */
export class ClientShares {
  readonly #held = new Map<string, number>();
  readonly #share: number;

  constructor(share: number) {
    this.#share = share;
  }

  admit(client: string, socket: { once(event: "close", listener: () => void): unknown }): boolean {
    const held = this.#held.get(client) ?? 0;
    if (held >= this.#share) return false;
    this.#held.set(client, held + 1);
    socket.once("close", () => {
      const left = (this.#held.get(client) ?? 1) - 1;
      if (left > 0) this.#held.set(client, left);
      else this.#held.delete(client);
    });
    return true;
  }
}

/**
 * A request's head (request line and headers) at most: Node's default is 16 KiB, and an SSO cookie or a long
 * bearer token past it had the connection closed without an answer, where workerd's own sockets take 200 KB.
 * 128 KiB serves those; past it the listener answers 431.
 */
export const MAX_HEADER_BYTES = 128 * 1024;

/**
 * A request target (path and query) at most: workerd's own limit, measured (2026-11-29: 65,534 bytes served, one
 * more answered 414, whatever the Host). Workerd words its 414 as text/plain; the listener answers the same
 * requests itself, as problem details, so both listeners serve the same URLs and every refusal reads alike.
 */
export const MAX_TARGET_BYTES = 65_534;

/**
 * Node's server options for these limits: no request timeout (event streams, uploads); expired headers checked each
 * second; heads up to MAX_HEADER_BYTES.
 */
export function serverOptions(limits: ListenerLimits): http.ServerOptions {
  return {
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  };
}
