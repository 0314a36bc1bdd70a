import { describe, expect, it } from "vitest";
import {
  BGP_HOLD_MS,
  FLAP_PROBABILITY,
  FLAP_SLOT_MS,
  SETTLE_MS,
  greCircuitStatus,
  type GreCircuitModel,
} from "../../simulator/gre.ts";
import type { GreCircuitStatus } from "../../src/schemas/gre-circuits.ts";

const SEED = 1001;
const T0 = Date.UTC(2026, 0, 5, 8, 0, 0);
const CIRCUIT: GreCircuitModel = { id: "acme-1", vrf: "cust-a", bfd: true, peerAsn: 64512, maximumPrefix: null };
const at = (circuit: GreCircuitModel, nowMs: number, provisionedMs = T0, seed = SEED) =>
  greCircuitStatus(seed, circuit, provisionedMs, nowMs);

/** Samples a circuit every 10 s (the clock's tick) over a span. */
function samples(
  circuit: GreCircuitModel,
  fromMs: number,
  toMs: number,
  seed = SEED,
): { atMs: number; status: GreCircuitStatus }[] {
  const out = [];
  for (let t = fromMs; t <= toMs; t += 10_000) out.push({ atMs: t, status: at(circuit, t, T0, seed) });
  return out;
}

/** The first sampled moment, after settling, at which the tunnel is down. */
function firstOutage(circuit: GreCircuitModel, seed = SEED): number {
  const from = T0 + SETTLE_MS + 120_000;
  for (let t = from; t < from + 30 * 24 * FLAP_SLOT_MS; t += 10_000)
    if (at(circuit, t, T0, seed).tunnelState === "down") return t;
  throw new Error("no outage in 30 days");
}

/** The first sampled outage after settling (tunnel down from `startMs` until `endMs`) whose length `wanted` accepts. */
function outage(
  circuit: GreCircuitModel,
  wanted: (lengthMs: number) => boolean,
  seed = SEED,
): { startMs: number; endMs: number } | undefined {
  let open: number | null = null;
  for (let t = T0 + SETTLE_MS + 120_000; t < T0 + 30 * 24 * FLAP_SLOT_MS; t += 10_000) {
    const down = at(circuit, t, T0, seed).tunnelState === "down";
    if (down && open === null) open = t;
    if (!down && open !== null) {
      if (wanted(t - open)) return { startMs: open, endMs: t };
      open = null;
    }
  }
  return undefined;
}

describe("bring-up", () => {
  it("is provisioning from the provisioning instant, with BFD down and BGP idle", () => {
    expect(at(CIRCUIT, T0)).toEqual({
      id: "acme-1",
      vrf: "cust-a",
      circuitState: "provisioning",
      tunnelState: "provisioning",
      bfdState: "down",
      bgpState: "Idle",
      prefixesReceived: 0,
      lastChangeUtc: new Date(T0).toISOString(),
    });
    expect(at(CIRCUIT, T0 + 19_000).circuitState).toBe("provisioning");
  });

  it("brings the tunnel up within a minute and BGP to Established within another 30 s", () => {
    const up = at(CIRCUIT, T0 + 90_000);
    expect(up).toMatchObject({ circuitState: "up", tunnelState: "up", bfdState: "up", bgpState: "Established" });
    expect(up.prefixesReceived).toBeGreaterThanOrEqual(2);
    expect(up.prefixesReceived).toBeLessThanOrEqual(41);
    const changed = Date.parse(up.lastChangeUtc);
    expect(changed).toBeGreaterThan(T0 + 20_000);
    expect(changed).toBeLessThanOrEqual(T0 + 90_000);
  });

  it("passes through Active: the tunnel up, BGP still connecting", () => {
    const states = samples(CIRCUIT, T0, T0 + 90_000).map((s) => `${s.status.tunnelState}/${s.status.bgpState}`);
    expect([...new Set(states)]).toEqual(["provisioning/Idle", "up/Active", "up/Established"]);
  });

  it("reports BFD and BGP as disabled when not configured, the circuit up with the tunnel", () => {
    const plain = { ...CIRCUIT, bfd: false, peerAsn: null };
    expect(at(plain, T0)).toMatchObject({ bfdState: "disabled", bgpState: "disabled" });
    expect(at(plain, T0 + 90_000)).toMatchObject({
      circuitState: "up",
      tunnelState: "up",
      bfdState: "disabled",
      bgpState: "disabled",
      prefixesReceived: 0,
    });
  });

  it("tears BGP down to Idle when the peer advertises more than maximumPrefix", () => {
    const capped = at({ ...CIRCUIT, maximumPrefix: 1 }, T0 + 90_000);
    expect(capped).toMatchObject({ circuitState: "down", tunnelState: "up", bgpState: "Idle", prefixesReceived: 0 });
    const advertised = at(CIRCUIT, T0 + 90_000).prefixesReceived;
    expect(at({ ...CIRCUIT, maximumPrefix: advertised }, T0 + 90_000)).toMatchObject({
      bgpState: "Established",
      prefixesReceived: advertised,
    });
  });

  it("starts over when re-provisioned, moving lastChangeUtc", () => {
    const again = T0 + 3_600_000;
    expect(at(CIRCUIT, again + 5_000, again)).toMatchObject({
      circuitState: "provisioning",
      lastChangeUtc: new Date(again).toISOString(),
    });
    expect(at(CIRCUIT, again + 90_000, again).circuitState).toBe("up");
  });
});

