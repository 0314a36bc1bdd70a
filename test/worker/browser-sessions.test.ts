import { describe, expect, it, vi } from "vitest";
import type { z } from "zod";
import type { BrowserSessionRecord } from "../../src/schemas/auth.ts";
import type { page } from "../../src/schemas/common.ts";
import { ADMIN_PASSWORD, BOOTSTRAP_TOKEN, bearer, call, createUser, enrolAndLogin, tokenWithRole } from "./client.ts";
import { logEntries } from "./config-client.ts";
import { holdWallClock, totpCode } from "./totp.ts";

const admin = bearer(BOOTSTRAP_TOKEN);
const list = async (headers: Record<string, string> = admin) =>
  (await call("/api/v1/auth/sessions", { headers })).json<
    z.output<ReturnType<typeof page<typeof BrowserSessionRecord>>>
  >();

describe("browser sessions", () => {
  it("lists who is logged in, newest first, marking the caller's own, with nothing usable as a cookie", async () => {
    const first = await enrolAndLogin("admin", ADMIN_PASSWORD);
    await createUser("noc", "read-only", "noc-password-1");
    const second = await enrolAndLogin("noc", "noc-password-1");
    const asAdmin = { cookie: first.cookie };
    const { total, items } = await list(asAdmin);
    expect(total).toBe(2);
    expect(items.map((s) => [s.username, s.role, s.current])).toEqual([
      ["noc", "read-only", false],
      ["admin", "super-user", true],
    ]);
    expect(items[0]!.id).toMatch(/^[0-9a-f]{16}$/);
    expect(Date.parse(items[0]!.expiresUtc) - Date.parse(items[0]!.lastSeenUtc)).toBe(30 * 60 * 1000);
    const text = JSON.stringify(items);
    for (const cookie of [first.cookie, second.cookie])
      expect(text).not.toContain(cookie.split("=")[1]!.split(";")[0]!);
  });

  it("ends one session at once, audited; the account's other sessions go on", async () => {
    holdWallClock();
    await createUser("shared", "operator", "shared-password");
    const laptop = await enrolAndLogin("shared", "shared-password");
    vi.setSystemTime(Date.now() + 1000); // the phone's session is the newer one
    const login = await call("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        username: "shared",
        password: "shared-password",
        totpCode: await totpCode(laptop.secret, 1),
      }),
    });
    expect(login.status).toBe(200);
    const phone = login.headers.get("set-cookie")!.split(";")[0]!;
    const { items } = await list();
    const oldest = items.at(-1)!;
    const ended = await call(`/api/v1/auth/sessions/${oldest.id}`, { method: "DELETE", headers: admin });
    expect(await ended.json()).toEqual({ status: "loggedOut", username: "shared" });
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: laptop.cookie } })).status).toBe(401);
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: phone } })).status).toBe(200);
    expect((await logEntries("auth.session.ended")).at(-1)?.fields).toEqual({
      session: oldest.id,
      username: "shared",
      by: "token:bootstrap",
    });
    expect((await call(`/api/v1/auth/sessions/${oldest.id}`, { method: "DELETE", headers: admin })).status).toBe(404);
  });

  it("is for super-users only", async () => {
    const operator = bearer(await tokenWithRole("operator"));
    expect((await call("/api/v1/auth/sessions", { headers: operator })).status).toBe(403);
    expect((await call("/api/v1/auth/sessions/0123456789abcdef", { method: "DELETE", headers: operator })).status).toBe(
      403,
    );
  });
});
