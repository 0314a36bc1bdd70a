import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { ADMIN_PASSWORD, BOOTSTRAP_TOKEN, bearer, call, createUser, enrolAndLogin, json } from "./client.ts";

const newToken = (headers: Record<string, string>) =>
  call(
    "/api/v1/auth/tokens",
    json("POST", { name: `csrf-${crypto.randomUUID().slice(0, 6)}`, role: "read-only" }, headers),
  );

describe("CSRF", () => {
  it("refuses a cookie-authenticated change without X-CSRF-Token", async () => {
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const response = await newToken({ cookie });
    expect(response.status).toBe(403);
    expect((await response.json<z.output<typeof ProblemDetails>>()).detail).toContain("X-CSRF-Token");
  });

  it("refuses a cookie-authenticated change with a tampered token of the same session", async () => {
    const a = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const response = await newToken({
      cookie: a.cookie,
      "x-csrf-token": a.csrfToken.replace(/^./, (c) => (c === "A" ? "B" : "A")),
    });
    expect(response.status).toBe(403);
  });

  it("refuses a cookie-authenticated change carrying another session's valid token", async () => {
    await createUser("second-admin", "super-user", "second-admin-password");
    const a = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const b = await enrolAndLogin("second-admin", "second-admin-password");
    // B's token is a good one (its own session takes it), but never with A's cookie.
    expect((await newToken({ cookie: a.cookie, "x-csrf-token": b.csrfToken })).status).toBe(403);
    expect((await newToken({ cookie: b.cookie, "x-csrf-token": a.csrfToken })).status).toBe(403);
    expect((await newToken({ cookie: b.cookie, "x-csrf-token": b.csrfToken })).status).toBe(200);
  });

  it("accepts a cookie-authenticated change carrying the session's token", async () => {
    const { cookie, csrfToken } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    expect((await newToken({ cookie, "x-csrf-token": csrfToken })).status).toBe(200);
  });

  it("needs no token for cookie-authenticated reads", async () => {
    const { cookie } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    expect((await call("/api/v1/auth/whoami", { headers: { cookie } })).status).toBe(200);
  });

  it("exempts bearer tokens", async () => {
    expect((await newToken(bearer(BOOTSTRAP_TOKEN))).status).toBe(200);
  });
});
