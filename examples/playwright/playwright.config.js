import { defineConfig } from "@playwright/test";
import { ADMIN_PASSWORD, PORT } from "./fleet.js";

export default defineConfig({
  testDir: ".",
  use: {
    // The appliance's own *.localhost name (bngfleet start --json prints it as webUi): browsers resolve it to
    // loopback, and keep each appliance's session cookie apart in a fleet of several.
    baseURL: `http://edge-1.bng.localhost:${PORT}`,
    // Playwright's own Chromium unless CHROMIUM_PATH names another (a distribution's /usr/bin/chromium).
    launchOptions: process.env.CHROMIUM_PATH ? { executablePath: process.env.CHROMIUM_PATH } : {},
  },
  webServer: {
    // One appliance from empty state (--fresh), so the first admin enrols an authenticator on every run.
    command:
      `npx bngfleet start --json --http --appliances 1 --port-base ${PORT} --fresh ` +
      `--data-dir .bngfleet/playwright`,
    // Playwright asks from Node, whose resolver does not know *.localhost names: the address.
    url: `http://127.0.0.1:${PORT}/api/v1/system/health`,
    env: { BNG_ADMIN_PASSWORD: ADMIN_PASSWORD },
    gracefulShutdown: { signal: "SIGTERM", timeout: 15_000 },
    reuseExistingServer: !process.env.CI,
  },
});