describe("flaps", () => {
  it("never happen while the circuit settles", () => {
    expect(samples(CIRCUIT, T0 + 90_000, T0 + SETTLE_MS).every((s) => s.status.circuitState === "up")).toBe(true);
  });

  it("happen in roughly the configured share of hours, over a month", () => {
    const outages = new Set<number>();
    const plain = { ...CIRCUIT, bfd: false, peerAsn: null };
    for (let t = T0 + SETTLE_MS + 120_000; t < T0 + 30 * 24 * FLAP_SLOT_MS; t += 10_000) {
      if (at(plain, t).tunnelState === "down") outages.add(Math.floor(t / FLAP_SLOT_MS));
    }
    const share = outages.size / (30 * 24);
    expect(share).toBeGreaterThan(FLAP_PROBABILITY * 0.6);
    expect(share).toBeLessThan(FLAP_PROBABILITY * 1.4);
  });

  it("take the tunnel, BFD and BGP down together when BFD runs, then recover through Active", () => {
    const start = firstOutage(CIRCUIT);
    const during = at(CIRCUIT, start);
    expect(during).toMatchObject({
      circuitState: "down",
      tunnelState: "down",
      bfdState: "down",
      bgpState: "Active",
      prefixesReceived: 0,
    });
    expect(Date.parse(during.lastChangeUtc)).toBeGreaterThan(start - 10_000);
    const after = samples(CIRCUIT, start, start + 400_000).map((s) => `${s.status.tunnelState}/${s.status.bgpState}`);
    expect([...new Set(after)]).toEqual(["down/Active", "up/Active", "up/Established"]);
  });

  it("leave BGP Established through a short outage without BFD, until the hold timer expires", () => {
    const noBfd = { ...CIRCUIT, bfd: false };
    const start = firstOutage(noBfd);
    const during = at(noBfd, start);
    expect(during).toMatchObject({ tunnelState: "down", bfdState: "disabled", bgpState: "Established" });
    expect(during.prefixesReceived).toBeGreaterThan(0);
  });

  it("leave BGP Established through an outage without BFD shorter than the hold time", () => {
    const noBfd = { ...CIRCUIT, bfd: false };
    const short = outage(noBfd, (length) => length < BGP_HOLD_MS - 10_000)!;
    expect(short).toBeDefined();
    expect(new Set(samples(noBfd, short.startMs, short.endMs + 60_000).map((s) => s.status.bgpState))).toEqual(
      new Set(["Established"]),
    );
  });

  it("drop BGP to Active when an outage without BFD outlasts the hold time", () => {
    const noBfd = { ...CIRCUIT, bfd: false };
    const long = outage(noBfd, (length) => length > BGP_HOLD_MS + 20_000)!;
    expect(long).toBeDefined();
    expect(at(noBfd, long.startMs + BGP_HOLD_MS - 10_000).bgpState).toBe("Established");
    expect(at(noBfd, long.startMs + BGP_HOLD_MS + 10_000)).toMatchObject({ tunnelState: "down", bgpState: "Active" });
  });

  it("depend on the seed and the circuit id", () => {
    const a = firstOutage(CIRCUIT);
    expect(firstOutage(CIRCUIT, SEED + 1)).not.toBe(a);
    expect(firstOutage({ ...CIRCUIT, id: "acme-2" })).not.toBe(a);
  });
});

describe("determinism", () => {
  it("gives the same answer for the same seed, circuit, provisioning instant and clock", () => {
    const times = Array.from({ length: 200 }, (_, i) => T0 + i * 97_000);
    expect(times.map((t) => at(CIRCUIT, t))).toEqual(times.map((t) => at({ ...CIRCUIT }, t)));
  });

  it("holds the first state when the clock reads earlier than the provisioning instant", () => {
    expect(at(CIRCUIT, T0 - 60_000)).toMatchObject({
      circuitState: "provisioning",
      lastChangeUtc: new Date(T0).toISOString(),
    });
  });
});
