import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { buildUi } from "./scripts/build-ui.ts";

// The Worker bundles the web UI's build output (src/http/web-ui.ts): build it before workerd loads the Worker.
buildUi({ quiet: true });

// Two projects: the pure data-plane model runs in plain Node (fast, no
// runtime), everything that touches the Worker runs inside workerd against
// the real wrangler.toml.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "simulator",
          include: ["test/simulator/**/*.test.ts"],
          environment: "node",
          // Some tests simulate a day of a gateway; on a loaded 2-core machine that can pass vitest's 5 s default.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                BNG_FLEET_SECRET: "7e57".repeat(16),
                BNG_ADMIN_PASSWORD: "test-admin-password",
                // Accepted as the super-user token `bootstrap` (test/worker/client.ts).
                BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(36),
                // Tests move the simulation clock themselves, through scenario actions.
                BNG_CLOCK: "manual",
              },
            },
          }),
        ],
        test: {
          name: "worker",
          include: ["test/worker/**/*.test.ts"],
          setupFiles: ["test/worker/setup.ts"],
        },
      },
    ],
  },
});
