import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { LoginResponse, UserRecord } from "../../src/schemas/auth.ts";
import type { LogTail } from "../../src/schemas/logs.ts";
import { holdWallClock, totpCode } from "./totp.ts";
import { ADMIN_PASSWORD, BOOTSTRAP_TOKEN, bearer, call, createUser, enrolAndLogin, json } from "./client.ts";

const loginFrom = (ip: string, password: string) =>
  call("/api/v1/auth/login", json("POST", { username: "admin", password }, { "cf-connecting-ip": ip }));

async function failFiveTimes(ip: string) {
  for (let i = 0; i < 5; i++) expect((await loginFrom(ip, "wrong-password")).status).toBe(401);
}

describe("lockout", () => {
  it("answers 423 after five consecutive failures from one address, even with the right password", async () => {
    await failFiveTimes("192.0.2.10");
    const locked = await loginFrom("192.0.2.10", ADMIN_PASSWORD);
    expect(locked.status).toBe(423);
    expect(locked.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(14 * 60);
  });

  it("locks the account and source-IP pair only, not the account from elsewhere", async () => {
    await failFiveTimes("192.0.2.10");
    expect((await loginFrom("192.0.2.11", ADMIN_PASSWORD)).status).toBe(200);
  });

  it("does not lock after four failures, and a completed login resets the count", async () => {
    holdWallClock();
    const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    const codeAt = (offsetSteps: number) => totpCode(secret, offsetSteps);
    const complete = async (totpCode: string) =>
      call(
        "/api/v1/auth/login",
        json("POST", { username: "admin", password: ADMIN_PASSWORD, totpCode }, { "cf-connecting-ip": "192.0.2.12" }),
      );
    for (let i = 0; i < 4; i++) await loginFrom("192.0.2.12", "wrong-password");
    expect((await complete(await codeAt(1))).status).toBe(200);
    for (let i = 0; i < 4; i++) await loginFrom("192.0.2.12", "wrong-password");
    expect((await loginFrom("192.0.2.12", ADMIN_PASSWORD)).status).toBe(200);
  });

  it(
    "keeps counting while only the password is right, so codes cannot be guessed " + "between password checks",
    async () => {
      const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD);
      const wrongCode = secret ? "000000" : "";
      for (let i = 0; i < 5; i++) {
        expect((await loginFrom("192.0.2.16", ADMIN_PASSWORD)).status).toBe(200); // totpCodeRequired
        await call(
          "/api/v1/auth/login",
          json(
            "POST",
            { username: "admin", password: ADMIN_PASSWORD, totpCode: wrongCode },
            { "cf-connecting-ip": "192.0.2.16" },
          ),
        );
      }
      expect((await loginFrom("192.0.2.16", ADMIN_PASSWORD)).status).toBe(423);
    },
  );

  it("locks unknown usernames too, so lockout does not reveal which accounts exist", async () => {
    for (let i = 0; i < 5; i++)
      await call(
        "/api/v1/auth/login",
        json("POST", { username: "ghost", password: "x" }, { "cf-connecting-ip": "192.0.2.13" }),
      );
    const response = await call(
      "/api/v1/auth/login",
      json("POST", { username: "ghost", password: "x" }, { "cf-connecting-ip": "192.0.2.13" }),
    );
    expect(response.status).toBe(423);
  });

  it("shows the lockout on the account and lifts it on unlock", async () => {
    await failFiveTimes("192.0.2.14");
    const user = await (
      await call("/api/v1/auth/users/admin", { headers: bearer(BOOTSTRAP_TOKEN) })
    ).json<UserRecord>();
    expect(user.lockouts).toEqual([
      expect.objectContaining({ sourceIp: "192.0.2.14", lockedUntilUtc: expect.any(String) }),
    ]);
    const unlock = await call("/api/v1/auth/users/admin/unlock", { method: "POST", headers: bearer(BOOTSTRAP_TOKEN) });
    expect(await unlock.json()).toEqual({ status: "updated", username: "admin" });
    expect((await loginFrom("192.0.2.14", ADMIN_PASSWORD)).status).toBe(200);
  });

  it("holds when many guesses arrive at once", async () => {
    const guesses = await Promise.all(Array.from({ length: 12 }, () => loginFrom("192.0.2.15", "wrong-password")));
    const statuses = guesses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 423).length).toBeGreaterThanOrEqual(7);
  });
});

describe("lockout expiry", () => {
  it("ends the 423 after the documented 15 minutes, and not a second before", async () => {
    // docs/decisions.md documents the lock as 15 minutes; the spec leaves its length "not shown".
    holdWallClock();
    const lockedAt = Date.now();
    await failFiveTimes("192.0.2.17");
    expect((await loginFrom("192.0.2.17", ADMIN_PASSWORD)).status).toBe(423);
    vi.setSystemTime(lockedAt + 15 * 60_000 - 1000);
    expect((await loginFrom("192.0.2.17", ADMIN_PASSWORD)).status).toBe(423);
    vi.setSystemTime(lockedAt + 15 * 60_000 + 1000);
    const after = await loginFrom("192.0.2.17", ADMIN_PASSWORD);
    expect(after.status).toBe(200);
    expect(await after.json()).toMatchObject({ status: "totpEnrolmentRequired" });
  });
});

