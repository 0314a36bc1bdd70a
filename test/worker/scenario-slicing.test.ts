/**
 * A long clock advance shares the process: every appliance's Durable Object
 * runs in one workerd isolate, so an advance of a simulated day yields between
 * simulated hours and another appliance's request is answered meanwhile,
 * rather than after it.
 */
import { describe, expect, it } from "vitest";
import { admin, send } from "./helpers.ts";

describe("a clock advance of a simulated day", () => {
  it("lets another appliance's request finish before the advance does", async () => {
    const finished: string[] = [];
    // The same route on both, so each reaches its object through the same steps, the day's advance first.
    const day = send("POST", "/twin/v1/scenario", { action: "advance-clock", seconds: 86_400 }, admin, "edge-1").then(
      (response) => {
        finished.push("edge-1's day");
        return response;
      },
    );
    const tick = send("POST", "/twin/v1/scenario", { action: "advance-clock", seconds: 10 }, admin, "edge-2").then(
      (response) => {
        finished.push("edge-2's 10 s");
        return response;
      },
    );
    const [long, short] = await Promise.all([day, tick]);
    expect(long.status).toBe(200);
    expect(short.status).toBe(200);
    expect(finished).toEqual(["edge-2's 10 s", "edge-1's day"]);
    expect((await long.json<{ detail: { subSteps: number } }>()).detail.subSteps).toBe(8640);
  });
});
