/**
 * The Worker's module sources set in workerd's configuration by the launcher's rewrite
 * (launcher/module-sources.ts) rather than by Miniflare, judged by workerd itself: it serves a configuration so
 * rewritten, and the modules it imports are the files' contents, whole.
 */
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { serializeConfig } from "miniflare";
import { describe, expect, it } from "vitest";
import { applyModuleSources, MODULE_PLACEHOLDER } from "../../launcher/module-sources.ts";
import { readConfig, writeConfig } from "../../launcher/workerd-message.ts";
import { closedPort } from "../closed-port.ts";

describe("workerd's configuration with the Worker's sources put in by the launcher", () => {
  it("serves the files' contents: a 3 MB text module, a short one, and the entry module importing both", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-module-sources-"));
    const big = "0123456789".repeat(300_000);
    await writeFile(path.join(dir, "big.txt"), big);
    await writeFile(path.join(dir, "short.txt"), "short text");
    await writeFile(
      path.join(dir, "index.js"),
      "import big from './big.txt'; import short from './short.txt';\nexport default { " +
        "fetch: () => new Response(big.length + ':' + big.slice(-10) + ':' + short + ':' " +
        "+ new Error().stack.includes('index.js')) };",
    );
    const port = await closedPort();
    // As Miniflare writes it: placeholders for the sources (an ES module's with its sourceURL line appended), and
    // the Worker's other fields after them, which a wrong write would overrun.
    const config = serializeConfig({
      services: [
        {
          name: "core:user:fleet",
          worker: {
            modules: [
              { name: "index.js", esModule: `${MODULE_PLACEHOLDER}\n//# sourceURL=file://${dir}/index.js\n` },
              { name: "big.txt", text: MODULE_PLACEHOLDER },
              { name: "short.txt", text: MODULE_PLACEHOLDER },
            ],
            compatibilityDate: "2025-01-01",
            compatibilityFlags: ["nodejs_compat"],
          },
        },
      ],
      sockets: [{ name: "http", address: `127.0.0.1:${port}`, http: {}, service: { name: "core:user:fleet" } }],
    });
    const { message, root } = readConfig(config);
    applyModuleSources(root, {
      "index.js": path.join(dir, "index.js"),
      "big.txt": path.join(dir, "big.txt"),
      "short.txt": path.join(dir, "short.txt"),
    });
    const workerd = spawn("node_modules/.bin/workerd", ["serve", "--binary", "-"], {
      stdio: ["pipe", "ignore", "pipe"],
    });
    let said = "";
    workerd.stderr!.on("data", (chunk) => (said += chunk));
    workerd.stdin!.end(writeConfig(message));
    try {
      let answer: string | undefined;
      for (let i = 0; i < 100 && answer === undefined; i++) {
        answer = await fetch(`http://127.0.0.1:${port}/`).then(
          (r) => r.text(),
          () => undefined,
        );
        if (answer === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(answer, said).toBe("3000000:0123456789:short text:true");
    } finally {
      workerd.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("names a module it was to fill that the configuration does not hold as a placeholder", () => {
    const { root } = readConfig(
      serializeConfig({
        services: [
          {
            name: "w",
            worker: { modules: [{ name: "index.js", esModule: "export default {}" }], compatibilityDate: "2025-01-01" },
          },
        ],
      }),
    );
    expect(() => applyModuleSources(root, { "index.js": "/nowhere/index.js" })).toThrow(
      /no placeholder for module index\.js/,
    );
  });
});
