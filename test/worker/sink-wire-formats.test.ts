/**
 * The byte-level pieces of the socket sinks, against hand-worked values from
 * their standards: SMTP's dot-stuffing (RFC 5321 §4.5.2), MQTT 3.1.1's
 * remaining length (§2.2.3, its own table of boundaries) and packets (§3.1,
 * §3.3), the e-mail's date (RFC 5322 §3.3).
 */
import { describe, expect, it } from "vitest";
import { dotStuffed } from "../../durable-objects/transports/smtp.ts";
import {
  connectPacket,
  publishPacket,
  readPacket,
  remainingLength,
} from "../../durable-objects/transports/mqtt-packets.ts";
import { mailDate } from "../../durable-objects/transports/alert-mail.ts";

const bytes = (...values: number[]) => Uint8Array.from(values);
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

describe("SMTP's DATA", () => {
  it("doubles a dot that starts a line, ends with CRLF.CRLF, and turns bare LF into CRLF", () => {
    expect(dotStuffed("a\r\n.b\r\n.")).toBe("a\r\n..b\r\n..\r\n.\r\n");
    expect(dotStuffed(".first\nsecond\r\n")).toBe("..first\r\nsecond\r\n.\r\n");
  });
});

describe("MQTT 3.1.1 packets", () => {
  it.each([
    [0, [0x00]],
    [127, [0x7f]],
    [128, [0x80, 0x01]],
    [16_383, [0xff, 0x7f]],
    [16_384, [0x80, 0x80, 0x01]],
    [2_097_151, [0xff, 0xff, 0x7f]],
    [2_097_152, [0x80, 0x80, 0x80, 0x01]],
    [268_435_455, [0xff, 0xff, 0xff, 0x7f]],
  ])("encode a remaining length of %i as the standard's table does", (length, encoded) => {
    expect(remainingLength(length)).toEqual(bytes(...encoded));
  });

  it("refuse a remaining length past four bytes", () => {
    expect(() => remainingLength(268_435_456)).toThrow(RangeError);
  });

  it("write CONNECT with a clean session, user name and password", () => {
    const packet = connectPacket({ clientId: "c", username: "u", password: "p", keepAliveSeconds: 10 });
    // Variable header: "MQTT", level 4, flags 0xC2 (user name, password, clean session), keep-alive 10; then the three
    // strings.
    expect(packet).toEqual(
      bytes(
        0x10,
        19,
        0,
        4,
        ...ascii("MQTT"),
        4,
        0xc2,
        0,
        10,
        0,
        1,
        ...ascii("c"),
        0,
        1,
        ...ascii("u"),
        0,
        1,
        ...ascii("p"),
      ),
    );
  });

  it("write CONNECT without credentials, and never a password without a user name (§3.1.2.9)", () => {
    expect(connectPacket({ clientId: "c", username: null, password: "p", keepAliveSeconds: 0 })).toEqual(
      bytes(0x10, 13, 0, 4, ...ascii("MQTT"), 4, 0x02, 0, 0, 0, 1, ...ascii("c")),
    );
  });

  it("write PUBLISH at QoS 1 with its packet identifier, the topic in UTF-8", () => {
    expect(publishPacket("a/é", 1, bytes(0x7b, 0x7d))).toEqual(
      bytes(0x32, 10, 0, 4, ...ascii("a/"), 0xc3, 0xa9, 0, 1, 0x7b, 0x7d),
    );
  });

  it("read a PUBACK, and a packet whose length takes two bytes", async () => {
    const reader = (data: Uint8Array) => {
      let at = 0;
      return async (n: number) => data.slice(at, (at += n));
    };
    expect(await readPacket(reader(bytes(0x40, 0x02, 0x00, 0x01)))).toEqual({ type: 4, flags: 0, body: bytes(0, 1) });
    const long = new Uint8Array(200).fill(7);
    expect((await readPacket(reader(bytes(0x30, 0xc8, 0x01, ...long)))).body).toEqual(long);
  });

  it("refuse to read a packet longer than 64 KiB, before reading its body", async () => {
    // 65,537 = 0x01 + 0x00·128 + 0x04·16384: bytes 0x81 0x80 0x04.
    const reads: number[] = [];
    const read = async (n: number) => {
      reads.push(n);
      return reads.length === 1 ? bytes(0x40) : bytes([0x81, 0x80, 0x04][reads.length - 2]!);
    };
    await expect(readPacket(read)).rejects.toThrow("65537 bytes");
    expect(reads).toEqual([1, 1, 1, 1]);
  });
});

describe("the e-mail's Date", () => {
  it("is RFC 5322's date-time in UTC", () => {
    // 2026-11-26 is a Thursday (Python: datetime.date(2026, 11, 26).strftime("%a")).
    expect(mailDate(Date.UTC(2026, 10, 26, 8, 5, 9))).toBe("Thu, 26 Nov 2026 08:05:09 +0000");
  });
});
