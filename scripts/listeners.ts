/**
 * The public listeners. Miniflare's direct sockets speak plain HTTP only, so
 * for HTTPS each appliance gets a Node TLS server on its public port that
 * decrypts and forwards the raw bytes to the appliance's direct socket on an
 * ephemeral loopback port. Forwarding at the TCP level (rather than proxying
 * HTTP requests) keeps keep-alive, streaming responses and WebSocket upgrades
 * working with no HTTP handling of our own.
 */
import net from "node:net";
import tls from "node:tls";
import { LaunchError } from "./config.ts";
import { acceptAcmeHttp } from "./acme-http.ts";

export type TlsFrontend = {
  /** Points the frontend at the direct socket once Miniflare has bound it. */
  setTarget(host: string, port: number): void;
  /** Serves another certificate from now on (uploaded or issued by ACME; see certificate-watch.ts). */
  useCertificate(key: string, cert: string): void;
  /** Stops accepting and drops every open connection (keep-alive ones would otherwise hold close() forever). */
  close(): Promise<void>;
};

/** Turns a bind failure into a message naming the appliance and the port. */
export function describeListenError(error: unknown, name: string, address: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE") {
    return new LaunchError(`Port ${port} on ${address} (appliance ${name}) is already in use: stop whatever holds it, or move the fleet with BNG_PORT_BASE`);
  }
  if (code === "EACCES") return new LaunchError(`Not allowed to listen on ${address}:${port} (appliance ${name})`);
  if (code === "EADDRNOTAVAIL") return new LaunchError(`Address ${address} (appliance ${name}) is not an address of this machine`);
  return error as Error;
}

/** Binds address:port and releases it at once, so a busy port is reported before the slow build (BNG_HTTP=1, where workerd binds the port itself). */
export async function assertPortFree(name: string, address: string, port: number): Promise<void> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(describeListenError(error, name, address, port)));
    server.listen({ host: address, port, exclusive: true }, () => server.close(() => resolve()));
  });
}

/** Starts a TLS server on the appliance's public port; connections that arrive before setTarget wait for it. */
export async function listenTls(options: { name: string; address: string; port: number; key: string; cert: string }): Promise<TlsFrontend> {
  const { name, address, port } = options;
  let resolveTarget!: (target: { host: string; port: number }) => void;
  const target = new Promise<{ host: string; port: number }>((resolve) => (resolveTarget = resolve));
  const open = new Set<net.Socket>();

  const server = tls.createServer({ key: options.key, cert: options.cert, ALPNProtocols: ["http/1.1"] }, (client) => {
    open.add(client);
    client.setNoDelay(true);
    client.on("close", () => open.delete(client));
    // Until the upstream exists, a client error just ends this connection.
    client.on("error", () => client.destroy());
    void target.then(({ host, port: upstreamPort }) => {
      if (client.destroyed) return;
      const upstream = net.connect({ host, port: upstreamPort, noDelay: true });
      open.add(upstream);
      upstream.on("close", () => open.delete(upstream));
      // pipe() carries a clean end (FIN) across after flushing; an error or an
      // abrupt close on either side tears down both, so no half-dead pair lingers.
      client.pipe(upstream);
      upstream.pipe(client);
      const teardown = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("error", teardown);
      upstream.on("error", teardown);
      client.on("close", () => upstream.end());
      upstream.on("close", () => client.end());
    });
  });
  // A client that rejects the self-signed certificate aborts the handshake;
  // that is expected and not worth a log line.
  server.on("tlsClientError", () => {});

  // The port also takes the ACME CA's plain-HTTP challenge request (scripts/acme-http.ts).
  const front = acceptAcmeHttp(server, target, (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    front.once("error", (error) => reject(describeListenError(error, name, address, port)));
    front.listen({ host: address, port, exclusive: true }, () => resolve());
  });

  return {
    setTarget(host, upstreamPort) {
      resolveTarget({ host, port: upstreamPort });
    },
    useCertificate(key, cert) {
      server.setSecureContext({ key, cert });
    },
    close() {
      return new Promise<void>((resolve) => {
        front.close(() => resolve());
        for (const socket of open) socket.destroy();
      });
    },
  };
}
