/**
 * Deployed, the hostname picks the appliance: X-BNG-Appliance is the local
 * launcher's header (src/fleet/listener.ts), which nothing strips here, so a
 * client sending it must not reach another appliance with it.
 */
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("deployed", () => {
  it("ignores a client's X-BNG-Appliance: the hostname picks the appliance", async () => {
    const health = await SELF.fetch("https://edge-1.bng.localhost/api/v1/system/health", { headers: { "x-bng-appliance": "edge-2" } });
    expect(await health.json()).toMatchObject({ appliance: "edge-1" });
  });
});
