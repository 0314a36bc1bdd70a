import { defineConfig } from "vitest/config";

export default defineConfig({
  // One fleet for the whole run, started before the first test file and stopped after the last.
  test: { globalSetup: "./fleet-setup.js" },
});
