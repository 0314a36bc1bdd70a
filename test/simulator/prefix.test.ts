import { describe, expect, it } from "vitest";
import {
  formatIpv4,
  formatIpv6,
  formatPrefix,
  ipv4TextRanges,
  isPrivateIpv4,
  parseIpv4,
  parseIpv6,
  parsePrefix,
  prefixContains,
  prefixSpan,
} from "../../simulator/prefix.ts";

describe("prefix arithmetic", () => {
  it("round-trips IPv4 addresses through uint32", () => {
    expect(parseIpv4("100.64.0.1")).toBe(0x64400001);
    expect(formatIpv4(0xc0000201)).toBe("192.0.2.1");
    expect(parseIpv4("255.255.255.255")).toBe(2 ** 32 - 1);
    for (const bad of ["1.2.3", "1.2.3.256", "01.2.3.4", "a.b.c.d", "1.2.3.4.5"]) expect(parseIpv4(bad)).toBeNull();
  });

  it("formats IPv6 in RFC 5952 canonical form", () => {
    expect(formatIpv6(parseIpv6("2001:0db8:0000:0000:0000:0000:0000:0001") ?? 0n)).toBe("2001:db8::1");
    expect(formatIpv6(parseIpv6("2001:db8:0:1:0:0:0:0") ?? 0n)).toBe("2001:db8:0:1::");
    // The longest zero run is compressed; on a tie the first; a single zero group is not.
    expect(formatIpv6(parseIpv6("2001:0:0:1:0:0:0:1") ?? 0n)).toBe("2001:0:0:1::1");
    expect(formatIpv6(parseIpv6("2001:db8:0:1:1:1:1:1") ?? 0n)).toBe("2001:db8:0:1:1:1:1:1");
    expect(formatIpv6(0n)).toBe("::");
    expect(parseIpv6("::ffff:192.0.2.1")).toBe(0xffffc0000201n);
    for (const bad of ["2001:db8::1::2", "2001:db8:::1", "12345::", "1:2:3:4:5:6:7:8:9"])
      expect(parseIpv6(bad)).toBeNull();
  });

  it("parses prefixes strictly or masks host bits on request", () => {
    expect(parsePrefix("100.64.0.0/10")).toMatchObject({ family: 4, length: 10 });
    expect(parsePrefix("100.64.0.1/10")).toBeNull();
    expect(formatPrefix(parsePrefix("100.64.0.1/10", false) ?? { family: 4, base: 0n, length: 0 })).toBe(
      "100.64.0.0/10",
    );
    expect(formatPrefix(parsePrefix("2001:db8:100::/40") ?? { family: 6, base: 0n, length: 0 })).toBe(
      "2001:db8:100::/40",
    );
    expect(parsePrefix("192.0.2.7")).toMatchObject({ length: 32 });
    expect(parsePrefix("2001:db8::/129")).toBeNull();
  });

  it("counts spans and containment in both families", () => {
    const v6 = parsePrefix("2001:db8:100::/40");
    const block = parsePrefix("2001:db8:1ff:ffff::/64");
    if (!v6 || !block) throw new Error("parse");
    expect(prefixSpan(v6) >> 64n).toBe(2n ** 24n);
    expect(prefixContains(v6, block)).toBe(true);
    expect(prefixContains(v6, parsePrefix("2001:db8:200::/64") ?? v6)).toBe(false);
    expect(isPrivateIpv4(parsePrefix("100.64.0.0/15") ?? v6)).toBe(true);
    expect(isPrivateIpv4(parsePrefix("198.18.0.0/15") ?? v6)).toBe(false);
  });

  it("turns a textual IPv4 prefix into the address ranges whose text starts with it", () => {
    const ranges = ipv4TextRanges("100.64.1") ?? [];
    const inside = (text: string) => {
      const a = parseIpv4(text) ?? -1;
      return ranges.some((r) => a >= r.first && a <= r.last);
    };
    for (const yes of ["100.64.1.0", "100.64.1.255", "100.64.19.7", "100.64.150.3"])
      expect(inside(yes), yes).toBe(true);
    for (const no of ["100.64.2.1", "100.64.200.1", "100.65.1.1"]) expect(inside(no), no).toBe(false);
    expect(ipv4TextRanges("1.2.3.4.5")).toBeNull();
    expect(ipv4TextRanges("300.")).toBeNull();
  });
});
