import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { PasskeyRegistrationOptions } from "../../src/schemas/auth/passkeys.ts";
import type { LoginResponse, PasskeyRecord } from "../../src/schemas/auth.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { SoftwareAuthenticator } from "./authenticator.ts";
import {
  ADMIN_PASSWORD,
  BOOTSTRAP_TOKEN,
  bearer,
  call,
  createUser,
  enrolAndLogin,
  json,
  type Session,
} from "./client.ts";
import { getConfig, logEntries } from "./config-client.ts";
import { totpCode } from "./totp.ts";

const admin = bearer(BOOTSTRAP_TOKEN);
const RP_ID = "edge-1.bng.localhost";
const policy = (extra: Record<string, unknown> = {}) =>
  call(
    "/api/v1/auth/providers/passkey",
    json("PUT", { enabled: true, rpId: null, userVerification: "preferred", replacesTotp: true, ...extra }, admin),
  );
/** The origin pages are served from: the hostname at the listener's port. */
async function pageOrigin(): Promise<string> {
  const listener = new URL((await getConfig()).fields["webUi.listeners"]!.split("\n")[0]!);
  listener.hostname = RP_ID;
  return listener.origin;
}
const asSession = (s: Session) => ({ cookie: s.cookie, "x-csrf-token": s.csrfToken });
const login = (body: Record<string, unknown>) => call("/api/v1/auth/login", json("POST", body));

/** A fresh code for re-authentication: the step after the enrolment's, since each code is accepted once. */
const nextCode = (session: Session) => totpCode(session.secret, 1);
const registrationOptions = (session: Session, proof: Record<string, unknown>) =>
  call("/api/v1/auth/passkeys/registration-options", json("POST", proof, asSession(session)));

/** Registers a new software passkey for the session's account, re-authenticating with a TOTP code. */
async function register(session: Session, origin: string, name = "YubiKey 5C") {
  const authenticator = new SoftwareAuthenticator();
  const options = await (await registrationOptions(session, { totpCode: await nextCode(session) })).json<
    z.output<typeof PasskeyRegistrationOptions>
  >();
  const response = await call(
    "/api/v1/auth/passkeys",
    json("POST", { name, response: await authenticator.create(options, origin) }, asSession(session)),
  );
  return { authenticator, response };
}

