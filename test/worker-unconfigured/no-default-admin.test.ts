import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { adminSeed, startupRefusal } from "../../src/auth/bootstrap.ts";
import { call } from "../worker/client.ts";

describe("a deployed appliance without BNG_ADMIN_PASSWORD or a bootstrap token", () => {
  it("refuses the development default: login answers 503 naming the missing secret", async () => {
    const response = await call("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "admin", password: "bngfleet-admin" }),
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(((await response.json()) as z.output<typeof ProblemDetails>).detail).toContain(
      "wrangler secret put BNG_ADMIN_PASSWORD",
    );
  });

  it("serves nothing else either until one is set", async () => {
    expect((await call("/api/v1/system/health")).status).toBe(503);
  });
});

describe("the first admin's password", () => {
  it("is the configured one, the development default only in the local fleet, and otherwise one nobody knows", () => {
    expect(adminSeed({ BNG_ADMIN_PASSWORD: "chosen-password" }, "deployed")).toEqual({
      kind: "configured",
      password: "chosen-password",
    });
    expect(adminSeed({}, "local")).toEqual({ kind: "development-default", password: "bngfleet-admin" });
    expect(adminSeed({ BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(30) + "1rpRcy" }, "deployed")).toEqual({
      kind: "unusable",
    });
  });

  it("lets a deployed appliance with only a well-formed bootstrap token start, and refuses a malformed one", () => {
    expect(startupRefusal({ BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(30) + "1rpRcy" }, "deployed")).toBeNull();
    expect(
      startupRefusal({ BNG_ADMIN_PASSWORD: "x", BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(36) }, "deployed"),
    ).toContain("not a well-formed token");
  });
});
