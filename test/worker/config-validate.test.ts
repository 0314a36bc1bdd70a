import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ConfigValidationResult } from "../../src/schemas/config.ts";
import { call, json } from "./client.ts";
import { admin, getConfig, history } from "./config-client.ts";

type Result = z.output<typeof ConfigValidationResult>;
const validate = (body: unknown) => call("/api/v1/config/validate", json("POST", body, admin));

describe("validating without committing", () => {
  it("answers valid with what would change and whether a restart would be needed, committing nothing", async () => {
    const before = await getConfig();
    const response = await validate({
      fields: { "webUi.hostname": "bng-7.example.net" },
      listOps: [{ listPath: "vrfs", key: "cust-a", fields: { tableId: "300" } }],
    });
    expect(response.status).toBe(200);
    const result = await response.json<Result>();
    expect(result).toMatchObject({ valid: true, errors: [], restartRequired: true });
    expect(result.changedPaths).toEqual(
      expect.arrayContaining(["#/fields/webUi.hostname", "#/lists/vrfs/cust-a", "#/lists/vrfs/cust-a/tableId"]),
    );
    expect(await getConfig()).toEqual(before);
    expect((await history()).total).toBe(1);
  });

  it("answers 200 with every error a commit would be refused for", async () => {
    const response = await validate({
      fields: { "cgn.maxFlows": "0" },
      listOps: [{ listPath: "sourceVrfRules", key: "r1", fields: { ingestVrf: "nowhere", targetVrf: "default" } }],
    });
    expect(response.status).toBe(200);
    const result = await response.json<Result>();
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.pointer).sort()).toEqual([
      "#/fields/cgn.maxFlows",
      "#/lists/sourceVrfRules/r1/ingestVrf",
    ]);
    expect(result.errors.every((e) => e.in === "config")).toBe(true);
  });

  it("refuses a malformed body with 400 before validating", async () => {
    expect((await validate({ fields: { "webUi.hostname": 7 } })).status).toBe(400);
  });
});
