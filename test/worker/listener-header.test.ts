/**
 * Deployed, the hostname picks the appliance: X-BNG-Appliance is the local
 * launcher's header (src/fleet/listener.ts), which nothing strips here, so a
 * client sending it must not reach another appliance with it.
 */
import { describe, expect, it } from "vitest";
import { call } from "./client.ts";

describe("deployed", () => {
  it("ignores a client's X-BNG-Appliance: the hostname picks the appliance", async () => {
    const health = await call("/api/v1/system/health", { headers: { "x-bng-appliance": "edge-2" } });
    expect(await health.json()).toMatchObject({ appliance: "edge-1" });
  });
});
