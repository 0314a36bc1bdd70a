import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { LoginResponse, OidcProviderRecord, TokenCreated, TokenPage, UserPage } from "../../src/schemas/auth.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { BOOTSTRAP_TOKEN, bearer, call, createUser, enrolAndLogin, json } from "./client.ts";
import { readToEnd } from "./event-stream.ts";

type Created = z.output<typeof TokenCreated>;
type Problem = z.output<typeof ProblemDetails>;

const admin = bearer(BOOTSTRAP_TOKEN);
const getUser = async (name: string) => call(`/api/v1/auth/users/${name}`, { headers: admin });

describe("user management", () => {
  it("creates an account that must enrol, lists it and shows it", async () => {
    const created = await call(
      "/api/v1/auth/users",
      json("POST", { username: "noc.viewer", role: "read-only", password: "viewer-password" }, admin),
    );
    expect(await created.json()).toEqual({ status: "created", username: "noc.viewer" });
    const list = await (await call("/api/v1/auth/users", { headers: admin })).json<z.output<typeof UserPage>>();
    expect(list.items.map((u) => u.username)).toEqual(["admin", "noc.viewer"]);
    expect(list.total).toBe(2);
    expect(await (await getUser("noc.viewer")).json()).toMatchObject({
      username: "noc.viewer",
      role: "read-only",
      totpEnrolled: false,
      enrolmentRequired: true,
      lockouts: [],
    });
  });

  it("never shows a password hash or TOTP secret", async () => {
    const session = await enrolAndLogin("admin", "test-admin-password");
    const text = await (await call("/api/v1/auth/users", { headers: admin })).text();
    expect(text).not.toContain("pbkdf2");
    expect(text).not.toContain(session.secret);
  });

  it("refuses a duplicate account and an invalid username, naming the field", async () => {
    await createUser("dup", "operator", "password-123");
    expect(
      (
        await call(
          "/api/v1/auth/users",
          json("POST", { username: "dup", role: "operator", password: "password-123" }, admin),
        )
      ).status,
    ).toBe(409);
    const bad = await call(
      "/api/v1/auth/users",
      json("POST", { username: "Bad Name", role: "operator", password: "short" }, admin),
    );
    expect(bad.status).toBe(400);
    const pointers = (await bad.json<Problem>()).errors!.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(["#/username", "#/password"]));
  });

  it("changes a role with immediate effect on open sessions", async () => {
    await createUser("ops", "read-only", "ops-password-1");
    const session = await enrolAndLogin("ops", "ops-password-1");
    await call("/api/v1/auth/users/ops", json("PATCH", { role: "operator" }, admin));
    expect(await (await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).json()).toMatchObject({
      role: "operator",
    });
  });

  it("keeps the last super-user: no demotion, no deletion (422, pointing at the account)", async () => {
    const demoted = await call("/api/v1/auth/users/admin", json("PATCH", { role: "operator" }, admin));
    expect(demoted.status).toBe(422);
    expect((await demoted.json<Problem>()).errors!.map((e) => e.pointer)).toEqual(["#/lists/login.users/admin/role"]);
    const deleted = await call("/api/v1/auth/users/admin", { method: "DELETE", headers: admin });
    expect(deleted.status).toBe(422);
    expect((await deleted.json<Problem>()).errors!.map((e) => e.pointer)).toEqual(["#/lists/login.users/admin"]);
    expect(await (await getUser("admin")).json()).toMatchObject({ role: "super-user" });
    await createUser("second", "super-user", "second-password");
    expect((await call("/api/v1/auth/users/admin", json("PATCH", { role: "operator" }, admin))).status).toBe(200);
  });

  it("deletes an account and ends its sessions", async () => {
    await createUser("leaver", "operator", "leaver-password");
    const session = await enrolAndLogin("leaver", "leaver-password");
    expect(await (await call("/api/v1/auth/users/leaver", { method: "DELETE", headers: admin })).json()).toEqual({
      status: "deleted",
      username: "leaver",
    });
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(401);
    expect((await getUser("leaver")).status).toBe(404);
  });

  it(
    "revokes the tokens a deleted account created (?revokeTokens=true still " +
      "accepted), and names each token's creator",
    async () => {
      await createUser("leaver", "super-user", "leaver-password");
      const session = await enrolAndLogin("leaver", "leaver-password");
      const created = await call(
        "/api/v1/auth/tokens",
        json(
          "POST",
          { name: "leavers-script", role: "super-user" },
          { cookie: session.cookie, "x-csrf-token": session.csrfToken },
        ),
      );
      const { token } = (await created.json()) as Created;
      const list = (await (await call("/api/v1/auth/tokens", { headers: admin })).json()) as z.output<typeof TokenPage>;
      expect(list.items.find((t) => t.name === "leavers-script")?.createdBy).toBe("user:leaver");
      expect(
        (await call("/api/v1/auth/users/leaver?revokeTokens=true", { method: "DELETE", headers: admin })).status,
      ).toBe(200);
      expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(401);
    },
  );

  it("revokes on demotion only the tokens that outrank the new role, when asked (revokeTokens: true)", async () => {
    await createUser("mover", "super-user", "mover-password");
    const session = await enrolAndLogin("mover", "mover-password");
    const make = async (name: string, role: string) =>
      (
        (await (
          await call(
            "/api/v1/auth/tokens",
            json("POST", { name, role }, { cookie: session.cookie, "x-csrf-token": session.csrfToken }),
          )
        ).json()) as Created
      ).token;
    const high = await make("mover-admin", "super-user");
    const low = await make("mover-reader", "read-only");
    const demoted = await call(
      "/api/v1/auth/users/mover",
      json("PATCH", { role: "operator", revokeTokens: true }, admin),
    );
    expect(demoted.status).toBe(200);
    expect((await call("/api/v1/auth/whoami", { headers: bearer(high) })).status).toBe(401);
    expect((await call("/api/v1/auth/whoami", { headers: bearer(low) })).status).toBe(200);
  });

  it("sets a password administratively: the old one stops working and sessions end", async () => {
    await createUser("forgetful", "operator", "old-password-1");
    const session = await enrolAndLogin("forgetful", "old-password-1");
    await call("/api/v1/auth/users/forgetful/password", json("PUT", { password: "new-password-1" }, admin));
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(401);
    expect(
      (await call("/api/v1/auth/login", json("POST", { username: "forgetful", password: "old-password-1" }))).status,
    ).toBe(401);
    expect(
      (await call("/api/v1/auth/login", json("POST", { username: "forgetful", password: "new-password-1" }))).status,
    ).toBe(200);
  });

  it("lets an account change its own password with the current one", async () => {
    await createUser("self", "read-only", "self-password-1");
    const session = await enrolAndLogin("self", "self-password-1");
    const headers = { cookie: session.cookie, "x-csrf-token": session.csrfToken };
    expect(
      (
        await call(
          "/api/v1/auth/password",
          json("POST", { currentPassword: "wrong-one", newPassword: "self-password-2" }, headers),
        )
      ).status,
    ).toBe(401);
    expect(
      (
        await call(
          "/api/v1/auth/password",
          json("POST", { currentPassword: "self-password-1", newPassword: "self-password-2" }, headers),
        )
      ).status,
    ).toBe(200);
    expect(
      await (await call("/api/v1/auth/login", json("POST", { username: "self", password: "self-password-2" }))).json(),
    ).toEqual({ status: "totpCodeRequired" });
  });

  it("resets TOTP enrolment: the next login enrols again", async () => {
    await createUser("lostphone", "operator", "lostphone-pass");
    const { secret } = await enrolAndLogin("lostphone", "lostphone-pass");
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await call("/api/v1/auth/users/lostphone/totp/reset", { method: "POST", headers: admin });
    const again = await (
      await call("/api/v1/auth/login", json("POST", { username: "lostphone", password: "lostphone-pass" }))
    ).json<LoginResponse>();
    expect(again.status).toBe("totpEnrolmentRequired");
    expect(again.secret).not.toBe(secret);
  });

  it("answers 404 for an unknown account", async () => {
    for (const [path, init] of [
      ["/api/v1/auth/users/nobody", { headers: admin }],
      ["/api/v1/auth/users/nobody", json("PATCH", { role: "operator" }, admin)],
      ["/api/v1/auth/users/nobody/unlock", { method: "POST", headers: admin }],
    ] as const) {
      expect((await call(path, init)).status).toBe(404);
    }
  });
});

