import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { buildUi } from "./scripts/build-ui.ts";
import { VENDOR_PUBLIC_KEY } from "./test/worker/upgrade-keys.ts";

// The Worker bundles the web UI's build output (src/http/web-ui.ts): build it before workerd loads the Worker.
buildUi({ quiet: true });

/** The super-user token `bootstrap` of the projects that set one (test/worker/client.ts). */
const BOOTSTRAP_TOKEN = "bngtok_" + "B".repeat(30) + "1rpRcy";

/**
 * A project of the tests in test/<name>/, run inside workerd against the real
 * wrangler.toml, with `bindings` beside the fleet secret and the manual clock
 * (tests move the simulation clock themselves, through scenario actions).
 */
const inWorkerd = (name: string, bindings: Record<string, string>, test: { globalSetup?: string[]; testTimeout?: number; expect?: { requireAssertions: boolean } } = {}) => ({
  plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" }, miniflare: { bindings: { BNG_FLEET_SECRET: "7e57".repeat(16), BNG_CLOCK: "manual", ...bindings } } })],
  test: { name, include: [`test/${name}/**/*.test.ts`], setupFiles: ["test/worker/setup.ts"], ...test },
});

// The pure data-plane model and the pure trust policy run in plain Node (fast, no
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
          // A test that asserts nothing passes silently; every test must make at least one assertion.
          expect: { requireAssertions: true },
        },
      },
      {
        test: {
          name: "trust",
          // The trust policy (lockout, session and token rules, TOTP replay) is pure: tested in plain Node.
          include: ["test/trust/**/*.test.ts"],
          environment: "node",
          expect: { requireAssertions: true },
        },
      },
      {
        test: {
          name: "architecture",
          // The layer rules and the import graph, read from the source with the TypeScript parser: plain Node, no runtime.
          include: ["test/architecture/**/*.test.ts"],
          environment: "node",
          // Parsing the whole tree (some 350 files) takes several seconds on a loaded 2-core machine.
          testTimeout: 30_000,
          expect: { requireAssertions: true },
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 120_000,
          expect: { requireAssertions: true },
          // Each file starts a real fleet (and one a Chromium): one at a time, so a loaded 2-core
          // machine brings each up well inside the launcher's readiness deadline.
          maxWorkers: 1,
        },
      },
      inWorkerd(
        "worker",
        {
          BNG_ADMIN_PASSWORD: "test-admin-password",
          // Accepted as the super-user token `bootstrap` (test/worker/client.ts).
          BNG_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN,
          // Packages signed with test/worker/upgrade-keys.ts's vendor key stage.
          BNG_UPGRADE_PUBLIC_KEY: VENDOR_PUBLIC_KEY,
        },
        {
          // A closed loopback port for "the receiver is down" (workerd cannot bind one itself), and a
          // loopback server the appliance can be pointed at (an external peer answering HTML).
          globalSetup: ["test/closed-port.ts", "test/worker/peer-server.ts"],
          // Tests advance up to hours of simulated time; on a loaded 2-core machine that can pass vitest's 5 s default.
          testTimeout: 30_000,
          expect: { requireAssertions: true },
        },
      ),
      // The same Worker as the local launcher runs it (BNG_LOCAL_FLEET), with no
      // BNG_ADMIN_PASSWORD: the development default and the listener's peer header.
      inWorkerd("worker-local", { BNG_LOCAL_FLEET: "1" }),
      // One process of a local fleet spread over several (BNG_SHARDS): edge-2 is another process's, at a loopback port nothing answers on.
      inWorkerd("worker-sharded", { BNG_LOCAL_FLEET: "1", BNG_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN, BNG_SHARD_PEERS: JSON.stringify({ "edge-2": "http://127.0.0.1:9" }) }),
      // Deployed with no administrator credential at all.
      inWorkerd("worker-unconfigured", {}),
    ],
  },
});
