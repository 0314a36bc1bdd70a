import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { VrfRow } from "../../src/schemas/vrfs.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { SessionList } from "../../src/schemas/sessions.ts";
import { call, json } from "./client.ts";
import { admin, commit } from "./config-client.ts";

const scenario = (action: Record<string, unknown>) => call("/twin/v1/scenario", json("POST", action, admin));
const firstSession = async () => {
  expect((await scenario({ action: "advance-clock", seconds: 600 })).status).toBe(200);
  const list = await (await call("/api/v1/sessions?limit=2", { headers: admin })).json<SessionList>();
  return list.items.map((s) => s.id);
};
const capture = (id: number, destinationIp: string) =>
  call(
    `/api/v1/sessions/${id}/capture`,
    json("POST", { destinationIp, maxPackets: null, maxDurationSeconds: null }, admin),
  );

describe("hot-apply", () => {
  it("lists a committed VRF in GET /vrfs at once", async () => {
    await commit({ listOps: [{ listPath: "vrfs", key: "cust-hot", fields: { tableId: "700" } }] });
    const rows = await (await call("/api/v1/vrfs", { headers: admin })).json<z.output<typeof VrfRow>[]>();
    expect(rows.find((r) => r.name === "cust-hot")).toMatchObject({ configured: true, tableId: 700 });
  });

  it("refuses a capture outside a newly configured mirror allowlist with 403, at once", async () => {
    const [a, b] = await firstSession();
    expect((await capture(a!, "203.0.113.9")).status).toBe(200); // no allowlist: any collector
    await commit({ fields: { "captures.mirrorAllowlist": "192.0.2.0/24" } });
    const refused = await capture(b!, "203.0.113.9");
    expect(refused.status).toBe(403);
    expect((await refused.json<z.output<typeof ProblemDetails>>()).detail).toContain("allowlist");
    expect((await capture(b!, "192.0.2.77")).status).toBe(200);
  });

  it("applies the committed allowlist again after a restart", async () => {
    const [id] = await firstSession();
    await commit({ fields: { "captures.mirrorAllowlist": "192.0.2.1" } });
    await abortAllDurableObjects();
    expect((await capture(id!, "192.0.2.2")).status).toBe(403);
  });

  it("lifts the allowlist when it is cleared", async () => {
    const [id] = await firstSession();
    await commit({ fields: { "captures.mirrorAllowlist": "192.0.2.1" } });
    await commit({ fields: { "captures.mirrorAllowlist": null } });
    expect((await capture(id!, "198.51.100.1")).status).toBe(200);
  });
});
