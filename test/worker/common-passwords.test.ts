/**
 * Issue #22 (ASVS 5.0 V6.2.4): a password on the common-password list is
 * refused wherever a password is set, with 422 naming the field and saying
 * why, never echoing it. The passwords below were looked up in the list
 * itself (@zxcvbn-ts/language-common's `passwords-common`, by rank):
 * `password123` 795th, `qwerty123` 271st, `iloveyou1` 6,576th, `password1` 228th.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { BOOTSTRAP_TOKEN, bearer, call, createUser, enrolAndLogin, json } from "./client.ts";

type Problem = z.output<typeof ProblemDetails>;
const admin = bearer(BOOTSTRAP_TOKEN);

/** The refusal: 422 problem+json, one error at the account's password, saying why and not repeating the password. */
async function expectCommonRefused(response: Response, username: string, password: string) {
  expect(response.status).toBe(422);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const text = await response.text();
  expect(text.toLowerCase()).not.toContain(password.toLowerCase());
  const problem = JSON.parse(text) as Problem;
  expect(problem.errors).toEqual([
    expect.objectContaining({
      pointer: `#/lists/login.users/${username}/password`,
      detail: expect.stringContaining("most commonly used"),
    }),
  ]);
}

describe("common passwords", () => {
  it("refuses one for a new account (POST /auth/users), and creates nothing", async () => {
    await expectCommonRefused(
      await call(
        "/api/v1/auth/users",
        json("POST", { username: "newbie", role: "operator", password: "password123" }, admin),
      ),
      "newbie",
      "password123",
    );
    expect((await call("/api/v1/auth/users/newbie", { headers: admin })).status).toBe(404);
  });

  it("refuses it in any letter case", async () => {
    await expectCommonRefused(
      await call(
        "/api/v1/auth/users",
        json("POST", { username: "newbie", role: "operator", password: "Password123" }, admin),
      ),
      "newbie",
      "Password123",
    );
  });

  it(
    "refuses one as an administrative reset (PUT /auth/users/{name}/password), and " + "the old password still works",
    async () => {
      await createUser("forgetful", "operator", "forgetful-pass-1");
      await expectCommonRefused(
        await call("/api/v1/auth/users/forgetful/password", json("PUT", { password: "qwerty123" }, admin)),
        "forgetful",
        "qwerty123",
      );
      expect(
        (await call("/api/v1/auth/login", json("POST", { username: "forgetful", password: "forgetful-pass-1" })))
          .status,
      ).toBe(200);
    },
  );

  it("refuses one as an account's own new password (POST /auth/password), and its session goes on", async () => {
    await createUser("self", "read-only", "self-password-1");
    const session = await enrolAndLogin("self", "self-password-1");
    const headers = { cookie: session.cookie, "x-csrf-token": session.csrfToken };
    await expectCommonRefused(
      await call(
        "/api/v1/auth/password",
        json("POST", { currentPassword: "self-password-1", newPassword: "iloveyou1" }, headers),
      ),
      "self",
      "iloveyou1",
    );
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(200);
  });

  it("refuses one written in clear through PUT /config and POST /config/validate", async () => {
    const change = {
      listOps: [{ listPath: "login.users", key: "scripted", fields: { role: "operator", password: "password1" } }],
    };
    await expectCommonRefused(await call("/api/v1/config", json("PUT", change, admin)), "scripted", "password1");
    const validated = await (await call("/api/v1/config/validate", json("POST", change, admin))).json<{
      valid: boolean;
      errors: { pointer: string; detail: string }[];
    }>();
    expect(validated.valid).toBe(false);
    expect(validated.errors).toEqual([
      expect.objectContaining({
        pointer: "#/lists/login.users/scripted/password",
        detail: expect.stringContaining("most commonly used"),
      }),
    ]);
  });

  it("accepts a password that is not on the list", async () => {
    expect(
      (
        await call(
          "/api/v1/auth/users",
          json("POST", { username: "careful", role: "operator", password: "tangerine-lamp-quarry-81" }, admin),
        )
      ).status,
    ).toBe(200);
    expect(
      (await call("/api/v1/auth/login", json("POST", { username: "careful", password: "tangerine-lamp-quarry-81" })))
        .status,
    ).toBe(200);
  });
});
