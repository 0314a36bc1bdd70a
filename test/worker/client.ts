/**
 * A small client for the Worker under test: one appliance per hostname, logins that enrol like a person with an
 * authenticator would.
 */
import { SELF } from "cloudflare:test";
import type { z } from "zod";
import type { LoginResponse, TokenCreated } from "../../src/schemas/auth.ts";
import { totpCode } from "./totp.ts";
import { expectDocumented } from "./wire-check.ts";

/** Well-formed: 30 characters and their CRC-32 in base62 (computed outside the code under test). */
export const BOOTSTRAP_TOKEN = "bngtok_" + "B".repeat(30) + "1rpRcy";
export const ADMIN_PASSWORD = "test-admin-password";

/**
 * Calls an appliance's API (`path` starts with `/api/v1`); a successful JSON answer must match its route's documented
 * schema.
 */
export async function call(path: string, init: RequestInit & { appliance?: string } = {}): Promise<Response> {
  const { appliance = "edge-1", ...rest } = init;
  const url = `https://${appliance}.bng.localhost${path}`;
  const response = await SELF.fetch(url, rest);
  await expectDocumented(rest.method ?? "GET", url, response);
  return response;
}

/** JSON request helper. */
export function json(method: string, body: unknown, headers: Record<string, string> = {}): RequestInit {
  return { method, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) };
}

/** Bearer header. */
export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** The `bng_session=…` pair from a Set-Cookie header. */
export function cookieFrom(response: Response): string {
  const setCookie = response.headers.get("set-cookie") ?? "";
  const pair = setCookie.split(";")[0]!;
  if (!pair.startsWith("bng_session=")) throw new Error(`no session cookie in '${setCookie}'`);
  return pair;
}

export interface Session {
  cookie: string;
  csrfToken: string;
  secret: string;
}

/** Logs in an account that must enrol: login → totpEnrolmentRequired → enrol with the first code. */
export async function enrolAndLogin(username: string, password: string, appliance = "edge-1"): Promise<Session> {
  const first = await call("/api/v1/auth/login", { appliance, ...json("POST", { username, password }) });
  const challenge = (await first.json()) as LoginResponse;
  if (challenge.status !== "totpEnrolmentRequired")
    throw new Error(`expected enrolment, got ${JSON.stringify(challenge)}`);
  const enrolled = await call("/api/v1/auth/enrol", {
    appliance,
    ...json("POST", { enrolmentToken: challenge.enrolmentToken, totpCode: await totpCode(challenge.secret!) }),
  });
  const body = (await enrolled.json()) as LoginResponse;
  if (body.status !== "success") throw new Error(`enrolment failed: ${JSON.stringify(body)}`);
  return { cookie: cookieFrom(enrolled), csrfToken: body.csrfToken!, secret: challenge.secret! };
}

/** Creates a token with the bootstrap super-user token and returns its plaintext. */
export async function tokenWithRole(
  role: "read-only" | "operator" | "super-user",
  name = `t-${role}-${crypto.randomUUID().slice(0, 8)}`,
  appliance = "edge-1",
): Promise<string> {
  const response = await call("/api/v1/auth/tokens", {
    appliance,
    ...json("POST", { name, role }, bearer(BOOTSTRAP_TOKEN)),
  });
  if (response.status !== 200) throw new Error(`token creation failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as z.output<typeof TokenCreated>).token;
}

/** Creates an account with the bootstrap token. */
export async function createUser(
  username: string,
  role: string,
  password: string,
  appliance = "edge-1",
): Promise<void> {
  const response = await call("/api/v1/auth/users", {
    appliance,
    ...json("POST", { username, role, password }, bearer(BOOTSTRAP_TOKEN)),
  });
  if (response.status !== 200) throw new Error(`user creation failed: ${response.status} ${await response.text()}`);
}
