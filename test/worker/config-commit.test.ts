import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { bearer, call, json, tokenWithRole } from "./client.ts";
import {
  admin,
  commit,
  getConfig,
  history,
  itemOf,
  logEntries,
  pointersOf,
  putConfig,
  rejection,
} from "./config-client.ts";

describe("committing a change set", () => {
  it("commits, answers the new version, and shows the change at once", async () => {
    const result = await commit({
      fields: { "captures.mirrorAllowlist": "192.0.2.10" },
      listOps: [
        {
          listPath: "bgp.neighbors",
          key: "192.0.2.1",
          delete: false,
          fields: { remoteAs: "64512", description: "transit" },
        },
      ],
      comment: "first neighbor",
    });
    expect(result).toMatchObject({ status: "committed", version: 2, restartRequired: false });
    expect(Date.parse(result.committedUtc ?? "")).not.toBeNaN();
    expect(result.changedPaths).toEqual(
      expect.arrayContaining([
        "#/fields/captures.mirrorAllowlist",
        "#/lists/bgp.neighbors/192.0.2.1",
        "#/lists/bgp.neighbors/192.0.2.1/remoteAs",
      ]),
    );
    const config = await getConfig();
    expect(config.fields["captures.mirrorAllowlist"]).toBe("192.0.2.10");
    expect(itemOf(config, "bgp.neighbors", "192.0.2.1")?.values).toEqual({
      remoteAs: "64512",
      description: "transit",
      bfd: "false",
      addressFamilies: "",
      password: null,
      holdTime: "90",
      keepAlive: "30",
      shutdown: "false",
    });
  });

  it("answers 422 listing every rejected path, and persists nothing", async () => {
    const before = await getConfig();
    const response = await putConfig({
      fields: {
        "webUi.hostname": "not a host!",
        "cgn.maxBindings": "4294967296",
        "no.such.key": "x",
        "ipsec.enabled": "maybe",
      },
      listOps: [
        {
          listPath: "vrfs",
          key: "cust-a",
          fields: { tableId: "100", rd: "65000", importRt: "65000:1\nbogus", gatewayIp: "10.0.0.256" },
        },
        { listPath: "vrfs", key: "cust-b", fields: {} },
        { listPath: "nope", key: "x", fields: {} },
      ],
    });
    const errors = await rejection(response);
    expect(pointersOf(errors)).toEqual(
      [
        "#/fields/cgn.maxBindings",
        "#/fields/ipsec.enabled",
        "#/fields/no.such.key",
        "#/fields/webUi.hostname",
        "#/lists/nope",
        "#/lists/vrfs/cust-a/gatewayIp",
        "#/lists/vrfs/cust-a/importRt",
        "#/lists/vrfs/cust-a/rd",
        "#/lists/vrfs/cust-a/tableId",
        "#/lists/vrfs/cust-b/tableId",
      ].sort(),
    );
    expect(errors.every((e) => e.in === "config" && e.detail.length > 0)).toBe(true);
    expect(errors.find((e) => e.pointer === "#/lists/vrfs/cust-a/tableId")!.detail).toContain("cgn-inside");
    expect(errors.find((e) => e.pointer === "#/lists/vrfs/cust-b/tableId")!.detail).toBe("required");
    expect(errors.find((e) => e.pointer === "#/fields/cgn.maxBindings")!.detail).toContain("uint32");
    expect(await getConfig()).toEqual(before);
    expect((await history()).total).toBe(1);
  });

  it("names an unknown path in the problem", async () => {
    const response = await putConfig({ fields: { "webUi.colour": "blue" } });
    expect(response.status).toBe(422);
    const problem = await response.json<z.output<typeof ProblemDetails>>();
    expect(problem.detail).toContain("webUi.colour");
    expect(problem.errors).toEqual([
      {
        in: "config",
        pointer: "#/fields/webUi.colour",
        detail: expect.stringContaining("unknown configuration path 'webUi.colour'"),
      },
    ]);
  });

  it("answers restartRequired exactly when a touched key applies on restart", async () => {
    expect(
      (await commit({ listOps: [{ listPath: "bgp.neighbors", key: "2001:db8::1", fields: { remoteAs: "65001" } }] }))
        .restartRequired,
    ).toBe(false);
    expect((await commit({ fields: { "webUi.hostname": "bng-1.example.net" } })).restartRequired).toBe(true);
    expect(
      (await commit({ fields: { "cgn.maxFlows": "500000", "captures.mirrorAllowlist": "192.0.2.0/24" } }))
        .restartRequired,
    ).toBe(true);
    expect((await commit({ fields: { "captures.mirrorAllowlist": "192.0.2.0/25" } })).restartRequired).toBe(false);
  });

  it("commits nothing new for a change set that changes nothing", async () => {
    const seeded = await getConfig();
    const result = await commit({ fields: { "webUi.hostname": seeded.fields["webUi.hostname"]! } });
    expect(result).toMatchObject({ status: "committed", version: 1, restartRequired: false, changedPaths: [] });
    expect((await history()).total).toBe(1);
  });

  it("audits every commit and every refusal in the log ring", async () => {
    await commit({ fields: { "cgn.maxBindings": "5000" }, comment: "more bindings" });
    await putConfig({ fields: { "cgn.maxBindings": "-1" } });
    const [committed] = await logEntries("config.commit");
    expect(committed!.fields).toEqual({
      version: 2,
      operation: "config",
      actor: "token:bootstrap",
      comment: "more bindings",
      changes: 1,
      restartRequired: true,
    });
    const [rejected] = await logEntries("config.rejected");
    expect(rejected!.fields).toEqual({ operation: "config", actor: "token:bootstrap", errors: 1 });
  });

  it("is for super-users: an operator is refused", async () => {
    const operator = await tokenWithRole("operator");
    expect((await call("/api/v1/config", json("PUT", { fields: {} }, bearer(operator)))).status).toBe(403);
    expect((await call("/api/v1/config", { headers: bearer(operator) })).status).toBe(200);
    expect((await call("/api/v1/config", { headers: admin })).status).toBe(200);
  });
});