describe("passkeys", () => {
  it("are refused while the policy disables them, and with a token", async () => {
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const disabled = await registrationOptions(session, { currentPassword: ADMIN_PASSWORD });
    expect(disabled.status).toBe(409);
    await policy();
    expect(
      (
        await call(
          "/api/v1/auth/passkeys/registration-options",
          json("POST", { currentPassword: ADMIN_PASSWORD }, admin),
        )
      ).status,
    ).toBe(403);
  });

  it("need the current password or a fresh code first, so a stolen session cannot add its own", async () => {
    await policy();
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const none = await registrationOptions(session, {});
    expect(none.status).toBe(400);
    expect((await none.json<z.output<typeof ProblemDetails>>()).errors!.map((e) => e.pointer)).toEqual([
      "#/currentPassword",
    ]);
    const wrong = await registrationOptions(session, { currentPassword: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("content-type")).toBe("application/problem+json");
    const right = await registrationOptions(session, { currentPassword: ADMIN_PASSWORD });
    expect(right.status).toBe(200);
    expect(await right.json()).toMatchObject({ challenge: expect.any(String), rp: { id: RP_ID } });
  });

  it("count wrong re-authentication towards the lockout: the sixth try is 423", async () => {
    await policy();
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    for (let i = 0; i < 5; i++)
      expect((await registrationOptions(session, { currentPassword: `guess-${i}` })).status).toBe(401);
    expect((await registrationOptions(session, { currentPassword: ADMIN_PASSWORD })).status).toBe(423);
  });

  it("register for the logged-in account, bound to the appliance's hostname", async () => {
    await policy();
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const { authenticator, response } = await register(session, await pageOrigin());
    expect(response.status, await response.clone().text()).toBe(200);
    expect(await response.json()).toMatchObject({
      id: authenticator.id,
      username: "admin",
      name: "YubiKey 5C",
      transports: ["usb"],
      lastUsedUtc: null,
    });
    expect(
      (await call("/api/v1/auth/passkeys", { headers: asSession(session) }).then((r) => r.json<PasskeyRecord[]>())).map(
        (p) => p.id,
      ),
    ).toEqual([authenticator.id]);
    expect((await logEntries("auth.passkey.registered")).map((e) => e.fields.username)).toEqual(["admin"]);
  });

  it("refuse a registration made for another origin, naming the response", async () => {
    await policy();
    const session = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const { response } = await register(session, "https://phish.example");
    expect(response.status).toBe(400);
    expect((await response.json<z.output<typeof ProblemDetails>>()).errors!.map((e) => e.pointer)).toEqual([
      "#/response",
    ]);
  });

  it("replace the TOTP code at login, once per challenge", async () => {
    await policy();
    const origin = await pageOrigin();
    const { authenticator } = await register(await enrolAndLogin("admin", ADMIN_PASSWORD), origin);
    const first = await (await login({ username: "admin", password: ADMIN_PASSWORD })).json<LoginResponse>();
    expect(first.status).toBe("totpCodeRequired");
    expect(first.passkeyOptions!.rpId).toBe(RP_ID);
    expect(first.passkeyOptions!.allowCredentials!.map((c) => c.id)).toEqual([authenticator.id]);
    const assertion = await authenticator.get(first.passkeyOptions!, origin);
    const signedIn = await login({ username: "admin", password: ADMIN_PASSWORD, passkey: assertion });
    expect(await signedIn.json()).toMatchObject({ status: "success", username: "admin", role: "super-user" });
    expect(signedIn.headers.get("set-cookie")).toContain("bng_session=");
    // The challenge was used: the same answer does not open another session.
    expect((await login({ username: "admin", password: ADMIN_PASSWORD, passkey: assertion })).status).toBe(401);
    const [stored] = await (await call("/api/v1/auth/passkeys", { headers: admin })).json<PasskeyRecord[]>();
    expect(stored!.lastUsedUtc).not.toBeNull();
  });

  it("do not replace the code when the policy says they do not", async () => {
    await policy();
    const origin = await pageOrigin();
    const { authenticator } = await register(await enrolAndLogin("admin", ADMIN_PASSWORD), origin);
    await policy({ replacesTotp: false });
    const first = await (await login({ username: "admin", password: ADMIN_PASSWORD })).json<Record<string, unknown>>();
    expect(first).toEqual({ status: "totpCodeRequired" });
    const forged = await authenticator.get({ challenge: "bm90LWlzc3VlZA", rpId: RP_ID }, origin);
    expect((await login({ username: "admin", password: ADMIN_PASSWORD, passkey: forged })).status).toBe(401);
  });

  it("are renamed and removed by their account or a super-user; another account sees none of them", async () => {
    await policy();
    await createUser("noc", "read-only", "noc-password-1");
    const noc = await enrolAndLogin("noc", "noc-password-1");
    const { authenticator } = await register(noc, await pageOrigin(), "laptop");
    const adminSession = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const other = await createUser("ops", "operator", "ops-password-1").then(() =>
      enrolAndLogin("ops", "ops-password-1"),
    );
    expect(await (await call("/api/v1/auth/passkeys", { headers: asSession(other) })).json()).toEqual([]);
    expect(
      (await call(`/api/v1/auth/passkeys/${authenticator.id}`, { method: "DELETE", headers: asSession(other) })).status,
    ).toBe(404);
    const renamed = await call(
      `/api/v1/auth/passkeys/${authenticator.id}`,
      json("PATCH", { name: "work laptop" }, asSession(noc)),
    );
    expect(await renamed.json()).toMatchObject({ name: "work laptop" });
    const removed = await call(`/api/v1/auth/passkeys/${authenticator.id}`, {
      method: "DELETE",
      headers: asSession(adminSession),
    });
    expect(await removed.json()).toEqual({ status: "deleted", username: "noc" });
    expect(await (await call("/api/v1/auth/passkeys", { headers: admin })).json()).toEqual([]);
  });

  it("go with their account", async () => {
    await policy();
    await createUser("leaver", "operator", "leaver-password");
    await register(await enrolAndLogin("leaver", "leaver-password"), await pageOrigin());
    expect(await (await call("/api/v1/auth/passkeys", { headers: admin })).json()).toHaveLength(1);
    await call("/api/v1/auth/users/leaver", { method: "DELETE", headers: admin });
    expect(await (await call("/api/v1/auth/passkeys", { headers: admin })).json()).toEqual([]);
  });
});
