import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { VrfRow } from "../../src/schemas/vrfs.ts";
import type { CommitResult } from "../../src/schemas/commit.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { SessionSummaryCounts } from "../../src/schemas/sessions.ts";
import { call, json } from "./client.ts";
import { admin, history, itemOf, getConfig, pointersOf, rejection } from "./config-client.ts";

type Row = z.output<typeof VrfRow>;

const list = async () => (await call("/api/v1/vrfs", { headers: admin })).json<Row[]>();
const create = (body: unknown) => call("/api/v1/vrfs", json("POST", body, admin));
const replace = (name: string, body: unknown) => call(`/api/v1/vrfs/${name}`, json("PUT", body, admin));
const remove = (name: string, query = "") => call(`/api/v1/vrfs/${name}${query}`, { method: "DELETE", headers: admin });
const rule = (body: unknown) => call("/api/v1/source-vrf-rules", json("POST", body, admin));

const CUST_A = {
  name: "cust-a",
  tableId: 1001,
  rd: "65000:1001",
  importRt: ["65000:1001", "192.0.2.1:7"],
  exportRt: ["65000:1001"],
  gatewayIp: "10.10.0.1",
  gatewayIpv6: "2001:db8:a::1",
  l2tpEndpointIp: "192.0.2.50",
  originateDefaultRoute: true,
  comment: "customer A",
};

describe("listing VRFs", () => {
  it("shows the seeded VRFs as configured, with their attributes and session counts", async () => {
    const rows = await list();
    // A row's configured attributes come from the keyed list at run time (KeyedList.rowFields): the schema's static
    // type names only the fixed members.
    expect(rows.filter((r) => r.configured).map((r) => [r.name, (r as Row & Record<string, unknown>).tableId])).toEqual(
      [
        ["cgn-inside", 100],
        ["wholesale", 101],
      ],
    );
    expect(rows[0]).toEqual({
      name: "cgn-inside",
      configured: true,
      sessions: 0,
      tableId: 100,
      rd: null,
      importRt: [],
      exportRt: [],
      gatewayIp: null,
      gatewayIpv6: null,
      l2tpEndpointIp: null,
      originateDefaultRoute: false,
    });
  });

  it("adds names seen only on live sessions, with counts only", async () => {
    expect(
      (await call("/twin/v1/scenario", json("POST", { action: "advance-clock", seconds: 600 }, admin))).status,
    ).toBe(200);
    const summary = await (await call("/api/v1/sessions/summary", { headers: admin })).json<SessionSummaryCounts>();
    const rows = await list();
    expect(rows.find((r) => r.name === "default")).toEqual({
      name: "default",
      configured: false,
      sessions: summary.byVrf.default,
    });
    expect(rows.find((r) => r.name === "cgn-inside")!.sessions).toBe(summary.byVrf["cgn-inside"]);
    // A configured VRF is not deleted while an address pool is placed in it (the pool's vrf refers to it).
    const refused = await remove("wholesale");
    expect(refused.status).toBe(409);
    expect((await refused.json<z.output<typeof ProblemDetails>>()).detail).toContain("addressPools 'wholesale-v4'");
    expect(rows.find((r) => r.name === "wholesale")).toMatchObject({
      configured: true,
      sessions: summary.byVrf.wholesale,
    });
  });
});

describe("creating a VRF", () => {
  it("commits it, lists it at once and records the comment", async () => {
    const response = await create(CUST_A);
    expect(response.status).toBe(200);
    const result = await response.json<CommitResult>();
    expect(result).toMatchObject({ status: "committed", name: "cust-a", version: 2, restartRequired: false });
    const { comment: _comment, ...attributes } = CUST_A;
    expect((await list()).find((r) => r.name === "cust-a")).toEqual({ ...attributes, configured: true, sessions: 0 });
    expect(itemOf(await getConfig(), "vrfs", "cust-a")?.values.importRt).toBe("65000:1001\n192.0.2.1:7");
    expect((await history()).items[0]).toMatchObject({ operation: "vrf", comment: "customer A" });
  });

  it("answers 409 when the name exists", async () => {
    await create(CUST_A);
    expect((await create({ ...CUST_A, tableId: 1002, rd: null })).status).toBe(409);
    expect((await create({ name: "wholesale", tableId: 1003 })).status).toBe(409);
  });

  it("answers 422 listing every rejected attribute, and commits nothing", async () => {
    const errors = await rejection(
      await create({
        name: "cust-b",
        tableId: 100,
        rd: "65000",
        importRt: ["65000:1", "nonsense", "4200000000:70000"],
        exportRt: ["300.1.1.1:5"],
        gatewayIp: "2001:db8::1",
        gatewayIpv6: "10.0.0.1",
        l2tpEndpointIp: "192.0.2.0/24",
      }),
    );
    expect(pointersOf(errors)).toEqual(
      ["tableId", "rd", "importRt", "exportRt", "gatewayIp", "gatewayIpv6", "l2tpEndpointIp"]
        .map((c) => `#/lists/vrfs/cust-b/${c}`)
        .sort(),
    );
    expect(errors.find((e) => e.pointer.endsWith("/importRt"))!.detail).toMatch(/'nonsense'.*'4200000000:70000'/);
    expect((await list()).some((r) => r.name === "cust-b")).toBe(false);
  });

  it("checks ranges: uint32 table ids, reserved tables, 4-byte ASNs with 2-byte numbers", async () => {
    for (const tableId of [-1, 2 ** 32, 254]) expect((await create({ name: "cust-c", tableId })).status).toBe(422);
    expect(
      (await create({ name: "cust-c", tableId: 2 ** 32 - 1, rd: "4200000000:65535", importRt: ["65000:4294967295"] }))
        .status,
    ).toBe(200);
    expect((await create({ name: "cust-d", tableId: 2000, rd: "4200000000:65536" })).status).toBe(422);
  });

  it("refuses a duplicate route distinguisher, and the name of the global table", async () => {
    await create(CUST_A);
    expect(pointersOf(await rejection(await create({ name: "cust-e", tableId: 2001, rd: "65000:1001" })))).toEqual([
      "#/lists/vrfs/cust-e/rd",
    ]);
    expect(pointersOf(await rejection(await create({ name: "default", tableId: 2002 })))).toEqual([
      "#/lists/vrfs/default",
    ]);
  });

  it("refuses a malformed body with 400", async () => {
    expect((await create({ name: "cust-f", tableId: "ten" })).status).toBe(400);
    expect((await create({ tableId: 5 })).status).toBe(400);
  });
});

