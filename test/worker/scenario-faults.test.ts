/**
 * GET /twin/v1/scenario/faults: the faults scenario actions left in force,
 * which a CI pipeline checks before it calls the appliance healthy again.
 * Each expected value is the one the test's own actions set.
 */
import { describe, expect, it } from "vitest";
import type { ScenarioFaults } from "../../src/schemas/scenario.ts";
import { bearer, tokenWithRole } from "./client.ts";
import { get, scenario, send } from "./helpers.ts";

const faults = () => get<ScenarioFaults>("/twin/v1/scenario/faults");

describe("scenario faults", () => {
  it("are none on a fresh appliance: the profile's own churn, every daemon up", async () => {
    expect(await faults()).toEqual({ churnMultiplier: 1, failedDaemons: [] });
  });

  it("show a failed daemon and a churn multiplier until they are undone", async () => {
    await scenario({ action: "fail-daemon", daemon: "routing" });
    await scenario({ action: "fail-daemon", daemon: "ipsec" });
    await scenario({ action: "set-churn-multiplier", multiplier: 3 });
    expect(await faults()).toEqual({ churnMultiplier: 3, failedDaemons: ["ipsec", "routing"] });
    await scenario({ action: "revive-daemon", daemon: "ipsec" });
    expect(await faults()).toEqual({ churnMultiplier: 3, failedDaemons: ["routing"] });
  });

  it("are cleared by a reseed, which starts the simulation again", async () => {
    await scenario({ action: "fail-daemon", daemon: "routing" });
    await scenario({ action: "reseed", seed: 5 });
    expect(await faults()).toEqual({ churnMultiplier: 1, failedDaemons: [] });
  });

  it("are for super-users, as the rest of scenario control", async () => {
    const operator = await tokenWithRole("operator");
    expect((await send("GET", "/twin/v1/scenario/faults", undefined, bearer(operator))).status).toBe(403);
  });
});
