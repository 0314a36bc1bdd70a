import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { LoginResponse } from "../../src/schemas/auth.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { call } from "../worker/client.ts";
import { totpCode } from "../worker/totp.ts";

type Problem = z.output<typeof ProblemDetails>;

const DEFAULT_PASSWORD = "bngfleet-admin"; // README, "Logging in"

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  call(path, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

/**
 * Signs in as a person would: password, enrolment with the first code; returns the cookie and CSRF token and the reply.
 */
async function enrol(password: string) {
  const challenge = (await (await post("/api/v1/auth/login", { username: "admin", password })).json()) as LoginResponse;
  expect(challenge.status).toBe("totpEnrolmentRequired");
  const enrolled = await post("/api/v1/auth/enrol", {
    enrolmentToken: challenge.enrolmentToken,
    totpCode: await totpCode(challenge.secret!),
  });
  const reply = (await enrolled.json()) as LoginResponse;
  const cookie = enrolled.headers.get("set-cookie")!.split(";")[0]!;
  return { reply, cookie, secret: challenge.secret! };
}

describe("first sign-in with the development default password (local fleet)", () => {
  it("signs in, but flags the session as needing a password change in the reply and in whoami", async () => {
    const { reply, cookie } = await enrol(DEFAULT_PASSWORD);
    expect(reply).toMatchObject({ status: "success", username: "admin", passwordChangeRequired: true });
    const whoami = await call("/api/v1/auth/whoami", { headers: { cookie } });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ username: "admin", passwordChangeRequired: true });
  });

  it("refuses every other operation with 403 until the password is changed", async () => {
    const { reply, cookie } = await enrol(DEFAULT_PASSWORD);
    const sessions = await call("/api/v1/sessions", { headers: { cookie } });
    expect(sessions.status).toBe(403);
    expect(sessions.headers.get("content-type")).toBe("application/problem+json");
    expect(((await sessions.json()) as Problem).detail).toContain("POST /api/v1/auth/password");
    const token = await post(
      "/api/v1/auth/tokens",
      { name: "escape", role: "super-user" },
      { cookie, "x-csrf-token": reply.csrfToken! },
    );
    expect(token.status).toBe(403);
  });

  it(
    "refuses a common password as the new one with 422 naming the field (issue #22), " +
      "and the session still must change it",
    async () => {
      const { reply, cookie } = await enrol(DEFAULT_PASSWORD);
      // `password123`: the 795th of @zxcvbn-ts/language-common's common passwords.
      const common = await post(
        "/api/v1/auth/password",
        { currentPassword: DEFAULT_PASSWORD, newPassword: "password123" },
        { cookie, "x-csrf-token": reply.csrfToken! },
      );
      expect(common.status).toBe(422);
      const problem = (await common.json()) as Problem;
      expect(problem.errors).toEqual([
        expect.objectContaining({
          pointer: "#/lists/login.users/admin/password",
          detail: expect.stringContaining("most commonly used"),
        }),
      ]);
      expect(await (await call("/api/v1/auth/whoami", { headers: { cookie } })).json()).toMatchObject({
        passwordChangeRequired: true,
      });
    },
  );

  it(
    "refuses the default as the new password, then takes another; the new password " + "signs in without the flag",
    async () => {
      const { reply, cookie, secret } = await enrol(DEFAULT_PASSWORD);
      const headers = { cookie, "x-csrf-token": reply.csrfToken! };
      const same = await post(
        "/api/v1/auth/password",
        { currentPassword: DEFAULT_PASSWORD, newPassword: DEFAULT_PASSWORD },
        headers,
      );
      expect(same.status).toBe(400);
      expect(((await same.json()) as Problem).errors![0]!.pointer).toBe("#/newPassword");
      const changed = await post(
        "/api/v1/auth/password",
        { currentPassword: DEFAULT_PASSWORD, newPassword: "a-better-password" },
        headers,
      );
      expect(changed.status).toBe(200);
      expect((await post("/api/v1/auth/login", { username: "admin", password: DEFAULT_PASSWORD })).status).toBe(401);
      // A later code step than the enrolment's: each code is accepted once.
      const nextCode = await totpCode(secret, 1);
      const again = await post("/api/v1/auth/login", {
        username: "admin",
        password: "a-better-password",
        totpCode: nextCode,
      });
      const body = (await again.json()) as LoginResponse;
      expect(body.status).toBe("success");
      expect(body.passwordChangeRequired).toBeUndefined();
      const whoami = await call("/api/v1/auth/whoami", {
        headers: { cookie: again.headers.get("set-cookie")!.split(";")[0]! },
      });
      expect(await whoami.json()).toMatchObject({ passwordChangeRequired: false });
    },
  );
});

describe("the client's address behind the local listener", () => {
  it("is the listener's X-BNG-Peer-Address: a client-set CF-Connecting-IP changes nothing", async () => {
    const relayed = (i: number) => ({
      "x-bng-wiring": env.BNG_WIRING_SECRET!,
      "x-bng-peer-address": "192.0.2.9",
      "cf-connecting-ip": `198.51.100.${i}`,
    });
    for (let i = 1; i <= 5; i++) {
      const failed = await post("/api/v1/auth/login", { username: "admin", password: "wrong-password" }, relayed(i));
      expect(failed.status).toBe(401);
    }
    const locked = await post("/api/v1/auth/login", { username: "admin", password: DEFAULT_PASSWORD }, relayed(77));
    expect(locked.status).toBe(423);
    expect(((await locked.json()) as Problem).detail).toContain("from 192.0.2.9");
  });
});