describe("replacing a VRF", () => {
  it("replaces every attribute, the URL's name winning over the body's", async () => {
    await create(CUST_A);
    const response = await replace("cust-a", { name: "something-else", tableId: 1500, comment: "renumber" });
    expect(await response.json()).toMatchObject({ status: "committed", name: "cust-a" });
    const rows = await list();
    expect(rows.find((r) => r.name === "something-else")).toBeUndefined();
    expect(rows.find((r) => r.name === "cust-a")).toEqual({
      name: "cust-a",
      configured: true,
      sessions: 0,
      tableId: 1500,
      rd: null,
      importRt: [],
      exportRt: [],
      gatewayIp: null,
      gatewayIpv6: null,
      l2tpEndpointIp: null,
      originateDefaultRoute: false,
    });
    expect((await history()).items[0]).toMatchObject({ comment: "renumber", operation: "vrf" });
  });

  it("answers 404 for an unknown VRF and 422 for a clash", async () => {
    expect((await replace("ghost", { tableId: 5 })).status).toBe(404);
    await create(CUST_A);
    expect(pointersOf(await rejection(await replace("cust-a", { tableId: 101 })))).toEqual([
      "#/lists/vrfs/cust-a/tableId",
    ]);
  });
});

describe("deleting a VRF", () => {
  it("deletes it and records the comment", async () => {
    await create(CUST_A);
    const response = await remove("cust-a", "?comment=customer%20left");
    expect(await response.json()).toMatchObject({ status: "committed", name: "cust-a", version: 3 });
    expect((await list()).some((r) => r.name === "cust-a")).toBe(false);
    expect((await history()).items[0]).toMatchObject({
      comment: "customer left",
      changedPaths: expect.arrayContaining(["#/lists/vrfs/cust-a"]),
    });
  });

  it("answers 404 for an unknown VRF", async () => {
    expect((await remove("ghost")).status).toBe(404);
  });

  it("answers 409 while a source-VRF rule names it, and deletes it once the rule is gone", async () => {
    await create(CUST_A);
    expect(
      (await rule({ name: "to-a", ingestVrf: "default", sourceSubnets: ["198.51.100.0/24"], targetVrf: "cust-a" }))
        .status,
    ).toBe(200);
    const refused = await remove("cust-a");
    expect(refused.status).toBe(409);
    expect((await refused.json<z.output<typeof ProblemDetails>>()).detail).toContain(
      "sourceVrfRules 'to-a' (targetVrf)",
    );
    expect((await call("/api/v1/source-vrf-rules/to-a", { method: "DELETE", headers: admin })).status).toBe(200);
    expect((await remove("cust-a")).status).toBe(200);
  });

  it("is refused with 422 through PUT /config while a rule still names it, pointing at the VRF", async () => {
    await create(CUST_A);
    await rule({ name: "from-a", ingestVrf: "cust-a", targetVrf: "default" });
    const response = await call(
      "/api/v1/config",
      json("PUT", { listOps: [{ listPath: "vrfs", key: "cust-a", delete: true }] }, admin),
    );
    const errors = await rejection(response);
    expect(errors).toEqual([
      {
        in: "config",
        pointer: "#/lists/vrfs/cust-a",
        detail: expect.stringContaining("sourceVrfRules 'from-a' (ingestVrf)"),
      },
    ]);
    // Deleting the rule in the same change set is fine.
    const both = await call(
      "/api/v1/config",
      json(
        "PUT",
        {
          listOps: [
            { listPath: "sourceVrfRules", key: "from-a", delete: true },
            { listPath: "vrfs", key: "cust-a", delete: true },
          ],
        },
        admin,
      ),
    );
    expect(both.status).toBe(200);
  });
});
