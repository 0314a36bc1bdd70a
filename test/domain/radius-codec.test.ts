/**
 * The RADIUS codec (src/radius/) against the RFCs' own packets, in plain Node. RFC 2865 §7.1 and §7.2 print
 * whole exchanges with the shared secret `xyzzy5461`: the bytes below are copied from there, and every expected
 * value is the RFC's (the password, the attributes, the authenticators), never computed by the code under test.
 * The codec is also checked against FreeRADIUS itself (radius-freeradius.test.ts).
 */
import { describe, expect, it } from "vitest";
import { decodePacket, encodePacket, type Packet } from "../../src/radius/packet.ts";
import { CODE, RATE_PLAN_VSA } from "../../src/radius/dictionary.ts";
import {
  hidePassword,
  revealPassword,
  signRequest,
  signResponse,
  verifyComputedRequest,
  verifyResponse,
} from "../../src/radius/signing.ts";
import { acceptedAttributes, sessionAccountingRequest } from "../../src/radius/messages.ts";
import { integer, ipv6Prefix, readInteger, readText } from "../../src/radius/values.ts";

const hex = (text: string) =>
  Uint8Array.from(
    text
      .trim()
      .split(/\s+/)
      .map((b) => parseInt(b, 16)),
  );
const SECRET = "xyzzy5461";

/** RFC 2865 §7.1: nemo's Access-Request (User-Password "arctangent"), and its Access-Accept. */
const NEMO_REQUEST = hex(`
  01 00 00 38 0f 40 3f 94 73 97 80 57 bd 83 d5 cb
  98 f4 22 7a 01 06 6e 65 6d 6f 02 12 0d be 70 8d
  93 d4 13 ce 31 96 e4 3f 78 2a 0a ee 04 06 c0 a8
  01 10 05 06 00 00 00 03`);
const NEMO_ACCEPT = hex(`
  02 00 00 26 86 fe 22 0e 76 24 ba 2a 10 05 f6 bf
  9b 55 e0 b2 06 06 00 00 00 01 0f 06 00 00 00 00
  0e 06 c0 a8 01 03`);
/** RFC 2865 §7.2: flopsy's CHAP Access-Request, and the Access-Accept (Framed-IP-Address 255.255.255.254, MTU 1500). */
const FLOPSY_REQUEST = hex(`
  01 01 00 47 2a ee 86 f0 8d 0d 55 96 9c a5 97 8e
  0d 33 67 a2 01 08 66 6c 6f 70 73 79 03 13 16 e9
  75 57 c3 16 18 58 95 f2 93 ff 63 44 07 72 75 04
  06 c0 a8 01 10 05 06 00 00 00 14 06 06 00 00 00
  02 07 06 00 00 00 01`);
const FLOPSY_ACCEPT = hex(`
  02 01 00 38 15 ef bc 7d ab 26 cf a3 dc 34 d9 c0
  3c 86 01 a4 06 06 00 00 00 02 07 06 00 00 00 01
  08 06 ff ff ff fe 0a 06 00 00 00 02 0d 06 00 00
  00 01 0c 06 00 00 05 dc`);

const decoded = (bytes: Uint8Array): Packet => {
  const result = decodePacket(bytes);
  if (!result.ok) throw new Error(result.reason);
  return result.packet;
};

describe("packets (RFC 2865 §3, §7)", () => {
  it("reads nemo's Access-Request: code 1, id 0, User-Name, NAS-IP-Address 192.168.1.16, NAS-Port 3", () => {
    const p = decoded(NEMO_REQUEST);
    expect([p.code, p.identifier, p.attributes.map((a) => a.type)]).toEqual([1, 0, [1, 2, 4, 5]]);
    expect(readText(p.attributes[0]!.value)).toBe("nemo");
    expect(Array.from(p.attributes[2]!.value)).toEqual([192, 168, 1, 16]);
    expect(readInteger(p.attributes[3]!.value)).toBe(3);
  });

  it("writes the same bytes back", () => {
    expect(encodePacket(decoded(NEMO_REQUEST))).toEqual(NEMO_REQUEST);
    expect(encodePacket(decoded(FLOPSY_ACCEPT))).toEqual(FLOPSY_ACCEPT);
  });

  it("refuses a Length that disagrees with the octets, a short header and an attribute running past the end", () => {
    expect(decodePacket(NEMO_REQUEST.slice(0, 55))).toMatchObject({ ok: false });
    expect(decodePacket(NEMO_REQUEST.slice(0, 19))).toMatchObject({ ok: false });
    const bad = NEMO_REQUEST.slice();
    bad[21] = 60; // User-Name claims 60 octets
    expect(decodePacket(bad)).toMatchObject({ ok: false });
    const zero = NEMO_REQUEST.slice();
    zero[21] = 0;
    expect(decodePacket(zero)).toMatchObject({ ok: false });
  });

  it("refuses to write a packet over 4096 octets", () => {
    const big: Packet = {
      code: 4,
      identifier: 0,
      authenticator: new Uint8Array(16),
      attributes: Array.from({ length: 20 }, () => ({ type: 25, value: new Uint8Array(253) })),
    };
    expect(() => encodePacket(big)).toThrow(/4096/);
  });

  it("splits a Vendor-Specific attribute into vendor, type and value (RFC 2865 §5.26)", () => {
    // A vendor length (7) that does not match the value (6 after the vendor id) is not the suggested format: kept
    // whole.
    const odd = hex("1a 0c 00 00 19 7f 0d 07 67 6f 6c 64");
    const bytes = new Uint8Array(20 + odd.length);
    bytes.set([2, 7, 0, bytes.length], 0);
    bytes.set(odd, 20);
    const whole = decoded(bytes).attributes[0]!;
    expect("vendorId" in whole).toBe(false);
    const good = hex("1a 0c 00 00 19 7f 0d 06 67 6f 6c 64");
    const ok = new Uint8Array(20 + good.length);
    ok.set([2, 7, 0, ok.length], 0);
    ok.set(good, 20);
    expect(decoded(ok).attributes[0]).toEqual({
      type: 26,
      vendorId: RATE_PLAN_VSA.vendorId,
      vendorType: RATE_PLAN_VSA.vendorType,
      value: Uint8Array.from([0x67, 0x6f, 0x6c, 0x64]),
    });
    expect(acceptedAttributes(decoded(ok)).plan).toBe("gold");
  });
});

