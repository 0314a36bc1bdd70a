/**
 * "String filters are case-insensitive" (spec, GET /sessions) holds for the
 * enum-valued filters too: any case selects the same rows, and a value
 * outside the set is still a 400 naming the filter.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { call } from "./client.ts";
import { admin, advance, get } from "./helpers.ts";
import type { RoutePage } from "../../src/schemas/routing.ts";
import type { SessionList as Page } from "../../src/schemas/sessions.ts";

describe("enum-valued query filters", () => {
  it("select the same sessions whatever the case of encap", async () => {
    await advance(1800);
    const lower = await get<Page>("/api/v1/sessions?encap=pppoe-lac&limit=500");
    const upper = await get<Page>("/api/v1/sessions?encap=PPPOE-LAC&limit=500");
    expect(lower.total).toBeGreaterThan(0);
    expect(upper).toEqual(lower);
    expect(new Set(upper.items.map((s) => s.encap))).toEqual(new Set(["pppoe-lac"]));
  });

  it("select the same routes whatever the case of family and protocol", async () => {
    await advance(600);
    const lower = await get<RoutePage>("/api/v1/routing/vrfs/default/routes?family=ipv4&protocol=connected");
    const mixed = await get<RoutePage>("/api/v1/routing/vrfs/default/routes?family=IPv4&protocol=Connected");
    expect(lower.total).toBeGreaterThan(0);
    expect(mixed).toEqual(lower);
  });

  it("accept a local subscriber kind in any case", async () => {
    expect(await get("/api/v1/subscribers/local?kind=PPPoE")).toEqual(
      await get("/api/v1/subscribers/local?kind=pppoe"),
    );
  });

  it.each([
    ["/api/v1/sessions?encap=pppoa", "#/encap"],
    ["/api/v1/routing/vrfs/default/routes?protocol=rip", "#/protocol"],
    ["/api/v1/subscribers/local?kind=dhcp", "#/kind"],
  ])("refuses an unknown value: %s is 400 naming %s", async (path, pointer) => {
    const response = await call(path, { headers: admin });
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect((await response.json<z.output<typeof ProblemDetails>>()).errors).toEqual([
      expect.objectContaining({ in: "query", pointer }),
    ]);
  });
});
