/**
 * A RADIUS packet as bytes and back (RFC 2865 §3 and §5): the header (code, identifier, length, 16-octet
 * authenticator) and its attributes in order, Vendor-Specific ones (type 26, RFC 2865 §5.26) split into the
 * vendor id and the vendor's own type-length-value. Malformed input is a tagged refusal, never an exception:
 * over TCP a malformed packet closes the connection (RFC 6613 §2.6.4), so the reader must be told.
 */
import { ATTRIBUTE, HEADER, MAX_PACKET } from "./dictionary.ts";

/** One attribute: a standard one by type, or a vendor's (inside a Vendor-Specific attribute). */
export type Attribute =
  | { type: number; value: Uint8Array }
  | { type: 26; vendorId: number; vendorType: number; value: Uint8Array };

export interface Packet {
  code: number;
  identifier: number;
  /** 16 octets. */
  authenticator: Uint8Array;
  attributes: Attribute[];
}

export type Decoded = { ok: true; packet: Packet } | { ok: false; reason: string };

const VSA = ATTRIBUTE["Vendor-Specific"].type;

const isVendor = (a: Attribute): a is Extract<Attribute, { vendorId: number }> => "vendorId" in a;

/** The bytes of a packet; throws RangeError when an attribute or the packet is too long to be written. */
export function encodePacket(packet: Packet): Uint8Array {
  let length = HEADER;
  for (const a of packet.attributes) length += attributeLength(a);
  if (length > MAX_PACKET)
    throw new RangeError(`a RADIUS packet holds ${MAX_PACKET} octets at most (RFC 2865 §3), not ${length}`);
  const out = new Uint8Array(length);
  out[0] = packet.code;
  out[1] = packet.identifier & 0xff;
  out[2] = length >>> 8;
  out[3] = length & 0xff;
  if (packet.authenticator.length !== 16) throw new RangeError("the authenticator is 16 octets");
  out.set(packet.authenticator, 4);
  let at = HEADER;
  for (const a of packet.attributes) {
    const size = attributeLength(a);
    out[at] = a.type;
    out[at + 1] = size;
    if (isVendor(a)) {
      new DataView(out.buffer).setUint32(at + 2, a.vendorId);
      out[at + 6] = a.vendorType;
      out[at + 7] = a.value.length + 2;
      out.set(a.value, at + 8);
    } else {
      out.set(a.value, at + 2);
    }
    at += size;
  }
  return out;
}

function attributeLength(a: Attribute): number {
  // A standard attribute's value is 1-253 octets; a vendor's sits behind the vendor id and its own type and length.
  const size = (isVendor(a) ? 8 : 2) + a.value.length;
  if (size > 255)
    throw new RangeError(`attribute ${a.type} is ${size} octets; an attribute holds 255 at most (RFC 2865 §5)`);
  return size;
}

/** The Length field of a packet's first four octets (how many octets to read off a stream, RFC 6613 §2.6.1). */
export function packetLength(header: Uint8Array): number {
  return ((header[2] ?? 0) << 8) | (header[3] ?? 0);
}

/** Reads one packet; its Length field must equal the bytes given. */
export function decodePacket(bytes: Uint8Array): Decoded {
  if (bytes.length < HEADER) return { ok: false, reason: `shorter than the ${HEADER}-octet header` };
  const length = packetLength(bytes);
  if (length < HEADER || length > MAX_PACKET)
    return { ok: false, reason: `Length ${length} is outside ${HEADER}-${MAX_PACKET}` };
  if (length !== bytes.length) return { ok: false, reason: `Length ${length} but ${bytes.length} octets` };
  const attributes: Attribute[] = [];
  let at = HEADER;
  while (at < length) {
    if (at + 2 > length) return { ok: false, reason: `an attribute header is cut at octet ${at}` };
    const type = bytes[at]!;
    const size = bytes[at + 1]!;
    if (size < 2 || at + size > length)
      return { ok: false, reason: `attribute ${type} at octet ${at} has length ${size}` };
    const value = bytes.slice(at + 2, at + size);
    attributes.push(type === VSA ? (vendorAttribute(value) ?? { type, value }) : { type, value });
    at += size;
  }
  return {
    ok: true,
    packet: { code: bytes[0]!, identifier: bytes[1]!, authenticator: bytes.slice(4, 20), attributes },
  };
}

/** A Vendor-Specific value as the RFC 2865 §5.26 suggested format; null when it is not in that format (kept whole). */
function vendorAttribute(value: Uint8Array): Attribute | null {
  if (value.length < 6) return null;
  const vendorLength = value[5]!;
  if (vendorLength < 2 || vendorLength !== value.length - 4) return null;
  const vendorId = new DataView(value.buffer, value.byteOffset).getUint32(0);
  return { type: VSA, vendorId, vendorType: value[4]!, value: value.slice(6) };
}

/** The first standard attribute of a type, or undefined. */
export function attributeOf(packet: Packet, type: number): Uint8Array | undefined {
  return packet.attributes.find((a) => a.type === type && !isVendor(a))?.value;
}

/** The first vendor attribute of a vendor and type, or undefined. */
export function vendorAttributeOf(packet: Packet, vendorId: number, vendorType: number): Uint8Array | undefined {
  return packet.attributes.find((a) => isVendor(a) && a.vendorId === vendorId && a.vendorType === vendorType)?.value;
}
