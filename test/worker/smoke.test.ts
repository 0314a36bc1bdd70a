import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";

describe("health", () => {
  it("answers anonymously", async () => {
    const response = await SELF.fetch("https://edge-1.bng.localhost/api/v1/system/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", appliance: "edge-1" });
  });
});
