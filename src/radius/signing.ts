/**
 * What the shared secret protects in a RADIUS packet, all of it MD5 as the RFCs fix it: the Access-Request's
 * random Request Authenticator (RFC 2865 §3), the Accounting-Request's and a Disconnect/CoA-Request's computed
 * one (RFC 2866 §3, RFC 5176 §2.3), a response's Response Authenticator (RFC 2865 §3), Message-Authenticator
 * (HMAC-MD5, RFC 3579 §3.2), the hidden User-Password (RFC 2865 §5.2) and CHAP-Password (RFC 2865 §5.3,
 * RFC 1994). MD5 comes from `node:crypto`, which Node and workerd (nodejs_compat) both provide; WebCrypto
 * has no MD5. Comparisons of received values are constant-time.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { ATTRIBUTE, CODE, HEADER } from "./dictionary.ts";
import { encodePacket, type Packet } from "./packet.ts";

const encoder = new TextEncoder();
const MESSAGE_AUTHENTICATOR = ATTRIBUTE["Message-Authenticator"].type;
const ZERO16 = new Uint8Array(16);

/** MD5 of the concatenated parts. */
export function md5(...parts: Uint8Array[]): Uint8Array {
  const hash = createHash("md5");
  for (const part of parts) hash.update(part);
  return new Uint8Array(hash.digest());
}

/** 16 random octets: an Access-Request's Request Authenticator, or a CHAP challenge. */
export function randomAuthenticator(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(16));
}

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);

/** The packet's bytes with a Message-Authenticator (when it has one) set to HMAC-MD5 over it, its own value zero. */
function withMessageAuthenticator(bytes: Uint8Array, secret: Uint8Array): Uint8Array {
  const at = messageAuthenticatorAt(bytes);
  if (at < 0) return bytes;
  bytes.fill(0, at, at + 16);
  bytes.set(createHmac("md5", secret).update(bytes).digest(), at);
  return bytes;
}

/** Where the first Message-Authenticator's value starts in a packet's bytes, or -1. */
function messageAuthenticatorAt(bytes: Uint8Array): number {
  for (let at = HEADER; at + 2 <= bytes.length; at += Math.max(2, bytes[at + 1]!)) {
    if (bytes[at] === MESSAGE_AUTHENTICATOR && bytes[at + 1] === 18) return at + 2;
  }
  return -1;
}

/**
 * A request's bytes, signed: an Access-Request (or Status-Server) keeps its random authenticator and gets its
 * Message-Authenticator; an Accounting-, Disconnect- or CoA-Request's authenticator is MD5 over the packet with
 * sixteen zero octets in its place, then the secret (a Message-Authenticator, if any, computed first over the
 * zeroed form, RFC 3579 §3.2).
 */
export function signRequest(packet: Packet, secret: string): Uint8Array {
  const key = encoder.encode(secret);
  const random = packet.code === CODE["Access-Request"] || packet.code === CODE["Status-Server"];
  const bytes = encodePacket(random ? packet : { ...packet, authenticator: ZERO16 });
  withMessageAuthenticator(bytes, key);
  if (!random) bytes.set(md5(bytes, key), 4);
  return bytes;
}

/**
 * A response's bytes, signed for the request it answers (RFC 2865 §3): the Message-Authenticator (if any) is
 * HMAC-MD5 over the packet carrying the request's authenticator, then the Response Authenticator is
 * MD5(Code, Identifier, Length, Request Authenticator, Attributes, secret).
 */
export function signResponse(packet: Packet, requestAuthenticator: Uint8Array, secret: string): Uint8Array {
  const key = encoder.encode(secret);
  const bytes = encodePacket({ ...packet, authenticator: requestAuthenticator });
  withMessageAuthenticator(bytes, key);
  bytes.set(md5(bytes, key), 4);
  return bytes;
}

/** What a received packet's signature says: good, or which part did not verify. */
export type Verdict = { ok: true } | { ok: false; reason: "authenticator" | "message-authenticator" };

