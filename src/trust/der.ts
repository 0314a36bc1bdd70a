/**
 * A minimal DER reader and writer (ITU-T X.690 §8 and §10): enough to walk an
 * X.509 certificate and a private key. Definite lengths only, low tag
 * numbers only, every length checked against the buffer; anything else
 * throws `DerError`.
 */

export class DerError extends Error {}

/** One tag-length-value. `content` is a view into the input. */
export interface Tlv {
  /** The identifier octet: class, constructed bit and tag number. */
  tag: number;
  content: Uint8Array;
  /** The whole encoding, identifier and length included. */
  raw: Uint8Array;
}

export const TAG = {
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  utf8String: 0x0c,
  printableString: 0x13,
  teletexString: 0x14,
  ia5String: 0x16,
  utcTime: 0x17,
  generalizedTime: 0x18,
  universalString: 0x1c,
  bmpString: 0x1e,
  sequence: 0x30,
  set: 0x31,
} as const;

/** Reads the TLV at `offset`. */
export function readTlv(bytes: Uint8Array, offset = 0): Tlv {
  if (offset + 2 > bytes.length) throw new DerError("truncated DER");
  const tag = bytes[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError("high tag numbers are not used in certificates");
  let length = bytes[offset + 1]!;
  let header = 2;
  if (length & 0x80) {
    const count = length & 0x7f;
    if (count === 0 || count > 4) throw new DerError("indefinite or oversized DER length");
    if (offset + 2 + count > bytes.length) throw new DerError("truncated DER length");
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[offset + 2 + i]!;
    header += count;
  }
  const end = offset + header + length;
  if (end > bytes.length) throw new DerError("DER length runs past the end");
  return { tag, content: bytes.subarray(offset + header, end), raw: bytes.subarray(offset, end) };
}

/** Reads one TLV that must fill `bytes` exactly. */
export function readOnly(bytes: Uint8Array): Tlv {
  const tlv = readTlv(bytes);
  if (tlv.raw.length !== bytes.length) throw new DerError("trailing bytes after DER value");
  return tlv;
}

/** The TLVs inside a constructed value. */
export function children(tlv: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let offset = 0; offset < tlv.content.length; ) {
    const child = readTlv(tlv.content, offset);
    out.push(child);
    offset += child.raw.length;
  }
  return out;
}

/** Checks a TLV's tag. */
export function expectTag(tlv: Tlv | undefined, tag: number, what: string): Tlv {
  if (!tlv || tlv.tag !== tag) throw new DerError(`expected ${what}`);
  return tlv;
}

/** Dotted form of an OBJECT IDENTIFIER's content. */
export function oidText(content: Uint8Array): string {
  if (content.length === 0) throw new DerError("empty OID");
  const arcs: number[] = [];
  let value = 0;
  for (const byte of content) {
    value = value * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      arcs.push(value);
      value = 0;
    }
  }
  const first = arcs.shift()!;
  const head = first < 80 ? [Math.floor(first / 40), first % 40] : [2, first - 80];
  return [...head, ...arcs].join(".");
}

/** Encodes a dotted OID as a TLV. */
export function oidTlv(dotted: string): Uint8Array {
  const arcs = dotted.split(".").map(Number);
  const body: number[] = [];
  const push = (n: number) => {
    const groups = [n & 0x7f];
    for (n = Math.floor(n / 128); n > 0; n = Math.floor(n / 128)) groups.unshift((n & 0x7f) | 0x80);
    body.push(...groups);
  };
  push(arcs[0]! * 40 + arcs[1]!);
  arcs.slice(2).forEach(push);
  return tlv(TAG.oid, Uint8Array.from(body));
}

/** Encodes a TLV. */
export function tlv(tag: number, ...parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const length = parts.reduce((n, p) => n + p.length, 0);
  const lengthBytes: number[] = [];
  if (length < 0x80) lengthBytes.push(length);
  else {
    for (let n = length; n > 0; n = Math.floor(n / 256)) lengthBytes.unshift(n & 0xff);
    lengthBytes.unshift(0x80 | lengthBytes.length);
  }
  const out = new Uint8Array(1 + lengthBytes.length + length);
  out[0] = tag;
  out.set(lengthBytes, 1);
  let offset = 1 + lengthBytes.length;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