describe("the shared secret (RFC 2865 §3, §5.2)", () => {
  const requestAuthenticator = NEMO_REQUEST.slice(4, 20);

  it("hides nemo's password 'arctangent' to the RFC's 16 octets, and reads them back", () => {
    const hidden = decoded(NEMO_REQUEST).attributes[1]!.value;
    expect(hidePassword("arctangent", requestAuthenticator, SECRET)).toEqual(hidden);
    expect(revealPassword(hidden, requestAuthenticator, SECRET)).toBe("arctangent");
  });

  it("hides a password over 16 octets block by block (each keyed by the previous ciphertext)", () => {
    const long = "correct horse battery staple";
    const hidden = hidePassword(long, requestAuthenticator, SECRET);
    expect(hidden.length).toBe(32);
    expect(revealPassword(hidden, requestAuthenticator, SECRET)).toBe(long);
    expect(hidden.slice(0, 16)).toEqual(hidePassword(long.slice(0, 16), requestAuthenticator, SECRET));
  });

  it("verifies the Access-Accepts' Response Authenticators, and refuses them under another secret", () => {
    expect(verifyResponse(NEMO_ACCEPT, requestAuthenticator, SECRET)).toEqual({ ok: true });
    expect(verifyResponse(FLOPSY_ACCEPT, FLOPSY_REQUEST.slice(4, 20), SECRET)).toEqual({ ok: true });
    expect(verifyResponse(NEMO_ACCEPT, requestAuthenticator, "xyzzy5462")).toEqual({
      ok: false,
      reason: "authenticator",
    });
  });

  it("signs an Access-Accept with the RFC's Response Authenticator", () => {
    const accept = decoded(NEMO_ACCEPT);
    expect(signResponse(accept, requestAuthenticator, SECRET)).toEqual(NEMO_ACCEPT);
  });

  it("reads flopsy's Accept: 255.255.255.254 leaves the address to the NAS", () => {
    expect(acceptedAttributes(decoded(FLOPSY_ACCEPT))).toEqual({
      framedIpAddress: null,
      framedPool: null,
      sessionTimeout: null,
      interimInterval: null,
      plan: null,
    });
  });

  it("requires a Message-Authenticator in an answer when asked to", () => {
    expect(verifyResponse(NEMO_ACCEPT, requestAuthenticator, SECRET, true)).toEqual({
      ok: false,
      reason: "message-authenticator",
    });
  });
});

describe("Accounting-Request (RFC 2866 §3, §5; RFC 2869 §5)", () => {
  const record = {
    status: "Stop" as const,
    sessionId: "4711",
    username: "sub0000042@isp.example",
    framedIpAddress: "100.64.0.7",
    framedIpv6Address: null,
    delegatedIpv6Prefix: "2001:db8:1200::/40",
    nasPortId: "xe-0/0/0:100-42",
    callingStationId: "00:1b:21:00:00:2a",
    ppp: true,
    sessionTimeSeconds: 3600,
    inputOctets: 5 * 2 ** 32 + 17,
    outputOctets: 123,
    inputPackets: 10,
    outputPackets: 11,
    terminateCause: 2,
    eventMs: Date.UTC(2026, 2, 2, 9, 0, 0),
  };

  it("splits octets past 32 bits into Gigawords: 5 and 17", () => {
    const p = sessionAccountingRequest({ identifier: "edge-1", ipAddress: "10.0.0.1" }, record, 0, 9);
    const value = (type: number) => readInteger(p.attributes.find((a) => a.type === type)!.value);
    expect([value(42), value(52), value(43), value(53)]).toEqual([17, 5, 123, 0]);
    expect(value(49)).toBe(2);
    expect(value(55)).toBe(Date.UTC(2026, 2, 2, 9) / 1000);
  });

  it("writes Delegated-IPv6-Prefix as RFC 3162 §2.3 does: reserved 0, the length, the covering octets", () => {
    expect(Array.from(ipv6Prefix("2001:db8:1200::/40"))).toEqual([0, 40, 0x20, 0x01, 0x0d, 0xb8, 0x12]);
  });

  it("computes the Request Authenticator as MD5 over the zeroed packet and the secret, which a server verifies", () => {
    const bytes = signRequest(
      sessionAccountingRequest({ identifier: "edge-1", ipAddress: null }, record, 0, 9),
      SECRET,
    );
    expect(bytes[0]).toBe(CODE["Accounting-Request"]);
    expect(verifyComputedRequest(bytes, SECRET)).toEqual({ ok: true });
    expect(verifyComputedRequest(bytes, "wrong")).toEqual({ ok: false, reason: "authenticator" });
  });

  it("refuses a value that is not a 32-bit unsigned integer", () => {
    expect(() => integer(2 ** 32)).toThrow();
    expect(() => integer(-1)).toThrow();
  });
});
