/**
 * An appliance whose object is opened again long after its last snapshot
 * (evicted between alarms, or restarted) stores the caught-up state at once,
 * so the next reopen starts from there and not from the same old snapshot.
 */
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodeSnapshot } from "../../simulator/snapshot.ts";
import { advance, get } from "./helpers.ts";

const appliance = () => env.Appliance.getByName("edge-1");

/** The simulated instant of the snapshot the object has stored. */
const storedInstant = () =>
  runInDurableObject(appliance(), (_instance, state) => {
    const rows = state.storage.sql.exec<{ data: ArrayBuffer }>("SELECT data FROM sim_snapshot ORDER BY chunk").toArray();
    const decoded = decodeSnapshot(rows.map((r) => r.data));
    if (!decoded.ok) throw new Error("no snapshot stored");
    return (decoded.snapshot.meta as { nowMs: number }).nowMs;
  });

describe("reopening the data plane", () => {
  it("stores the caught-up state when it opens more than a minute after its snapshot", async () => {
    // A scripted advance of 120 s stores a snapshot (one is due every simulated minute).
    await advance(120);
    const before = await storedInstant();
    // As if the object had been gone five minutes: its clock offset moves on, then it is stopped abruptly.
    await runInDurableObject(appliance(), (_instance, state) => {
      state.storage.sql.exec("UPDATE sim_state SET value = CAST(CAST(value AS INTEGER) + 300000 AS TEXT) WHERE key = 'offsetMs'");
    });
    await abortAllDurableObjects();
    await get("/api/v1/sessions/summary");
    const after = await storedInstant();
    // Five minutes were caught up on opening (30 sub-steps at most), and stored then, not a minute of ticks later.
    expect(after - before).toBeGreaterThanOrEqual(300_000);
  });
});
