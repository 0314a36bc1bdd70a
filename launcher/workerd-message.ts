/**
 * workerd's configuration as Miniflare writes it (a Cap'n Proto message, read by workerd on its stdin), for the
 * launcher's rewrites on its way there (launcher/workerd-config.ts): the appliances' public sockets
 * (public-sockets.ts) and the modules' sources (module-sources.ts). Only the fields touched are declared, with the
 * pointer slots and sizes of workerd's schema (node_modules/workerd/workerd.capnp).
 */
import { CompositeList, Message, ObjectSize, Struct, utils } from "capnp-es";

/**
 * Worker.Module: pointer 0 its name, pointer 1 its content, whose kind is the union at data offset 0
 * (module-sources.ts).
 */
export class Module extends Struct {
  static override readonly _capnp = { displayName: "Module", id: "d9d87a63770a12f3", size: new ObjectSize(8, 3) };
  get name(): string {
    return utils.getText(0, this);
  }
}

/** Worker: a union at data offset 0 whose member 0, `modules`, is the list at pointer 0. */
export class Worker extends Struct {
  static override readonly _capnp = { displayName: "Worker", id: "acfa77e88fd97d1c", size: new ObjectSize(8, 13) };
  static readonly _Modules = CompositeList(Module);
  get modules() {
    return utils.getUint16(0, this) === 0 ? utils.getList(0, Worker._Modules, this) : null;
  }
}

/** Service: pointer 0 its name; a union at data offset 0 whose member 1, `worker`, is the struct at pointer 1. */
export class Service extends Struct {
  static override readonly _capnp = { displayName: "Service", id: "e5c88e8bb7bcb6b9", size: new ObjectSize(8, 2) };
  get name(): string {
    return utils.getText(0, this);
  }
  get worker(): Worker | null {
    return utils.getUint16(0, this) === 1 ? utils.getStruct(1, Worker, this) : null;
  }
}

/**
 * Socket: pointer 1 its address; a union at data offset 0 (0 http, 1 https) whose options sit at pointer 2, https's TLS
 * at 3.
 */
export class Socket extends Struct {
  static override readonly _capnp = { displayName: "Socket", id: "9a0eba45530ee79f", size: new ObjectSize(8, 5) };
  get address(): string {
    return utils.getText(1, this);
  }
}

export class Config extends Struct {
  static override readonly _capnp = { displayName: "Config", id: "8794486c76aaa7d6", size: new ObjectSize(8, 6) };
  static readonly _Services = CompositeList(Service);
  static readonly _Sockets = CompositeList(Socket);
  get services() {
    return utils.getList(0, Config._Services, this);
  }
  get sockets() {
    return utils.getList(1, Config._Sockets, this);
  }
}

/**
 * Reads Miniflare's message as the one segment it writes, after its 8-byte frame: what is added then grows that
 * segment. As a framed message, every list added would take a segment of its own, and workerd refuses a message of
 * more than 512 segments (about 250 public sockets in one process).
 */
export function readConfig(config: Uint8Array): { message: Message; root: Config } {
  const frame = new DataView(config.buffer, config.byteOffset, 8);
  if (frame.getUint32(0, true) !== 0)
    throw new Error("workerd's configuration is not the single segment Miniflare writes");
  const message = new Message(config.subarray(8, 8 + frame.getUint32(4, true) * 8), false, true);
  return { message, root: message.getRoot(Config) };
}

/** The message as workerd reads it. */
export function writeConfig(message: Message): Uint8Array {
  return new Uint8Array(message.toArrayBuffer());
}
