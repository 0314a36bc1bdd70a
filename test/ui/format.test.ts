/** How the UI writes values, against hand-worked examples. */
import { describe, expect, it } from "vitest";
import { bitRate, bytes, duration, formatValue, labelOf, utc, utcClock } from "../../ui/format.ts";

describe("values as a person reads them", () => {
  it("writes identifiers as they are typed, without separators", () => {
    expect(formatValue("localAs", 4_200_000_001)).toBe("4200000001");
    expect(formatValue("tunnelId", 11_374)).toBe("11374");
    expect(formatValue("vlan", 1017)).toBe("1017");
    expect(formatValue("mtu", 1500)).toBe("1500");
    expect(formatValue("sessions", 12_345)).toBe("12,345");
  });

  it("scales rates by 1000 and bytes by 1024", () => {
    expect(bitRate(815_688_691)).toBe("816 Mb/s");
    expect(bitRate(9_990)).toBe("9.99 kb/s");
    expect(formatValue("speedMbps", 10_000)).toBe("10.0 Gb/s");
    expect(bytes(17_179_869_184)).toBe("16.0 GiB");
    expect(bytes(1536)).toBe("1.50 KiB");
  });

  it("writes durations short and times in UTC, 24-hour, with the zone", () => {
    expect(duration(20_568)).toBe("5h 42m");
    expect(duration(3 * 86_400 + 4 * 3600 + 60)).toBe("3d 4h 1m");
    expect(utc("2026-03-02T21:05:09.500Z")).toBe("2026-03-02 21:05:09 UTC");
    expect(utc("2026-03-02T23:30:00+02:00")).toBe("2026-03-02 21:30:00 UTC");
    expect(utcClock(Date.UTC(2026, 2, 2, 21, 5) / 1000)).toBe("21:05");
    expect(utcClock(Date.UTC(2026, 2, 2, 21, 5, 40) / 1000, true)).toBe("21:05:40");
  });

  it("labels members in words", () => {
    expect(labelOf("uptimeSeconds")).toBe("Uptime");
    expect(labelOf("memoryTotalBytes")).toBe("Memory total");
    expect(labelOf("localAs")).toBe("Local AS");
    expect(labelOf("rxBps")).toBe("Rx rate");
    expect(labelOf("sVlan")).toBe("S-VLAN");
  });
});
