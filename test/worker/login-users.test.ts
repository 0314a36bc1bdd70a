import { abortAllDurableObjects, env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { profileNamed } from "../../durable-objects/profiles.ts";
import { seedDocument } from "../../src/config/seed.ts";
import { validateDocument } from "../../src/config/validate.ts";
import { applianceNamed } from "../../src/fleet/definition.ts";
import { hashPassword } from "../../src/trust/password.ts";
import { ADMIN_PASSWORD, call, createUser, enrolAndLogin, json } from "./client.ts";
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
  storedDocument,
} from "./config-client.ts";

const login = (username: string, password: string) => call("/api/v1/auth/login", json("POST", { username, password }));
const user = (name: string) => call(`/api/v1/auth/users/${name}`, { headers: admin });
const storedItem = (doc: Awaited<ReturnType<typeof storedDocument>>, list: string, key: string) =>
  doc.lists[list]?.find((item) => item.key === key);
const addUser = (key: string, fields: Record<string, string | null>) => ({
  listOps: [{ listPath: "login.users", key, fields }],
});

/**
 * A hash in the stored form docs/decisions.md documents, made here with WebCrypto at 1,000 iterations (an old
 * import's).
 */
async function weakHash(): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode("imported-password"), "PBKDF2", false, [
    "deriveBits",
  ]);
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: new Uint8Array(16).fill(0xab), iterations: 1000 },
    key,
    256,
  );
  const hex = [...new Uint8Array(bits)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `pbkdf2-sha256$1000$${"ab".repeat(16)}$${hex}`;
}

describe("login.users in the configuration", () => {
  it("shows the accounts with their roles and the password redacted", async () => {
    const config = await getConfig();
    expect(itemOf(config, "login.users", "admin")).toEqual({
      key: "admin",
      values: { role: "super-user", password: "********" },
    });
    expect(JSON.stringify(config)).not.toContain("pbkdf2");
  });

  it(
    "creates an account from a change set: the clear password is hashed, and the " + "account enrols and logs in",
    async () => {
      const result = await commit({
        ...addUser("noc", { role: "operator", password: "noc-password-1" }),
        comment: "NOC desk",
      });
      expect(result.changedPaths).toContain("#/lists/login.users/noc");
      const stored = storedItem(await storedDocument(), "login.users", "noc")!.values.password as string;
      expect(stored).toMatch(/^pbkdf2-sha256\$100000\$[0-9a-f]{32}\$[0-9a-f]{64}$/);
      expect(stored).not.toContain("noc-password-1");
      const session = await enrolAndLogin("noc", "noc-password-1");
      expect(await (await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).json()).toMatchObject({
        username: "noc",
        role: "operator",
      });
    },
  );

  it("accepts a stored hash, as copied from another appliance", async () => {
    await commit(addUser("copied", { role: "read-only", password: await hashPassword("copied-password") }));
    expect((await login("copied", "copied-password")).status).toBe(200);
  });

  it(
    "refuses an imported hash below the appliance's own 100,000 iterations (issue " +
      "#22), naming the field, and stores nothing",
    async () => {
      const weak = await weakHash();
      const errors = await rejection(await putConfig(addUser("imported", { role: "operator", password: weak })));
      expect(pointersOf(errors)).toEqual(["#/lists/login.users/imported/password"]);
      expect(errors[0]!.detail).toContain("1,000 PBKDF2 iterations");
      expect(errors[0]!.detail).toContain("100,000");
      expect((await user("imported")).status).toBe(404);
    },
  );

  it(
    "keeps valid a weak hash the configuration already holds: the floor applies to " + "what a change brings in",
    async () => {
      const weak = await weakHash();
      const profile = profileNamed("small");
      const seeded = (passwordHash: string) =>
        seedDocument({
          definition: { ...applianceNamed(env, "edge-1")!, profile: "small" },
          listener: "https://127.0.0.1:8443",
          peers: [],
          profile,
          localFleet: false,
          accounts: [{ username: "old", role: "super-user", passwordHash }],
        });
      const context = { appliance: "edge-1", profile };
      expect(validateDocument(seeded(weak), seeded(weak), context)).toEqual([]);
      expect(
        validateDocument(seeded(weak), seeded(await hashPassword("another-password")), context).map((e) => e.pointer),
      ).toEqual(["#/lists/login.users/old/password"]);
    },
  );

  it("refuses a password the policy refuses, naming the field, and stores nothing", async () => {
    const errors = await rejection(await putConfig(addUser("weak", { role: "operator", password: "short" })));
    expect(pointersOf(errors)).toEqual(["#/lists/login.users/weak/password"]);
    expect(JSON.stringify(errors)).not.toContain('short"');
    expect((await user("weak")).status).toBe(404);
    expect(itemOf(await getConfig(), "login.users", "weak")).toBeUndefined();
  });

  it("refuses a role that is not one, and an account name the CLI could not use", async () => {
    const role = await rejection(await putConfig(addUser("ops", { role: "root", password: "long-enough-1" })));
    expect(pointersOf(role)).toEqual(["#/lists/login.users/ops/role"]);
    const name = await rejection(await putConfig(addUser("Bad Name", { role: "operator", password: "long-enough-1" })));
    expect(pointersOf(name)).toEqual(["#/lists/login.users/Bad Name"]);
  });

  it("leaves the password as it is when the placeholder is written back", async () => {
    await createUser("keeper", "read-only", "keeper-password");
    const before = storedItem(await storedDocument(), "login.users", "keeper")!.values.password;
    await commit(addUser("keeper", { role: "operator", password: "********" }));
    expect(storedItem(await storedDocument(), "login.users", "keeper")!.values).toEqual({
      role: "operator",
      password: before,
    });
    expect((await login("keeper", "keeper-password")).status).toBe(200);
  });

  it("ends the account's sessions when a change set sets a new password", async () => {
    await createUser("rotated", "operator", "rotated-password-1");
    const session = await enrolAndLogin("rotated", "rotated-password-1");
    await commit(addUser("rotated", { password: "rotated-password-2" }));
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(401);
    expect((await login("rotated", "rotated-password-1")).status).toBe(401);
  });

  it("refuses to demote or delete the last super-user through /config too", async () => {
    const demoted = await rejection(await putConfig(addUser("admin", { role: "read-only" })));
    expect(pointersOf(demoted)).toEqual(["#/lists/login.users/admin/role"]);
    const deleted = await rejection(
      await putConfig({ listOps: [{ listPath: "login.users", key: "admin", delete: true }] }),
    );
    expect(pointersOf(deleted)).toEqual(["#/lists/login.users/admin"]);
    // Handing the role over in the same change is fine.
    await commit({
      listOps: [
        { listPath: "login.users", key: "successor", fields: { role: "super-user", password: "successor-pass" } },
        { listPath: "login.users", key: "admin", delete: true },
      ],
    });
    expect((await user("admin")).status).toBe(404);
  });

  it("validates a clear password without committing or hashing it", async () => {
    const response = await call(
      "/api/v1/config/validate",
      json("POST", addUser("dry", { role: "operator", password: "dry-run-password" }), admin),
    );
    expect(await response.json()).toMatchObject({
      valid: true,
      errors: [],
      changedPaths: ["#/lists/login.users/dry", "#/lists/login.users/dry/role", "#/lists/login.users/dry/password"],
    });
    expect((await user("dry")).status).toBe(404);
  });
});

