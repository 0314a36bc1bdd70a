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
 * (scripts/workerd.sh, named by MINIFLARE_WORKERD_PATH).
 *
 * Only the fields touched here are declared, with the pointer slots and
 * sizes of workerd's schema (node_modules/workerd/workerd.capnp).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { CompositeList, Message, ObjectSize, Struct, utils } from "capnp-es";
import { PEER_ADDRESS_HEADER } from "../src/http/client-address.ts";
import { APPLIANCE_HEADER, STREAM_HANDLE_HEADER } from "../src/fleet/listener.ts";
import { WIRING_HEADER } from "../src/fleet/wiring.ts";

/** What one public socket serves: the appliance it names, and the files of its TLS keypair (none: plain HTTP). */
export type PublicSocket = { address: string; appliance: string; tls?: { keyFile: string; certFile: string } };

class Header extends Struct {
  static override readonly _capnp = { displayName: "Header", id: "dc0394b5a6f3417e", size: new ObjectSize(0, 2) };
  set name(value: string) { utils.setText(0, value, this); }
  /** Left unset (null), workerd removes the header. */
  set value(value: string) { utils.setText(1, value, this); }
}

/** HttpOptions: pointer 1 the cf blob header, 2 and 3 the headers injected into requests and responses, 4 the capnp CONNECT host. */
class HttpOptions extends Struct {
  static override readonly _capnp = { displayName: "HttpOptions", id: "aa8dc6885da78f19", size: new ObjectSize(8, 5) };
  static readonly _Headers = CompositeList(Header);
}

class Keypair extends Struct {
  static override readonly _capnp = { displayName: "Keypair", id: "f546bf2d5d8bd13e", size: new ObjectSize(0, 2) };
  set privateKey(value: string) { utils.setText(0, value, this); }
  set certificateChain(value: string) { utils.setText(1, value, this); }
}

class TlsOptions extends Struct {
  static override readonly _capnp = { displayName: "TlsOptions", id: "aabb3c3778ac4311", size: new ObjectSize(8, 3) };
}

/** Socket: pointer 1 its address; a union at data offset 0 (0 http, 1 https) whose options sit at pointer 2, https's TLS at 3. */
class Socket extends Struct {
  static override readonly _capnp = { displayName: "Socket", id: "9a0eba45530ee79f", size: new ObjectSize(8, 5) };
  get address(): string { return utils.getText(1, this); }
}

class Config extends Struct {
  static override readonly _capnp = { displayName: "Config", id: "8794486c76aaa7d6", size: new ObjectSize(8, 6) };
  static readonly _Sockets = CompositeList(Socket);
  get sockets() { return utils.getList(1, Config._Sockets, this); }
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
  // Read as the one segment Miniflare writes, after its 8-byte frame: what is added then grows that segment. As a
  // framed message, every list added would take a segment of its own, and workerd refuses a message of more than
  // 512 segments (about 250 public sockets in one process).
  const frame = new DataView(config.buffer, config.byteOffset, 8);
  if (frame.getUint32(0, true) !== 0) throw new Error("workerd's configuration is not the single segment Miniflare writes");
  const message = new Message(config.subarray(8, 8 + frame.getUint32(4, true) * 8), false, true);
  const root = message.getRoot(Config);
  const wanted = new Map(publicSockets.map((s) => [s.address, s]));
  const found = new Set<PublicSocket>();
  for (const socket of root.sockets) {
    const spec = wanted.get(socket.address);
    if (!spec) continue;
    found.add(spec);
    if (utils.getUint16(0, socket) !== HTTP) throw new Error(`workerd socket ${spec.address} is not plain HTTP as Miniflare writes it`);
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
  if (missing.length > 0) throw new Error(`workerd's configuration has no socket on ${missing.map((s) => s.address).join(", ")}`);
  return new Uint8Array(message.toArrayBuffer());
}

/** The address workerd's configuration gives a direct socket (Miniflare's form: an IPv6 host in brackets). */
export function socketAddress(host: string, port: number): string {
  return `${host.includes(":") ? `[${host}]` : host}:${port}`;
}

// Run by scripts/workerd.sh: the configuration on stdin, rewritten to stdout, the sockets from BNG_PUBLIC_SOCKETS
// (JSON: the keys stay in their files, out of workerd's environment) and the wiring secret from BNG_WIRING_SECRET
// (which workerd.sh removes from workerd's environment, as it does these).
if (import.meta.main) {
  const sockets = JSON.parse(process.env.BNG_PUBLIC_SOCKETS!) as PublicSocket[];
  writeFileSync(1, withPublicSockets(readFileSync(0), sockets, process.env.BNG_WIRING_SECRET!));
}