describe("lockout across sources", () => {
  it(
    "backs the account off after ten failures spread over ten addresses: 423 from an " + "eleventh, for 30 seconds",
    async () => {
      for (let i = 1; i <= 10; i++) expect((await loginFrom(`198.51.100.${i}`, "wrong-password")).status).toBe(401);
      const locked = await loginFrom("198.51.100.77", ADMIN_PASSWORD);
      expect(locked.status).toBe(423);
      expect(locked.headers.get("content-type")).toBe("application/problem+json");
      const retryAfter = Number(locked.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(29);
      expect(retryAfter).toBeLessThanOrEqual(30);
      const user = await (
        await call("/api/v1/auth/users/admin", { headers: bearer(BOOTSTRAP_TOKEN) })
      ).json<UserRecord>();
      expect(user.lockouts).toContainEqual(
        expect.objectContaining({ sourceIp: "*", lockedUntilUtc: expect.any(String) }),
      );
    },
  );

  it(
    "gives every lock an end: failed enrolments with a superseded token lock the " +
      "pair for 15 minutes, not for good, and are logged",
    async () => {
      await createUser("newbie", "operator", "newbie-password-1");
      const enrolment = async () =>
        (await (
          await call(
            "/api/v1/auth/login",
            json("POST", { username: "newbie", password: "newbie-password-1" }, { "cf-connecting-ip": "192.0.2.40" }),
          )
        ).json()) as LoginResponse;
      const first = await enrolment();
      await enrolment(); // supersedes the first
      const code = await totpCode(first.secret!);
      for (let i = 0; i < 5; i++) {
        const refused = await call(
          "/api/v1/auth/enrol",
          json("POST", { enrolmentToken: first.enrolmentToken, totpCode: code }, { "cf-connecting-ip": "192.0.2.40" }),
        );
        expect(refused.status).toBe(401);
      }
      const user = await (
        await call("/api/v1/auth/users/newbie", { headers: bearer(BOOTSTRAP_TOKEN) })
      ).json<UserRecord>();
      const lock = user.lockouts.find((l) => l.sourceIp === "192.0.2.40");
      expect(lock?.lockedUntilUtc).not.toBeNull();
      const minutes = (Date.parse(lock!.lockedUntilUtc!) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(14);
      expect(minutes).toBeLessThanOrEqual(15);
      const logs = await (
        await call("/api/v1/logs/tail?count=1000", { headers: bearer(BOOTSTRAP_TOKEN) })
      ).json<LogTail>();
      const failures = logs.entries.filter((e) => e.msgId === "auth.login.failed" && e.fields?.factor === "enrolment");
      expect(failures.length).toBe(5);
    },
  );
});

// Issue #22: one client, or three addresses, could keep a known account locked for good. A locker does not know the
// account's second factor, so a login with the right password and a valid code passes the lock; nothing else does.
describe("the owner's way past a lock", () => {
  const OWNER = "203.0.113.9";
  const login = (body: Record<string, unknown>, ip = OWNER) =>
    call("/api/v1/auth/login", json("POST", { username: "admin", ...body }, { "cf-connecting-ip": ip }));
  /**
   * Five wrong passwords from each of three addresses: the account is locked everywhere from the tenth (then 423s,
   * still counted).
   */
  async function lockFromThreeAddresses() {
    for (const ip of ["198.51.100.101", "198.51.100.102", "198.51.100.103"]) {
      for (let i = 0; i < 5; i++) expect([401, 423]).toContain((await loginFrom(ip, "locker-guess")).status);
    }
    expect((await login({ password: ADMIN_PASSWORD })).status).toBe(423);
  }
  const accountFailures = async () =>
    (
      await (await call("/api/v1/auth/users/admin", { headers: bearer(BOOTSTRAP_TOKEN) })).json<UserRecord>()
    ).lockouts.find((l) => l.sourceIp === "*")?.failures;
  /** A code other than `code` and its neighbours' (the ±1 step window): the next step's code plus one. */
  const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

  it(
    "lets the owner in with the right password and a valid TOTP code while others " + "keep the account locked",
    async () => {
      holdWallClock();
      const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD, "edge-1");
      await lockFromThreeAddresses();
      // The enrolment used this step's code; the next step's is valid and unused (RFC 6238 codes from
      // test/worker/totp.ts, not otplib).
      const answer = await login({ password: ADMIN_PASSWORD, totpCode: await totpCode(secret, 1) });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ status: "success", username: "admin" });
    },
  );

  it("still refuses a wrong code with 423 and counts it, and a wrong password with a valid code", async () => {
    holdWallClock();
    const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD);
    await lockFromThreeAddresses();
    const before = await accountFailures();
    const good = await totpCode(secret, 1);
    const refused = await login({ password: ADMIN_PASSWORD, totpCode: wrong(good) });
    expect(refused.status).toBe(423);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await accountFailures()).toBe(before! + 1);
    expect((await login({ password: "locker-guess", totpCode: good })).status).toBe(423);
    expect(await accountFailures()).toBe(before! + 2);
  });

  it(
    "stops letting codes past the lock after five wrong ones, so the password's " + "holder cannot guess codes there",
    async () => {
      holdWallClock();
      const { secret } = await enrolAndLogin("admin", ADMIN_PASSWORD);
      await lockFromThreeAddresses();
      const good = await totpCode(secret, 1);
      for (let i = 0; i < 5; i++)
        expect((await login({ password: ADMIN_PASSWORD, totpCode: wrong(good) }, `203.0.113.${20 + i}`)).status).toBe(
          423,
        );
      expect((await login({ password: ADMIN_PASSWORD, totpCode: good }, "203.0.113.30")).status).toBe(423);
    },
  );

  it("does not let an account without an authenticator past the lock, whatever code it sends", async () => {
    await lockFromThreeAddresses();
    expect((await login({ password: ADMIN_PASSWORD, totpCode: "123456" })).status).toBe(423);
  });
});

