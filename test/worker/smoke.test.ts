import { describe, expect, it } from "vitest";
import { call } from "./client.ts";

describe("health", () => {
  it("answers anonymously", async () => {
    const response = await call("/api/v1/system/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok", appliance: "edge-1" });
  });
});
