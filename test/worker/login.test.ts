import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { LoginResponse } from "../../src/schemas/auth.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { holdWallClock, totpCode } from "./totp.ts";
import { ADMIN_PASSWORD, call, cookieFrom, createUser, enrolAndLogin, json } from "./client.ts";
import { expectDocumented } from "./wire-check.ts";

const login = (body: Record<string, unknown>, appliance = "edge-1") =>
  call("/api/v1/auth/login", { appliance, ...json("POST", body) });

describe("login state machine", () => {
  it(
    "asks the bootstrap admin to enrol TOTP on first login, with a secret, an " + "otpauth URI and an enrolment token",
    async () => {
      const response = await login({ username: "admin", password: ADMIN_PASSWORD });
      expect(response.status).toBe(200);
      const body = await response.json<Record<string, string>>();
      expect(body.status).toBe("totpEnrolmentRequired");
      expect(body.secret).toMatch(/^[A-Z2-7]{16,}$/);
      expect(body.otpauthUri).toMatch(/^otpauth:\/\/totp\/.*secret=/);
      expect(body.enrolmentToken).toBeTruthy();
      expect(response.headers.get("set-cookie")).toBeNull();
    },
  );

  it("logs in after enrolment with the first code and returns the session's CSRF token", async () => {
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    expect(session.csrfToken.length).toBeGreaterThanOrEqual(32);
    const whoami = await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } });
    expect(await whoami.json()).toMatchObject({
      via: "session",
      username: "admin",
      role: "super-user",
      csrfToken: session.csrfToken,
    });
  });

  it("refuses an enrolment with a wrong first code and keeps the account unenrolled", async () => {
    const challenge = await (await login({ username: "admin", password: ADMIN_PASSWORD })).json<LoginResponse>();
    const enrol = await call(
      "/api/v1/auth/enrol",
      json("POST", { enrolmentToken: challenge.enrolmentToken, totpCode: "000000" }),
    );
    expect(enrol.status).toBe(401);
    expect((await login({ username: "admin", password: ADMIN_PASSWORD })).status).toBe(200);
    expect((await (await login({ username: "admin", password: ADMIN_PASSWORD })).json<LoginResponse>()).status).toBe(
      "totpEnrolmentRequired",
    );
  });

  it("refuses a forged enrolment token", async () => {
    const enrol = await call(
      "/api/v1/auth/enrol",
      json("POST", { enrolmentToken: "eyJhbGciOiJIUzI1NiJ9.e30.x", totpCode: "123456" }),
    );
    expect(enrol.status).toBe(401);
    expect(enrol.headers.get("content-type")).toBe("application/problem+json");
  });

  it("asks an enrolled account for its code, then accepts a valid one", async () => {
    holdWallClock();
    const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const withoutCode = await login({ username: "admin", password: ADMIN_PASSWORD });
    expect(await withoutCode.json()).toEqual({ status: "totpCodeRequired" });
    // The enrolment used the current step; the next login needs a code from a later step, so use the next one (±1 step
    // is accepted).
    const next = await totpCode(secret, 1);
    const withCode = await login({ username: "admin", password: ADMIN_PASSWORD, totpCode: next });
    expect(withCode.status).toBe(200);
    expect(await withCode.json()).toMatchObject({ status: "success", username: "admin", role: "super-user" });
  });

  it("accepts a code only once per account", async () => {
    holdWallClock();
    const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const code = await totpCode(secret, 1);
    expect((await login({ username: "admin", password: ADMIN_PASSWORD, totpCode: code })).status).toBe(200);
    const replay = await login({ username: "admin", password: ADMIN_PASSWORD, totpCode: code });
    expect(replay.status).toBe(401);
  });

  it("answers a wrong password, an unknown user and a wrong code alike", async () => {
    const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const wrongPassword = await login({ username: "admin", password: "nope-nope" });
    const unknownUser = await login({ username: "nobody", password: "nope-nope" });
    const wrongCode = await login({
      username: "admin",
      password: ADMIN_PASSWORD,
      totpCode: secret === "" ? "" : "000000",
    });
    for (const response of [wrongPassword, unknownUser, wrongCode]) {
      expect(response.status).toBe(401);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    }
    const details = await Promise.all(
      [wrongPassword, unknownUser, wrongCode].map(
        async (r) => (await r.json<z.output<typeof ProblemDetails>>()).detail,
      ),
    );
    expect(new Set(details).size).toBe(1);
  });

  it("makes every new account enrol, and gives it its own role", async () => {
    await createUser("olivia", "operator", "operator-password-1");
    const session = await enrolAndLogin("olivia", "operator-password-1");
    const whoami = await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } });
    expect(await whoami.json()).toMatchObject({ username: "olivia", role: "operator" });
  });
});

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Strict, Secure over HTTPS, Path=/, and carries at least 128 bits", async () => {
    const challenge = await (await login({ username: "admin", password: ADMIN_PASSWORD })).json<LoginResponse>();
    const enrolled = await call(
      "/api/v1/auth/enrol",
      json("POST", { enrolmentToken: challenge.enrolmentToken, totpCode: await totpCode(challenge.secret!) }),
    );
    const setCookie = enrolled.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^bng_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Strict");
    expect(setCookie).toContain("Secure");
    expect(setCookie).toContain("Path=/");
  });

  it("is a new id on every login", async () => {
    holdWallClock();
    const first = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const again = await login({
      username: "admin",
      password: ADMIN_PASSWORD,
      totpCode: await totpCode(first.secret, 1),
    });
    expect(again.status).toBe(200);
    expect(cookieFrom(again)).not.toBe(first.cookie);
  });

  it("leaves out Secure when the listener is plain HTTP", async () => {
    const response = await call("/api/v1/auth/login", json("POST", { username: "admin", password: ADMIN_PASSWORD }));
    const challenge = await response.json<LoginResponse>();
    const url = "http://edge-1.bng.localhost/api/v1/auth/enrol";
    const enrolled = await SELF.fetch(
      url,
      json("POST", { enrolmentToken: challenge.enrolmentToken, totpCode: await totpCode(challenge.secret!) }),
    );
    await expectDocumented("POST", url, enrolled);
    expect(enrolled.headers.get("set-cookie")).not.toContain("Secure");
  });

  it("ends server-side at logout", async () => {
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const logout = await call("/api/v1/auth/logout", {
      method: "POST",
      headers: { cookie: session.cookie, "x-csrf-token": session.csrfToken },
    });
    expect(await logout.json()).toEqual({ status: "loggedOut", username: "admin" });
    expect(logout.headers.get("set-cookie")).toContain("Max-Age=0");
    const after = await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } });
    expect(after.status).toBe(401);
  });
});