/**
 * Checks a response's Response Authenticator and (when present, or when `requireMessageAuthenticator`) its
 * Message-Authenticator.
 */
export function verifyResponse(
  bytes: Uint8Array,
  requestAuthenticator: Uint8Array,
  secret: string,
  requireMessageAuthenticator = false,
): Verdict {
  const key = encoder.encode(secret);
  const copy = bytes.slice();
  copy.set(requestAuthenticator, 4);
  const at = messageAuthenticatorAt(copy);
  if (at >= 0 || requireMessageAuthenticator) {
    if (at < 0) return { ok: false, reason: "message-authenticator" };
    const received = copy.slice(at, at + 16);
    copy.fill(0, at, at + 16);
    const expected = createHmac("md5", key).update(copy).digest();
    if (!same(received, expected)) return { ok: false, reason: "message-authenticator" };
    copy.set(received, at);
  }
  return same(bytes.subarray(4, 20), md5(copy, key)) ? { ok: true } : { ok: false, reason: "authenticator" };
}

/**
 * Checks a request whose authenticator is computed (Accounting-, Disconnect-, CoA-Request), and its
 * Message-Authenticator if present.
 */
export function verifyComputedRequest(bytes: Uint8Array, secret: string): Verdict {
  const key = encoder.encode(secret);
  const copy = bytes.slice();
  copy.fill(0, 4, 20);
  const at = messageAuthenticatorAt(copy);
  if (at >= 0) {
    const received = copy.slice(at, at + 16);
    copy.fill(0, at, at + 16);
    if (!same(received, createHmac("md5", key).update(copy).digest()))
      return { ok: false, reason: "message-authenticator" };
    copy.set(received, at);
  }
  return same(bytes.subarray(4, 20), md5(copy, key)) ? { ok: true } : { ok: false, reason: "authenticator" };
}

/**
 * User-Password hidden as RFC 2865 §5.2 says: padded with zeros to a multiple of 16 (128 octets at most),
 * each block XORed with MD5(secret + the previous ciphertext block, the Request Authenticator first).
 */
export function hidePassword(password: string, requestAuthenticator: Uint8Array, secret: string): Uint8Array {
  const plain = encoder.encode(password);
  if (plain.length > 128) throw new RangeError("a User-Password is 128 octets at most (RFC 2865 §5.2)");
  const out = new Uint8Array(Math.max(16, Math.ceil(plain.length / 16) * 16));
  out.set(plain);
  const key = encoder.encode(secret);
  let previous = requestAuthenticator;
  for (let block = 0; block < out.length; block += 16) {
    const mask = md5(key, previous);
    for (let i = 0; i < 16; i++) out[block + i]! ^= mask[i]!;
    previous = out.slice(block, block + 16);
  }
  return out;
}

/** A hidden User-Password read back (the server's side of §5.2), trailing zero padding removed. */
export function revealPassword(hidden: Uint8Array, requestAuthenticator: Uint8Array, secret: string): string {
  const key = encoder.encode(secret);
  const out = new Uint8Array(hidden.length);
  let previous = requestAuthenticator;
  for (let block = 0; block < hidden.length; block += 16) {
    const mask = md5(key, previous);
    for (let i = 0; i < 16 && block + i < hidden.length; i++) out[block + i] = hidden[block + i]! ^ mask[i]!;
    previous = hidden.slice(block, block + 16);
  }
  let end = out.length;
  while (end > 0 && out[end - 1] === 0) end--;
  return new TextDecoder().decode(out.subarray(0, end));
}

/** CHAP-Password (RFC 2865 §5.3): the CHAP identifier, then MD5(identifier, password, challenge) (RFC 1994 §4.1). */
export function chapPassword(chapId: number, password: string, challenge: Uint8Array): Uint8Array {
  const out = new Uint8Array(17);
  out[0] = chapId & 0xff;
  out.set(md5(Uint8Array.of(chapId & 0xff), encoder.encode(password), challenge), 1);
  return out;
}