const anonymous = (ip: string, username = `nobody-${crypto.randomUUID().slice(0, 8)}`) =>
  call("/api/v1/auth/login", json("POST", { username, password: "guess" }, { "cf-connecting-ip": ip }));

describe("login throttling", () => {
  it(
    "answers 429 with Retry-After to an eleventh quick login from one address, " + "before any password check",
    async () => {
      for (let i = 0; i < 10; i++) expect((await anonymous("192.0.2.50")).status).toBe(401);
      const throttled = await anonymous("192.0.2.50");
      expect(throttled.status).toBe(429);
      expect(throttled.headers.get("content-type")).toBe("application/problem+json");
      // One login every 6 seconds after the burst of 10.
      const retryAfter = Number(throttled.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(6);
      expect(await throttled.json()).toMatchObject({ status: 429, title: "Too Many Requests" });
    },
  );

  it(
    "hashes at most a burst of 40 parallel logins from 40 addresses, and other " + "requests keep their pace meanwhile",
    async () => {
      // The order answers arrive in, not wall time, so a loaded machine cannot make this flaky.
      const answered: (number | "health")[] = [];
      const burst = Array.from({ length: 40 }, (_, i) =>
        anonymous(`203.0.113.${i + 1}`).then((r) => (answered.push(r.status), r)),
      );
      const health = await call("/api/v1/system/health", { headers: bearer(BOOTSTRAP_TOKEN) });
      answered.push("health");
      const statuses = (await Promise.all(burst)).map((r) => r.status);
      expect(health.status).toBe(200);
      // The appliance's budget is a burst of 20 password checks, then 2 a second.
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(18);
      expect(statuses.filter((s) => s !== 429 && s !== 401)).toEqual([]);
      // Unthrottled and in arrival order, the health read would wait behind every hash; here it overtakes them.
      const hashed = statuses.filter((s) => s === 401).length;
      const hashedBeforeHealth = answered.slice(0, answered.indexOf("health")).filter((s) => s === 401).length;
      expect(hashedBeforeHealth).toBeLessThan(hashed);
    },
  );
});

describe("stored login failures", () => {
  const sql = (query: string, ...bindings: (string | number)[]) =>
    runInDurableObject(env.Appliance.getByName("edge-1"), (_instance, state) =>
      state.storage.sql.exec(query, ...bindings).toArray(),
    );

  it("forgets a failure count 15 minutes after its last failure, and keeps at most 10,000 rows", async () => {
    await call("/api/v1/system/health", { headers: bearer(BOOTSTRAP_TOKEN) });
    const now = Date.now();
    await sql(
      "INSERT INTO login_failures (username, source_ip, failures, last_failure_ms) VALUES ('stale', '192.0.2.1', 4, ?)",
      now - 16 * 60_000,
    );
    await sql(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10050) " +
        "INSERT INTO login_failures (username, source_ip, failures, last_failure_ms) " +
        "SELECT 'flood-' || i, '192.0.2.2', 1, ? FROM n",
      now - 60_000,
    );
    expect((await anonymous("192.0.2.3")).status).toBe(401);
    const [{ n }] = (await sql("SELECT COUNT(*) AS n FROM login_failures")) as [{ n: number }];
    expect(n).toBeLessThanOrEqual(10_000);
    expect(await sql("SELECT * FROM login_failures WHERE username = 'stale'")).toEqual([]);
  });
});
