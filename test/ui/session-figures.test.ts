/** A session's traffic on its page, both directions, against figures worked by hand. */
import { describe, expect, it } from "vitest";
import { planRatesText, trafficOf } from "../../ui/pages/session-figures.ts";

// A session as GET /sessions/{id} answers it: counters since it came up, rates over 30 s, the plan's rates.
const counters = { rxBytes: 131_628, txBytes: 5_368_709_120, rxPackets: 1_204_331, txPackets: 3_612_907 };
const rates = { rxBps: 1_250_000, txBps: 52_400_000, rxPps: 812, txPps: 4_520 };
const plan = { downloadKbps: 300_000, uploadKbps: 50_000 };

describe("a session's traffic", () => {
  const [download, upload] = trafficOf(counters, rates, plan);

  it("shows the download (the API's tx, to the subscriber) against the plan", () => {
    expect(download).toEqual({
      direction: "Download",
      towards: "to the subscriber",
      rate: "52.4 Mb/s",
      packetRate: "4,520 pps",
      // 52.4 Mb/s of 300 Mb/s: 17.47 %.
      planShare: (52_400_000 / 300_000_000) * 100,
      planRate: "300 Mb/s",
      // 5,368,709,120 bytes = 5 × 1024³.
      bytes: "5.00 GiB",
      packets: "3,612,907",
    });
  });

  it("shows the upload (the API's rx, from the subscriber) beside it", () => {
    expect(upload).toEqual({
      direction: "Upload",
      towards: "from the subscriber",
      rate: "1.25 Mb/s",
      packetRate: "812 pps",
      // 1.25 Mb/s of 50 Mb/s: 2.5 %.
      planShare: 2.5,
      planRate: "50.0 Mb/s",
      // 131,628 bytes ÷ 1024 = 128.54 KiB.
      bytes: "129 KiB",
      packets: "1,204,331",
    });
  });

  it("shows a packet rate in whole packets, as a router does: the API's 64ths of a packet a second are rounded", () => {
    // 6.015625 = 6 + 1/64 pps down, 2.5 pps up (rounded half up, as Math.round does), 0.46875 = 30/64 pps: 0.
    const [down, up] = trafficOf(counters, { ...rates, txPps: 6.015625, rxPps: 2.5 }, plan);
    expect([down!.packetRate, up!.packetRate]).toEqual(["6 pps", "3 pps"]);
    const [light] = trafficOf(counters, { ...rates, txPps: 0.46875 }, plan);
    expect(light!.packetRate).toBe("0 pps");
  });

  it("caps the share at the whole plan, and leaves it out without a plan rate", () => {
    const [over] = trafficOf(counters, { ...rates, txBps: 400_000_000 }, plan);
    expect(over!.planShare).toBe(100);
    const [none] = trafficOf(counters, rates, { downloadKbps: 0, uploadKbps: 0 });
    expect(none!.planShare).toBeNull();
  });

  it("writes a plan's rates in one line, 300000 kbps as 300 Mb/s", () => {
    expect(planRatesText(plan)).toBe("300 Mb/s down, 50.0 Mb/s up");
    expect(planRatesText({ downloadKbps: 24_000, uploadKbps: 1_024 })).toBe("24.0 Mb/s down, 1.02 Mb/s up");
  });
});