describe("OIDC providers and passkey policy", () => {
  const provider = {
    enabled: true,
    displayName: "Corp SSO",
    issuer: "https://sso.example.net",
    clientId: "bng",
    clientSecret: "s3cret-value",
    roleMap: { "noc-admins": "super-user", noc: "read-only" },
  };

  it("keeps the client secret write-only and accepts the object form of roleMap", async () => {
    expect(await (await call("/api/v1/auth/providers/oidc/corp", json("PUT", provider, admin))).json()).toEqual({
      status: "created",
    });
    const text = await (await call("/api/v1/auth/providers/oidc", { headers: admin })).text();
    expect(text).not.toContain("s3cret-value");
    const [stored] = JSON.parse(text) as OidcProviderRecord[];
    expect(stored).toMatchObject({
      name: "corp",
      clientSecretSet: true,
      scopes: ["openid"],
      roleMap: [
        { group: "noc-admins", role: "super-user" },
        { group: "noc", role: "read-only" },
      ],
    });
  });

  it("requires the secret on create, keeps it when omitted on update, and deletes", async () => {
    const { clientSecret: _omitted, ...withoutSecret } = provider;
    expect((await call("/api/v1/auth/providers/oidc/corp", json("PUT", withoutSecret, admin))).status).toBe(400);
    await call("/api/v1/auth/providers/oidc/corp", json("PUT", provider, admin));
    expect(
      await (
        await call("/api/v1/auth/providers/oidc/corp", json("PUT", { ...withoutSecret, displayName: "SSO" }, admin))
      ).json(),
    ).toEqual({ status: "updated" });
    const one = await (await call("/api/v1/auth/providers/oidc/corp", { headers: admin })).json();
    expect(one).toMatchObject({
      name: "corp",
      displayName: "SSO",
      clientSecretSet: true,
      callbackPath: "/api/v1/auth/oidc/corp/callback",
    });
    expect(JSON.stringify(one)).not.toContain("s3cret-value");
    expect(await (await call("/api/v1/auth/providers/oidc/corp", { method: "DELETE", headers: admin })).json()).toEqual(
      { status: "deleted" },
    );
    expect((await call("/api/v1/auth/providers/oidc/corp", { headers: admin })).status).toBe(404);
    expect((await call("/api/v1/auth/providers/oidc/corp", { method: "DELETE", headers: admin })).status).toBe(404);
  });

  it("reads and replaces the passkey policy", async () => {
    expect(await (await call("/api/v1/auth/providers/passkey", { headers: admin })).json()).toMatchObject({
      enabled: false,
    });
    const policy = { enabled: true, rpId: "bng.example.net", userVerification: "required", replacesTotp: true };
    await call("/api/v1/auth/providers/passkey", json("PUT", policy, admin));
    expect(await (await call("/api/v1/auth/providers/passkey", { headers: admin })).json()).toEqual(policy);
  });
});

