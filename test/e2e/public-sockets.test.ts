/**
 * The rewrite of workerd's configuration for the appliances' public sockets
 * (launcher/public-sockets.ts), judged by workerd itself: `workerd test`
 * parses a configuration, binds its sockets and, with no test in it, says so
 * and exits. A fleet of 1,000 appliances in two processes puts 500 public
 * sockets in each.
 */
import { spawnSync } from "node:child_process";
import { serializeConfig } from "miniflare";
import { describe, expect, it } from "vitest";
import { withPublicSockets } from "../../launcher/public-sockets.ts";

/**
 * A configuration as Miniflare writes one for a Worker with `count` direct sockets. Each on a loopback address of
 * its own (127.2.x.y), not on 127.0.0.1 where the suite's fleets draw their ports: `workerd test` binds them, and
 * a fleet holding one of 500 ports there had failed this test with "Address already in use".
 */
function miniflareConfig(count: number) {
  const sockets = Array.from({ length: count }, (_, i) => ({
    name: "direct",
    address: `127.2.${Math.floor(i / 250)}.${1 + (i % 250)}:20000`,
    http: { cfBlobHeader: "MF-CF-Blob", capnpConnectHost: "miniflare-unsafe-internal-capnp-connect" },
    service: { name: "fleet" },
  }));
  const config = serializeConfig({
    services: [
      {
        name: "fleet",
        worker: {
          modules: [{ name: "fleet.js", esModule: "export default { fetch: () => new Response('') }" }],
          compatibilityDate: "2025-01-01",
        },
      },
    ],
    sockets,
  });
  return { config, publicSockets: sockets.map((s, i) => ({ address: s.address, appliance: `edge-${i + 1}` })) };
}

function workerdReads(config: Uint8Array): string {
  const run = spawnSync("node_modules/.bin/workerd", ["test", "--binary", "-"], { input: config, encoding: "utf8" });
  return run.stderr;
}

describe("workerd's configuration with the appliances' public sockets", () => {
  it("is one workerd reads for 500 sockets in a process (it refuses a message of more than 512 segments)", () => {
    const { config, publicSockets } = miniflareConfig(500);
    const said = workerdReads(withPublicSockets(config, publicSockets, "w".repeat(43)));
    expect(said).not.toMatch(/segments/);
    expect(said).toMatch(/No tests found/);
  });

  it("names a public socket the configuration lacks", () => {
    const { config } = miniflareConfig(1);
    expect(() => withPublicSockets(config, [{ address: "127.0.0.1:1", appliance: "edge-1" }], "w")).toThrow(
      /no socket on 127\.0\.0\.1:1/,
    );
  });
});
