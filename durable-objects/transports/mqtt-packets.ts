/**
 * The MQTT 3.1.1 control packets a publishing client needs (OASIS standard,
 * §2-3): CONNECT, PUBLISH at QoS 1, DISCONNECT written; CONNACK and PUBACK
 * read. Small enough to write by hand: the npm packet libraries lean on Node
 * streams and Buffer, which workerd offers only behind a compatibility flag.
 */

/** §2.2.3: the remaining length, 7 bits per byte, least significant first, at most four bytes. */
export function remainingLength(length: number): Uint8Array {
  if (!Number.isInteger(length) || length < 0 || length > 268_435_455)
    throw new RangeError(`remaining length ${length} out of range`);
  const bytes: number[] = [];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Uint8Array.from(bytes);
}

/** §1.5.3: a UTF-8 string behind its two-byte length. */
export function utf8String(text: string): Uint8Array {
  return lengthPrefixed(new TextEncoder().encode(text));
}

function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  if (bytes.length > 0xffff) throw new RangeError("string longer than 65535 bytes");
  return concat([Uint8Array.of(bytes.length >> 8, bytes.length & 0xff), bytes]);
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const packet = (firstByte: number, body: Uint8Array[]) => {
  const rest = concat(body);
  return concat([Uint8Array.of(firstByte), remainingLength(rest.length), rest]);
};

export interface ConnectOptions {
  clientId: string;
  username: string | null;
  password: string | null;
  keepAliveSeconds: number;
}

/** §3.1: CONNECT with a clean session; a password only with a username (§3.1.2.9). */
export function connectPacket(o: ConnectOptions): Uint8Array {
  const password = o.username !== null && o.password !== null;
  const flags = 0x02 | (o.username !== null ? 0x80 : 0) | (password ? 0x40 : 0);
  return packet(0x10, [
    utf8String("MQTT"),
    Uint8Array.of(4, flags, o.keepAliveSeconds >> 8, o.keepAliveSeconds & 0xff),
    utf8String(o.clientId),
    ...(o.username !== null ? [utf8String(o.username)] : []),
    ...(password ? [utf8String(o.password!)] : []),
  ]);
}

/** §3.3: PUBLISH at QoS 1, not retained, not a duplicate. */
export function publishPacket(topic: string, packetId: number, payload: Uint8Array): Uint8Array {
  return packet(0x32, [utf8String(topic), Uint8Array.of(packetId >> 8, packetId & 0xff), payload]);
}

/** §3.14. */
export const DISCONNECT = Uint8Array.of(0xe0, 0x00);

/** §3.2.2.3: CONNACK's return codes other than 0 (accepted). */
export const CONNACK_REFUSALS: Record<number, string> = {
  1: "unacceptable protocol version",
  2: "client identifier rejected",
  3: "server unavailable",
  4: "bad user name or password",
  5: "not authorized",
};

/** A packet as read: its type (the high nibble of the first byte), flags and body. */
export interface Packet {
  type: number;
  flags: number;
  body: Uint8Array;
}

/**
 * The longest packet read: a publisher is sent acknowledgements of a few bytes, never the 256 MiB the format allows.
 */
export const MAX_PACKET_READ = 65_536;

/** Reads one packet with `read(n)` giving exactly n bytes. */
export async function readPacket(read: (count: number) => Promise<Uint8Array>): Promise<Packet> {
  const [first] = await read(1);
  let length = 0;
  for (let i = 0, multiplier = 1; ; i++, multiplier *= 128) {
    if (i === 4) throw new Error("malformed remaining length");
    const [byte] = await read(1);
    length += (byte! & 0x7f) * multiplier;
    if ((byte! & 0x80) === 0) break;
  }
  if (length > MAX_PACKET_READ) throw new Error(`a packet of ${length} bytes from the broker`);
  return { type: first! >> 4, flags: first! & 0x0f, body: length > 0 ? await read(length) : new Uint8Array(0) };
}
