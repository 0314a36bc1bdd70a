/**
 * VRFs leak routes by matching route targets (spec): what one VRF of the
 * box exports with a route target appears in the table of every other VRF
 * that imports that target, and in no other.
 */
import { describe, expect, it } from "vitest";
import { call, json } from "./client.ts";
import { admin, advance, get } from "./helpers.ts";
import type { RoutePage as Page } from "../../src/schemas/routing.ts";

const post = (path: string, body: unknown) => call(path, json("POST", body, admin));
const put = (path: string, body: unknown) => call(path, json("PUT", body, admin));

describe("route-target leaking between VRFs", () => {
  it(
    "puts an exporting VRF's announced routes in the table of a VRF importing its " + "target, and not elsewhere",
    async () => {
      const vrf = (name: string, tableId: number, rt: { importRt?: string[]; exportRt?: string[] }) =>
        post("/api/v1/vrfs", { name, tableId, rd: `65000:${tableId}`, ...rt });
      expect((await vrf("cust-a", 2001, { exportRt: ["65000:77"] })).status).toBe(200);
      expect((await vrf("cust-b", 2002, { importRt: ["65000:77"] })).status).toBe(200);
      expect((await vrf("cust-c", 2003, { importRt: ["65000:78"] })).status).toBe(200);
      const statics = await put("/api/v1/routing/config/static-routes", {
        routes: [{ vrf: "cust-a", prefix: "198.51.100.0/24", nextHop: "blackhole", announce: true }],
      });
      expect(statics.status, await statics.clone().text()).toBe(200);
      await advance(60);

      const table = (name: string) => get<Page>(`/api/v1/routing/vrfs/${name}/routes?filter=198.51.100&limit=500`);
      expect((await table("cust-a")).routes.map((r) => r.prefix)).toContain("198.51.100.0/24");
      expect((await table("cust-b")).routes.map((r) => r.prefix)).toEqual(["198.51.100.0/24"]);
      expect((await table("cust-c")).total).toBe(0);
      expect((await table("default")).total).toBe(0);
    },
  );
});
