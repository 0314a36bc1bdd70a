/**
 * The appliances' public sockets, served by workerd itself (issue #28: no
 * Node relay on the request path). Miniflare writes workerd's configuration
 * as a Cap'n Proto message and offers only plain-HTTP direct sockets whose
 * `request.cf` comes from a header (so a client could claim any address);
 * workerd itself can do what the listeners did: terminate TLS with a keypair,
 * add a header naming the appliance whatever a client sent under that name
 * (`injectRequestHeaders`), and, with no cf header configured, put the
 * connection's peer address in `request.cf.clientIp`. So the launcher asks
 * Miniflare for one direct socket per appliance on its public address and
 * rewrites those sockets in the message on its way to workerd
 * (launcher/workerd.sh, named by MINIFLARE_WORKERD_PATH, runs launcher/workerd-config.ts).
 *
 * Only the fields touched here are declared, with the pointer slots and
 * sizes of workerd's schema (node_modules/workerd/workerd.capnp).
 */
import { readFileSync } from "node:fs";
import { CompositeList, ObjectSize, Struct, utils } from "capnp-es";
import { readConfig, writeConfig, type Config } from "./workerd-message.ts";
import { PEER_ADDRESS_HEADER } from "../src/http/client-address.ts";
import { APPLIANCE_HEADER, STREAM_HANDLE_HEADER } from "../src/fleet/listener.ts";
import { WIRING_HEADER } from "../src/fleet/wiring.ts";

/** What one public socket serves: the appliance it names, and the files of its TLS keypair (none: plain HTTP). */
export type PublicSocket = { address: string; appliance: string; tls?: { keyFile: string; certFile: string } };

class Header extends Struct {
  static override readonly _capnp = { displayName: "Header", id: "dc0394b5a6f3417e", size: new ObjectSize(0, 2) };
  set name(value: string) {
    utils.setText(0, value, this);
  }
  /** Left unset (null), workerd removes the header. */
  set value(value: string) {
    utils.setText(1, value, this);
  }
}

/**
 * HttpOptions: pointer 1 the cf blob header, 2 and 3 the headers injected into requests and responses, 4 the capnp
 * CONNECT host.
 */
class HttpOptions extends Struct {
  static override readonly _capnp = { displayName: "HttpOptions", id: "aa8dc6885da78f19", size: new ObjectSize(8, 5) };
  static readonly _Headers = CompositeList(Header);
}

class Keypair extends Struct {
  static override readonly _capnp = { displayName: "Keypair", id: "f546bf2d5d8bd13e", size: new ObjectSize(0, 2) };
  set privateKey(value: string) {
    utils.setText(0, value, this);
  }
  set certificateChain(value: string) {
    utils.setText(1, value, this);
  }
}

class TlsOptions extends Struct {
  static override readonly _capnp = { displayName: "TlsOptions", id: "aabb3c3778ac4311", size: new ObjectSize(8, 3) };
}

const HTTP = 0;
const HTTPS = 1;

/**
 * Rewrites the sockets of a workerd configuration that listen on a public
 * socket's address: no cf blob header (so workerd sets `cf.clientIp` from the
 * connection), the appliance's header and the launcher's wiring secret
 * (`wiring`, src/fleet/wiring.ts) injected, and TLS when it has a keypair.
 * Throws if a public socket is missing from the configuration.
 */
export function withPublicSockets(config: Uint8Array, publicSockets: PublicSocket[], wiring: string): Uint8Array {
  const { message, root } = readConfig(config);
  applyPublicSockets(root, publicSockets, wiring);
  return writeConfig(message);
}

/** withPublicSockets on a configuration already read (launcher/workerd-config.ts makes every rewrite on one read). */
export function applyPublicSockets(root: Config, publicSockets: PublicSocket[], wiring: string): void {
  const wanted = new Map(publicSockets.map((s) => [s.address, s]));
  const found = new Set<PublicSocket>();
  for (const socket of root.sockets) {
    const spec = wanted.get(socket.address);
    if (!spec) continue;
    found.add(spec);
    if (utils.getUint16(0, socket) !== HTTP)
      throw new Error(`workerd socket ${spec.address} is not plain HTTP as Miniflare writes it`);
    const options = utils.getStruct(2, HttpOptions, socket);
    // No cf blob header: workerd then fills `cf.clientIp` from the connection, and no client can send a cf object.
    // (The pointer alone is cleared: its text stays, unreferenced, as capnp allows.)
    utils.erasePointer(utils.getPointer(1, options));
    // Miniflare's CONNECT host opens a Cap'n Proto session into the runtime: never on a public socket.
    utils.erasePointer(utils.getPointer(4, options));
    // The appliance is the socket's, whatever a client sent; the relay's peer header is dropped (a direct
    // request's peer is cf.clientIp); the stream handle, for the relay alone, never leaves.
    const request = utils.initList(2, HttpOptions._Headers, 3, options);
    request.get(0).name = APPLIANCE_HEADER;
    request.get(0).value = spec.appliance;
    request.get(1).name = PEER_ADDRESS_HEADER;
    // Set over whatever a client sent: the Worker honours the appliance header only beside it.
    request.get(2).name = WIRING_HEADER;
    request.get(2).value = wiring;
    const response = utils.initList(3, HttpOptions._Headers, 1, options);
    response.get(0).name = STREAM_HANDLE_HEADER;
    if (spec.tls) {
      utils.setUint16(0, HTTPS, socket);
      const tls = utils.initStructAt(3, TlsOptions, socket);
      const keypair = utils.initStructAt(0, Keypair, tls);
      keypair.privateKey = readFileSync(spec.tls.keyFile, "utf8");
      keypair.certificateChain = readFileSync(spec.tls.certFile, "utf8");
    }
  }
  const missing = publicSockets.filter((s) => !found.has(s));
  if (missing.length > 0)
    throw new Error(`workerd's configuration has no socket on ${missing.map((s) => s.address).join(", ")}`);
}

/** The address workerd's configuration gives a direct socket (Miniflare's form: an IPv6 host in brackets). */
export function socketAddress(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}
