import { expect, test } from "@playwright/test";
import { ADMIN_PASSWORD } from "./fleet.js";
import { totp } from "./totp.js";

test("the first admin enrols an authenticator and signs in to the web UI", async ({ page }) => {
  await page.goto("/");
  await page.getByLabel("Username").fill("admin");
  await page.getByLabel("Password").fill(ADMIN_PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();

  // First sign-in: the appliance shows a TOTP secret to add to an authenticator app.
  const secret = (await page.getByTestId("totp-secret").textContent()).trim();
  await page.getByLabel("Authenticator code").fill(totp(secret));
  await page.getByRole("button", { name: "Confirm and sign in" }).click();

  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});
