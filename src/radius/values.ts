/**
 * Attribute values as octets and back, by data type (RFC 8044): text is UTF-8, integer and date (seconds since
 * 1970) are 32-bit unsigned big-endian, ipaddr four octets, ipv6addr sixteen, ipv6prefix a reserved octet, the
 * prefix length and the prefix's significant octets (RFC 3162 §2.3).
 */
import { ATTRIBUTE, type AttributeName } from "./dictionary.ts";
import type { Attribute } from "./packet.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export const text = (value: string): Uint8Array => encoder.encode(value);
export const readText = (value: Uint8Array): string => decoder.decode(value);

/** A 32-bit unsigned integer (also a date: seconds since 1970-01-01). */
export function integer(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new RangeError(`${value} is not a 32-bit unsigned integer`);
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value);
  return out;
}

/** A 32-bit integer value, or null when the value is not four octets. */
export function readInteger(value: Uint8Array): number | null {
  return value.length === 4 ? new DataView(value.buffer, value.byteOffset, 4).getUint32(0) : null;
}

/** Dotted-quad IPv4 to four octets. */
export function ipv4(address: string): Uint8Array {
  const parts = address.split(".").map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
    throw new RangeError(`'${address}' is not an IPv4 address`);
  return Uint8Array.from(parts);
}

/** Four octets to dotted-quad IPv4, or null. */
export function readIpv4(value: Uint8Array): string | null {
  return value.length === 4 ? Array.from(value).join(".") : null;
}

/** The sixteen octets of an IPv6 address in any RFC 4291 text form (no zone, no embedded IPv4). */
export function ipv6(address: string): Uint8Array {
  const [head, tail, extra] = address.split("::");
  if (extra !== undefined) throw new RangeError(`'${address}' is not an IPv6 address`);
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groups(head);
  const right = groups(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) throw new RangeError(`'${address}' is not an IPv6 address`);
  const all = [...left, ...new Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  const out = new Uint8Array(16);
  all.forEach((group, i) => {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) throw new RangeError(`'${address}' is not an IPv6 address`);
    const n = parseInt(group, 16);
    out[i * 2] = n >>> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  return out;
}

/** An IPv6 prefix (`2001:db8::/56`) as RFC 3162 §2.3 writes it: 0, the length, then only the octets it covers. */
export function ipv6Prefix(prefix: string): Uint8Array {
  const [address, bits] = prefix.split("/");
  const length = Number(bits);
  if (address === undefined || !Number.isInteger(length) || length < 0 || length > 128)
    throw new RangeError(`'${prefix}' is not an IPv6 prefix`);
  const octets = ipv6(address).slice(0, Math.ceil(length / 8));
  const out = new Uint8Array(2 + octets.length);
  out[1] = length;
  out.set(octets, 2);
  return out;
}

/** A standard attribute by its dictionary name. */
export function attribute(name: AttributeName, value: Uint8Array): Attribute {
  return { type: ATTRIBUTE[name].type, value };
}
