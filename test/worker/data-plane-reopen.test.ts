/**
 * An appliance whose object is opened again long after its last snapshot
 * (evicted between alarms, or restarted) stores the caught-up state at once,
 * so the next reopen starts from there and not from the same old snapshot;
 * one stopped before its next snapshot was due re-simulates to where it was.
 */
import { abortAllDurableObjects, env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { decodeSnapshot } from "../../simulator/snapshot.ts";
import { advance, get } from "./helpers.ts";

const appliance = () => env.Appliance.getByName("edge-1");

/** The simulated instant of the snapshot the object has stored. */
const storedInstant = () =>
  runInDurableObject(appliance(), (_instance, state) => {
    const rows = state.storage.sql
      .exec<{ data: ArrayBuffer }>("SELECT data FROM sim_snapshot ORDER BY chunk")
      .toArray();
    const decoded = decodeSnapshot(rows.map((r) => r.data));
    if (!decoded.ok) throw new Error("no snapshot stored");
    return (decoded.snapshot.meta as { nowMs: number }).nowMs;
  });

describe("reopening the data plane", () => {
  it("stores the caught-up state when it opens more than a minute after its snapshot", async () => {
    // A scripted advance of 550 s stores a snapshot (one never lags more than nine simulated minutes).
    await advance(550);
    const before = await storedInstant();
    // As if the object had been gone five minutes: its clock offset moves on, then it is stopped abruptly.
    await runInDurableObject(appliance(), (_instance, state) => {
      state.storage.sql.exec(
        "UPDATE sim_state SET value = CAST(CAST(value AS INTEGER) + 300000 AS TEXT) WHERE key = 'offsetMs'",
      );
    });
    await abortAllDurableObjects();
    await get("/api/v1/sessions/summary");
    const after = await storedInstant();
    // Five minutes were caught up on opening (30 sub-steps at most), and stored then, not a minute of ticks later.
    expect(after - before).toBeGreaterThanOrEqual(300_000);
  });

  it(
    "re-simulates to the same moment and counters when stopped before a snapshot was " +
      "due; the audit trail keeps every act",
    async () => {
      await advance(550);
      const stored = await storedInstant();
      // Eight simulated minutes more: no snapshot is due (nine are).
      for (let i = 0; i < 16; i++) await advance(30);
      expect(await storedInstant()).toBe(stored);
      const read = async () => {
        const state = await get<{ simulatedTimeUtc: string; sessions: number; lastSeq: number }>("/twin/v1/scenario");
        const audit = await get<{ entries: { msgId: string }[] }>("/api/v1/logs/tail?source=audit&count=1000");
        return {
          // The log ring's entries from outside the model (the acts themselves) are in the snapshot only: its seq is
          // compared apart.
          state: { ...state, lastSeq: undefined },
          summary: await get("/api/v1/sessions/summary"),
          page: await get("/api/v1/sessions?limit=20"),
          scenarioActs: audit.entries.filter((e) => e.msgId === "audit.scenario").length,
        };
      };
      const before = await read();
      await abortAllDurableObjects();
      const after = await read();
      expect(after).toEqual(before);
      expect(before.scenarioActs).toBeGreaterThanOrEqual(17);
      expect(Date.parse(after.state.simulatedTimeUtc) - stored).toBe(480_000);
    },
  );
});
