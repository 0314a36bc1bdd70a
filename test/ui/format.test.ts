/** How the UI writes values, against hand-worked examples. */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bitRate, bytes, duration, formatValue, labelOf, utc, utcClock } from "../../ui/format.ts";

describe("values as a person reads them", () => {
  it("writes identifiers as they are typed, without separators", () => {
    expect(formatValue("localAs", 4_200_000_001)).toBe("4200000001");
    expect(formatValue("tunnelId", 11_374)).toBe("11374");
    expect(formatValue("vlan", 1017)).toBe("1017");
    expect(formatValue("mtu", 1500)).toBe("1500");
    expect(formatValue("seed", 1001)).toBe("1001");
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
    // The unit is the value's: "Download 300 Mb/s", not "Download kbps 300 kb/s".
    expect(labelOf("downloadKbps")).toBe("Download");
    expect(labelOf("downloadBurstKb")).toBe("Download burst");
    expect(labelOf("startedUtc")).toBe("Started");
    expect(labelOf("rxPps")).toBe("Rx packet rate");
  });
});

/**
 * Every unit suffix the contract's member names use, each with values worked
 * by hand: 300000 kbps is 300 × 10^6 b/s, so 300 Mb/s (network rates scale by
 * 1000); 1536 bytes is 1.5 × 1024, so 1.50 KiB.
 */
const UNITS: [suffix: string, member: string, value: number, reads: string][] = [
  ["Kbps", "downloadKbps", 300_000, "300 Mb/s"],
  ["Kbps", "uploadKbps", 50_000, "50.0 Mb/s"],
  ["Kbps", "downloadRateKbps", 2_500, "2.50 Mb/s"],
  ["Kbps", "uploadRateKbps", 512, "512 kb/s"],
  ["Mbps", "speedMbps", 100_000, "100 Gb/s"],
  ["Bps", "txBps", 52_400_000, "52.4 Mb/s"],
  ["Bps", "rxBps", 1_250_000, "1.25 Mb/s"],
  ["Bps", "rxBps", 999, "999 b/s"],
  ["Pps", "txPps", 4_520, "4,520 pps"],
  ["Pps", "rxPps", 812, "812 pps"],
  ["Pps", "downloadRatePps", 0, "0 pps"],
  ["Bytes", "txBytes", 5_368_709_120, "5.00 GiB"],
  ["Bytes", "rxBytes", 1_048_576, "1.00 MiB"],
  ["Bytes", "packetBytes", 84, "84 B"],
  ["Packets", "txPackets", 3_612_907, "3,612,907"],
  ["Packets", "rxPackets", 1_204_331, "1,204,331"],
  ["Kb", "downloadBurstKb", 1_500, "1.50 Mbit"],
  ["Kb", "uploadBurstKb", 64, "64.0 kbit"],
  ["Seconds", "uptimeSeconds", 93_784, "1d 2h 3m"],
  ["Seconds", "ageSeconds", 45, "45s"],
  ["Ms", "timeoutMs", 10_000, "10,000 ms"],
  ["Ms", "rttMs", 0.25, "0.25 ms"],
  ["Days", "renewBeforeDays", 30, "30 days"],
  ["Days", "graceDays", 1, "1 day"],
  ["Percent", "utilisationPercent", 42.4, "42 %"],
  ["Percent", "lossPercent", 2.5, "2.5 %"],
  ["Dbm", "rxPowerDbm", -3.2, "-3.20 dBm"],
  ["Celsius", "temperatureCelsius", 41.25, "41.3 °C"],
  ["Volts", "inputVolts", 12, "12.00 V"],
  ["Watts", "outputWatts", 150, "150 W"],
  ["Count", "peakCount", 12_500, "12,500"],
];

describe("every unit suffix the contract uses", () => {
  it.each(UNITS)("reads a %s member (%s = %d) as %s", (_suffix, member, value, reads) => {
    expect(formatValue(member, value)).toBe(reads);
  });

  it("writes a time member (…Utc) in UTC with the zone", () => {
    expect(formatValue("committedUtc", "2026-12-01T21:50:00.000Z")).toBe("2026-12-01 21:50:00 UTC");
  });

  /** The contract's member names (src/schemas/, and the configuration registry its keyed lists follow). */
  function contractMembers(): Set<string> {
    const root = path.resolve(import.meta.dirname, "..", "..");
    const files = readdirSync(path.join(root, "src", "schemas"), { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join(root, "src", "schemas", f));
    files.push(path.join(root, "src", "config", "registry.ts"));
    const names = new Set<string>();
    for (const file of files)
      for (const m of readFileSync(file, "utf8").matchAll(/\b([a-z][A-Za-z0-9]*)\??\s*:/g)) names.add(m[1]!);
    return names;
  }

  it("has a worked example for every unit suffix a member of the contract ends in", () => {
    // Units a member could carry; a suffix among them that the table does not work through fails here.
    const UNIT_WORDS = new RegExp(
      "(Kbps|Mbps|Gbps|Bps|Pps|Bytes|Octets|Packets|Bits|Kb|KB|Mb|MB|Seconds|Secs|Ms|Us|Minutes|Hours|Days|Percent" +
        "|Pct|Dbm|Mw|Celsius|Volts|Watts|Amps|Hz|Rpm|Utc|Count)$",
    );
    const found = new Set([...contractMembers()].flatMap((name) => UNIT_WORDS.exec(name)?.[1] ?? []));
    const worked = new Set([...UNITS.map(([suffix]) => suffix), "Utc"]);
    expect([...found].filter((suffix) => !worked.has(suffix)).sort()).toEqual([]);
    // The table is not padded with units the contract does not use.
    expect([...worked].filter((suffix) => !found.has(suffix)).sort()).toEqual([]);
  });
});
