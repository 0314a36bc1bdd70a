/**
 * The public listeners' connection limits (docs/running.md, "The local listeners'
 * limits"). One Node process holds every appliance's listener, so a client
 * that opens connections and sends nothing, or a request line a byte at a time
 * (slowloris), must not hold descriptors for ever. Event streams and slow
 * uploads stay legitimate: once a request's headers are in, no timer runs.
 */
import type http from "node:http";

export type ListenerLimits = {
  /** From accepting a connection (or the end of the previous request) to a request's complete headers, TLS handshake included. */
  headersTimeoutMs: number;
  /** An idle kept-alive connection between requests. */
  keepAliveTimeoutMs: number;
  /** Open connections per listener; more are closed as they arrive. */
  maxConnections: number;
};

/**
 * Headers: Apache's mod_reqtimeout allows 20 s, nginx 60 s (client_header_timeout);
 * no client of a management API needs more than 20. Idle: Node's own 5 s rather
 * than nginx's 75 s, as one process holds every appliance's connections and a
 * client reopens one in a round trip. Connections: nginx opens 512 per worker;
 * 256 per listener (each relayed one holds a second descriptor upstream) keeps
 * a hundred appliances inside a 64k descriptor limit.
 */
export const LISTENER_LIMITS: ListenerLimits = { headersTimeoutMs: 20_000, keepAliveTimeoutMs: 5_000, maxConnections: 256 };

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

/** Node's server options for these limits: no request timeout (event streams, uploads); expired headers checked each second; heads up to MAX_HEADER_BYTES. */
export function serverOptions(limits: ListenerLimits): http.ServerOptions {
  return {
    maxHeaderSize: MAX_HEADER_BYTES,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: 0,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs),
  };
}