describe("account writes are configuration commits", () => {
  it("records /auth/users writes in the history, by whom, with the password redacted", async () => {
    await createUser("audited", "read-only", "audited-password");
    await call("/api/v1/auth/users/audited", json("PATCH", { role: "operator" }, admin));
    const { items } = await history("?limit=2");
    expect(items.map((e) => [e.operation, e.actor, e.changedPaths])).toEqual([
      ["user", "token:bootstrap", ["#/lists/login.users/audited/role"]],
      [
        "user",
        "token:bootstrap",
        ["#/lists/login.users/audited", "#/lists/login.users/audited/role", "#/lists/login.users/audited/password"],
      ],
    ]);
    const text = JSON.stringify(items);
    expect(text).not.toContain("audited-password");
    expect(text).not.toContain("pbkdf2");
    expect(items[1]!.changes).toContainEqual({
      pointer: "#/lists/login.users/audited/password",
      before: null,
      after: "********",
    });
  });

  it("is undone by a rollback: the account goes, and so do its sessions", async () => {
    const { items } = await history("?limit=1");
    await createUser("temp", "operator", "temporary-pass");
    const session = await enrolAndLogin("temp", "temporary-pass");
    const rolledBack = await call("/api/v1/config/rollback", json("POST", { version: items[0]!.version }, admin));
    expect(rolledBack.status).toBe(200);
    expect((await user("temp")).status).toBe(404);
    expect((await call("/api/v1/auth/whoami", { headers: { cookie: session.cookie } })).status).toBe(401);
    expect((await logEntries("auth.user.deleted")).at(-1)?.fields).toMatchObject({
      username: "temp",
      by: "token:bootstrap",
    });
  });

  it(
    "keeps an account's TOTP enrolment across commits that leave the account in " + "place, and across a restart",
    async () => {
      const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
      await commit(addUser("other", { role: "read-only", password: "other-password" }));
      await abortAllDurableObjects();
      // Enrolled: the password alone now asks for the code instead of starting enrolment again.
      expect(await (await login("admin", ADMIN_PASSWORD)).json()).toEqual({ status: "totpCodeRequired" });
      expect(session.secret).toBeTruthy();
      expect((await user("other")).status).toBe(200);
    },
  );
});
