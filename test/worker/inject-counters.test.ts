/**
 * `emit: true` on POST /diagnostics/inject transmits the frame: its egress
 * port's transmit counters count it (bytes = the trace's frameBytes, one
 * packet), as GET /system/interfaces and the scrape show; a dry run counts
 * nothing. The clock does not move between the reads (manual clock).
 */
import { describe, expect, it } from "vitest";
import { advance, get, scrape, send, valueOf } from "./helpers.ts";
import type { InjectResult as Trace } from "../../src/schemas/diagnostics.ts";
import type { SessionList } from "../../src/schemas/sessions.ts";
import type { InterfaceTable } from "../../src/schemas/system.ts";

const rowOf = async (portId: number | null) =>
  (await get<InterfaceTable>("/api/v1/system/interfaces")).interfaces.find((r) => r.portId === portId)!;

describe("an emitted diagnostic frame", () => {
  it("is counted on its egress port's transmit side, and a dry run is not", async () => {
    await advance(1800);
    const { items } = await get<SessionList>("/api/v1/sessions?vrf=default&encap=ipoe&limit=200");
    // From a subscriber on one port to a subscriber on the other: the egress is a subscriber-facing port.
    const from = items.find((s) => s.ipv4)!;
    const to = items.find((s) => s.ipv4 && s.portId !== from.portId)!;
    expect(to).toBeDefined();
    const frame = { port: from.portId, source: from.ipv4, destination: to.ipv4, sVlan: from.svlan, cVlan: from.vlan };

    const before = await rowOf(to.portId);
    const dry = await send("POST", "/api/v1/diagnostics/inject", frame);
    expect(dry.status).toBe(200);
    expect((await rowOf(to.portId)).counters).toEqual(before.counters);

    const response = await send("POST", "/api/v1/diagnostics/inject", { ...frame, emit: true });
    expect(response.status).toBe(200);
    const trace = await response.json<Trace>();
    expect(trace.emitted).toBe(true);
    expect(trace.steps.at(-1)).toMatchObject({ stage: "egress", verdict: "emitted", a: to.portId });
    const after = await rowOf(to.portId);
    expect(after.counters.txBytes - before.counters.txBytes).toBe(trace.frameBytes);
    expect(after.counters.txPackets - before.counters.txPackets).toBe(1);
    expect(after.counters.rxPackets).toBe(before.counters.rxPackets);
    expect(valueOf(await scrape(), "bng_interface_transmit_packets_total", { interface: after.name })).toBe(
      after.counters.txPackets,
    );
  });
});
