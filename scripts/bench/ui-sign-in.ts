/**
 * The web UI benches' browser session: an account of the role asked for (read-only unless told), signed in through the
 * API as the UI signs in.
 */
import type { Page } from "playwright-core";
import { generate } from "otplib";
import { TOKEN } from "./fleet.ts";

/**
 * Creates the read-only account on the appliance at `base` and signs `page` in as it (password, then TOTP enrolment).
 */
export const signInReadOnly = (page: Page, base: string): Promise<void> => signInAs(page, base, "read-only");

/**
 * Creates an account of `role` on the appliance at `base` and signs `page` in as it (password, then TOTP enrolment).
 */
export async function signInAs(page: Page, base: string, role: "read-only" | "operator" | "super-user"): Promise<void> {
  const USERNAME = `bench-${role}`;
  const PASSWORD = `bench-${role}-password`;
  const created = await fetch(`${base}/api/v1/auth/users`, {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({ username: USERNAME, role, password: PASSWORD }),
  });
  if (!created.ok) throw new Error(`creating ${USERNAME}: ${created.status} ${await created.text()}`);
  await page.goto(`${base}/`);
  const first = await page.evaluate(
    async ([username, password]) =>
      (
        await fetch("/api/v1/auth/login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ username, password }),
        })
      ).json(),
    [USERNAME, PASSWORD] as const,
  );
  const { enrolmentToken, secret } = first as { enrolmentToken: string; secret: string };
  // otplib: RFC 6238, the codes an authenticator shows.
  const totpCode = await generate({ secret });
  const enrolled = await page.evaluate(
    async ([enrolmentToken, totpCode]) =>
      (
        await fetch("/api/v1/auth/enrol", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ enrolmentToken, totpCode }),
        })
      ).status,
    [enrolmentToken, totpCode] as const,
  );
  if (enrolled !== 200) throw new Error(`enrolment answered ${enrolled}`);
}