/** An account with a session, and a token it created for itself. */
async function accountWithToken(
  username: string,
): Promise<{ token: string; session: Awaited<ReturnType<typeof enrolAndLogin>> }> {
  await createUser(username, "super-user", `${username}-password-1`);
  const session = await enrolAndLogin(username, `${username}-password-1`);
  const created = await call(
    "/api/v1/auth/tokens",
    json(
      "POST",
      { name: `${username}-script`, role: "read-only" },
      { cookie: session.cookie, "x-csrf-token": session.csrfToken },
    ),
  );
  const { token } = (await created.json()) as Created;
  expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(200);
  return { token, session };
}

// ASVS 5.0 V7.4.2: however an account goes, its tokens and sessions go with it (issue #22).
describe("a deleted account's credentials", () => {
  it.each(["", "?revokeTokens=false"])(
    "end when the account is deleted through DELETE /auth/users/{name}%s",
    async (query) => {
      const { token, session } = await accountWithToken("leaver");
      expect((await call(`/api/v1/auth/users/leaver${query}`, { method: "DELETE", headers: admin })).status).toBe(200);
      expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(401);
      expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(401);
    },
  );

  it("end when a configuration change set deletes the account (PUT /config)", async () => {
    const { token, session } = await accountWithToken("leaver");
    const put = await call(
      "/api/v1/config",
      json("PUT", { listOps: [{ listPath: "login.users", key: "leaver", delete: true }] }, admin),
    );
    expect(put.status).toBe(200);
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(401);
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(401);
  });

  it("end when a rollback returns to a version without the account, and stay ended when it comes back", async () => {
    const before = (
      await (await call("/api/v1/config/history?limit=1", { headers: admin })).json<{ items: { version: number }[] }>()
    ).items[0]!.version;
    const { token, session } = await accountWithToken("leaver");
    const afterCreate = (
      await (await call("/api/v1/config/history?limit=1", { headers: admin })).json<{ items: { version: number }[] }>()
    ).items[0]!.version;
    expect((await call("/api/v1/config/rollback", json("POST", { version: before }, admin))).status).toBe(200);
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(401);
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(401);
    // Rolling forward restores the account, not the credentials it had.
    expect((await call("/api/v1/config/rollback", json("POST", { version: afterCreate }, admin))).status).toBe(200);
    expect((await getUser("leaver")).status).toBe(200);
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(401);
  });

  it("end the log stream a deleted account's token opened", async () => {
    const { token } = await accountWithToken("watcher");
    const response = await call("/api/v1/logs/stream", { headers: bearer(token) });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    expect((await call("/api/v1/auth/users/watcher", { method: "DELETE", headers: admin })).status).toBe(200);
    expect(await readToEnd(reader)).toContain("event: closed\n");
  });

  it("keeps other accounts' tokens", async () => {
    const { token } = await accountWithToken("stayer");
    await accountWithToken("leaver");
    expect((await call("/api/v1/auth/users/leaver", { method: "DELETE", headers: admin })).status).toBe(200);
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(200);
  });
});
