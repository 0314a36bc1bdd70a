import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { VENDOR_PUBLIC_KEY } from "./test/worker/upgrade-keys.ts";
import { testResolver } from "./test/worker/resolver.ts";

/**
 * The local launcher's per-launch secret of the projects that run as the local fleet (src/fleet/wiring.ts): random per
 * run, as per launch.
 */
const WIRING_SECRET = crypto.randomUUID();

/** The super-user token `bootstrap` of the projects that set one (test/worker/client.ts). */
const BOOTSTRAP_TOKEN = "bngtok_" + "B".repeat(30) + "1rpRcy";

/**
 * Where every appliance's simulated clock starts in the workerd projects: traffic, churn and outages
 * follow the simulated time of day, so a clock started at the wall clock made results depend on the hour
 * the suite ran. BNG_TEST_CLOCK_START moves it (`npm run test:hours` runs the suite at every hour of a day).
 */
const CLOCK_START = process.env.BNG_TEST_CLOCK_START ?? "2026-03-02T09:00:00Z";

/**
 * What every project holds its tests to: at least one assertion each (a test that asserts nothing passes silently), and
 * one time limit.
 */
const strict = {
  // A poll waits 10 s, not vitest's 1 s: a sign-in's password hash or a page's first answer can take longer than
  // a second on a loaded 2-core machine; a poll that holds returns at once, so only a failure waits longer.
  expect: { requireAssertions: true, poll: { timeout: 10_000 } },
  // Some tests simulate hours or a day of a gateway; on a loaded 2-core machine that can pass vitest's 5 s default.
  testTimeout: 30_000,
};

/**
 * A project of the tests in test/<name>/, run inside workerd against the real
 * wrangler.toml, with `bindings` beside the fleet secret and the manual clock
 * (tests move the simulation clock themselves, through scenario actions).
 * Files share one runtime (no per-file isolation): storage and objects are
 * reset after every test (test/worker/setup.ts), and the suite passes in
 * shuffled order (`npx vitest run --sequence.shuffle`).
 */
const inWorkerd = (
  name: string,
  bindings: Record<string, string> | ((closedPort: number) => Record<string, string>),
  test: { globalSetup?: string[] } = {},
) => ({
  plugins: [
    cloudflareTest(({ inject }) => ({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        bindings: {
          BNG_FLEET_SECRET: "7e57".repeat(16),
          BNG_CLOCK: "manual",
          BNG_CLOCK_START: CLOCK_START,
          ...(typeof bindings === "function" ? bindings(inject("closedPort")) : bindings),
        },
        // The launcher's resolver, as the local fleet has it (src/config/destinations.ts judges names by what they
        // resolve to), the reserved *.test names of the suites' fakes answered as public (test/worker/resolver.ts).
        serviceBindings: { BNG_RESOLVER: testResolver },
      },
    })),
  ],
  test: {
    name,
    include: [`test/${name}/**/*.test.ts`],
    setupFiles: ["test/worker/setup.ts"],
    isolate: false,
    ...strict,
    ...test,
    globalSetup: ["test/ui-build.ts", ...(test.globalSetup ?? [])],
  },
});

// The pure data-plane model and the pure trust policy run in plain Node (fast, no
// runtime), everything that touches the Worker runs inside workerd against
// the real wrangler.toml.
export default defineConfig({
  test: {
    // vitest's default on 2 cores is one file at a time. The e2e files spend most of their time waiting on
    // fleets they launched, the workerd projects on their runtime: three at once keeps both cores busy.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: "simulator",
          include: ["test/simulator/**/*.test.ts"],
          environment: "node",
          ...strict,
        },
      },
      {
        test: {
          name: "trust",
          // The trust policy (lockout, session and token rules, TOTP replay) is pure: tested in plain Node.
          include: ["test/trust/**/*.test.ts"],
          environment: "node",
          ...strict,
        },
      },
      {
        test: {
          name: "domain",
          // The domain layer's pure formats (the RFC 5424 syslog message), against the RFCs' own examples: plain Node.
          include: ["test/domain/**/*.test.ts"],
          environment: "node",
          ...strict,
        },
      },
      {
        test: {
          name: "ui",
          // The web UI's pure modules (formatting, the configuration diff, the search's reading of what was typed):
          // plain Node, no browser.
          include: ["test/ui/**/*.test.ts"],
          environment: "node",
          ...strict,
        },
      },
      {
        test: {
          name: "architecture",
          // The layer rules and the import graph, read from the source with the TypeScript parser: plain Node, no
          // runtime.
          include: ["test/architecture/**/*.test.ts"],
          environment: "node",
          ...strict,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          ...strict,
          hookTimeout: 120_000,
          // The Worker bundle, built once for every fleet these files launch.
          globalSetup: ["test/e2e/bundle.ts"],
        },
      },
      {
        test: {
          name: "package",
          // The package as users install it: packed, installed into projects outside the repository from the tarball,
          // its CLI, startFleet() and the examples run there on Node.js 22 and 24 (test/package/setup.ts packs it
          // once).
          include: ["test/package/**/*.test.ts"],
          environment: "node",
          ...strict,
          testTimeout: 600_000,
          hookTimeout: 600_000,
          globalSetup: ["test/package/setup.ts"],
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
        },
      ),
      // The same Worker as the local launcher runs it (BNG_LOCAL_FLEET), with no
      // BNG_ADMIN_PASSWORD: the development default and the listener's peer header. The bootstrap token
      // (which the launcher takes too) reads the demo fleet's sections (test/worker-local/demo-fleet.test.ts).
      inWorkerd("worker-local", {
        BNG_LOCAL_FLEET: "1",
        BNG_WIRING_SECRET: WIRING_SECRET,
        BNG_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN,
      }),
      // One process of a local fleet spread over several (BNG_SHARDS): edge-2 is another process's, at a loopback port
      // nothing answers on.
      inWorkerd(
        "worker-sharded",
        (closedPort) => ({
          BNG_LOCAL_FLEET: "1",
          BNG_WIRING_SECRET: WIRING_SECRET,
          BNG_BOOTSTRAP_TOKEN: BOOTSTRAP_TOKEN,
          BNG_SHARD_PEERS: JSON.stringify({ "edge-2": `http://127.0.0.1:${closedPort}` }),
        }),
        { globalSetup: ["test/closed-port.ts"] },
      ),
      // Deployed with no administrator credential at all.
      inWorkerd("worker-unconfigured", {}),
    ],
  },
});
