/**
 * The package as a user gets it: packed from this repository, installed into an empty project outside it from the
 * tarball (its one dependency, Miniflare, from the registry), and run there on Node.js 22 and 24 with no build step.
 */
import { execFileSync } from "node:child_process";
import { copyFile, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { freePortBase } from "../../scripts/harness/fleet-process.ts";
import { attempt, background, envWith, installedProject, listening, processesIn, run, until } from "./project.ts";

const { tarball, scratch, node22 } = inject("pack");

/** The packed size a release may grow to; it is 2.1 MB today, most of it the Worker and the API reference viewer. */
const PACKED_BUDGET_BYTES = 3 * 1024 * 1024;

describe("the tarball npm pack makes", () => {
  it("holds the built package only, within its size budget", async () => {
    const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
      .trim()
      .split("\n")
      .map((f) => f.replace(/^package\//, ""));
    const { size } = await stat(tarball);
    console.log(
      `${path.basename(tarball)}: ${(size / 1024 / 1024).toFixed(2)} MB ` +
        `packed, ${files.length} files:\n  ${files.join("\n  ")}`,
    );
    expect(size).toBeLessThan(PACKED_BUDGET_BYTES);
    expect(files).toEqual(
      expect.arrayContaining([
        "package.json",
        "README.md",
        "dist/cli.js",
        "dist/main.js",
        "dist/index.js",
        "dist/index.d.ts",
        "dist/worker/index.js",
        "dist/openapi.json",
        "dist/wrangler.toml",
        "fleet-config/fleet.json",
        "scenarios/radius-outage.json",
      ]),
    );
    // What a user's machine runs is built JavaScript: no sources, tests, source maps or TypeScript but the types.
    expect(files.filter((f) => !/^(dist|fleet-config|scenarios)\/|^(package\.json|README\.md)$/.test(f))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toEqual([]);
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
  });
});

describe.each([
  ["22", node22],
  ["24", process.execPath],
])("installed into an empty project, on Node.js %s", (version, node) => {
  const project = path.join(scratch, `user-node${version}`);
  const env = envWith(node);

  beforeAll(async () => {
    expect(execFileSync(node, ["--version"], { encoding: "utf8" })).toMatch(new RegExp(`^v${version}\\.`));
    await installedProject(project, tarball, env);
  }, 300_000);

  it("answers --help on every command and --version, and refuses bad input with a line and status 2", async () => {
    const help = await run("npx", ["bngfleet", "--help"], project, env);
    expect(help.stdout).toMatch(/^Usage: bngfleet <command> \[options\]$/m);
    for (const command of ["start", "token", "scenario", "openapi", "upgrade-package", "licence"]) {
      expect((await run("npx", ["bngfleet", command, "--help"], project, env)).stdout).toMatch(
        new RegExp(`Usage:[\\s\\S]*bngfleet ${command}`),
      );
    }
    expect((await run("npx", ["bngfleet", "--version"], project, env)).stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const bad: [string[], RegExp][] = [
      [["start", "--colour"], /unknown option '--colour'/],
      [["start", "--appliances", "0"], /--appliances must be a whole number of appliances from 1 to 1000, not '0'/],
      [["start", "--port-base", "70000"], /--port-base must be a port number \(1-65535\), not '70000'/],
      [["start", "--profile", "huge"], /--profile must be one of small, default, large, xlarge .* not 'huge'/],
      [["launch"], /unknown command 'launch'/],
    ];
    for (const [args, message] of bad) {
      const result = await attempt("npx", ["bngfleet", ...args], project, env);
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toMatch(message);
    }
  });

  it("makes a well-formed token and prints the OpenAPI document", async () => {
    expect((await run("npx", ["bngfleet", "token"], project, env)).stdout.trim()).toMatch(/^bngtok_[0-9A-Za-z]{36}$/);
    const document = JSON.parse((await run("npx", ["bngfleet", "openapi"], project, env)).stdout) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(document.paths)).toContain("/api/v1/sessions/{id}");
  });

  it(
    "starts a fleet whose JSON line names every appliance and a token that reads " +
      "each, and leaves nothing when stopped",
    async () => {
      const portBase = await freePortBase(2);
      const dataDir = path.join(project, "fleet-data");
      const fleet = background(
        "npx",
        [
          "bngfleet",
          "start",
          "--http",
          "--appliances",
          "2",
          "--port-base",
          String(portBase),
          "--data-dir",
          dataDir,
          "--json",
        ],
        project,
        env,
      );
      for (let i = 0; i < 1200 && !fleet.stdout().includes("\n"); i++) {
        if (fleet.child.exitCode !== null)
          throw new Error(`bngfleet start exited with ${fleet.child.exitCode}:\n${fleet.stderr()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const lines = fleet.stdout().trim().split("\n");
      expect(lines).toHaveLength(1);
      const started = JSON.parse(lines[0]!) as {
        appliances: { name: string; url: string }[];
        token: string;
        dataDir: string;
      };
      expect(started).toEqual({
        appliances: [
          { name: "edge-1", url: `http://127.0.0.1:${portBase}`, webUi: `http://edge-1.bng.localhost:${portBase}/` },
          {
            name: "edge-2",
            url: `http://127.0.0.1:${portBase + 1}`,
            webUi: `http://edge-2.bng.localhost:${portBase + 1}/`,
          },
        ],
        token: expect.stringMatching(/^bngtok_[0-9A-Za-z]{36}$/),
        dataDir,
      });
      for (const { name, url } of started.appliances) {
        const health = await fetch(`${url}/api/v1/system/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({ status: "ok", appliance: name });
        expect((await fetch(`${url}/api/v1/system/status`)).status).toBe(401);
        const status = await fetch(`${url}/api/v1/system/status`, {
          headers: { authorization: `Bearer ${started.token}` },
        });
        expect(status.status).toBe(200);
        expect(await status.json()).toMatchObject({ appliance: name });
      }
      // The scenario command, against the running fleet, as a pipeline would drive it.
      const scenario = await run(
        "npx",
        ["bngfleet", "scenario", "steady-state", "--url", started.appliances[1]!.url, "--token", started.token],
        project,
        env,
      );
      expect(scenario.stdout).toMatch(
        new RegExp(
          `^${started.appliances[1]!.url}: ran scenario .*steady-state\\.json \\(0 ` +
            `steps\\), now \\S+Z with \\d+ sessions$`,
          "m",
        ),
      );
      // Ctrl-C in a terminal signals the whole job: npx, which exits at once, and the fleet under it, which stops.
      process.kill(-fleet.child.pid!, "SIGINT");
      await fleet.exited;
      await until(async () => (await processesIn(project)).length === 0);
      expect(await listening(portBase)).toBe(false);
      expect(await listening(portBase + 1)).toBe(false);
      expect(await processesIn(project)).toEqual([]);
    },
  );

  it("startFleet() answers the same and stop() leaves no process and no port", async () => {
    const portBase = await freePortBase(2);
    const script = path.join(project, "fleet-script.mjs");
    await writeFile(
      script,
      `import { startFleet } from "bngfleet";
const fleet = await startFleet({ appliances: 2, http: true, portBase: ${portBase} });
const statuses = [];
for (const { url } of fleet.appliances) {
  const headers = { authorization: "Bearer " + fleet.token };
  statuses.push((await fetch(url + "/api/v1/system/status", { headers })).status);
}
await fleet.stop();
console.log(JSON.stringify({ appliances: fleet.appliances, statuses, dataDir: fleet.dataDir }));
`,
    );
    const { stdout } = await run("node", [script], project, env);
    const result = JSON.parse(stdout) as {
      appliances: { name: string; url: string }[];
      statuses: number[];
      dataDir: string;
    };
    expect(result.appliances).toEqual([
      { name: "edge-1", url: `http://127.0.0.1:${portBase}`, webUi: `http://edge-1.bng.localhost:${portBase}/` },
      {
        name: "edge-2",
        url: `http://127.0.0.1:${portBase + 1}`,
        webUi: `http://edge-2.bng.localhost:${portBase + 1}/`,
      },
    ]);
    expect(result.statuses).toEqual([200, 200]);
    expect(await listening(portBase)).toBe(false);
    expect(await listening(portBase + 1)).toBe(false);
    expect(await processesIn(project)).toEqual([]);
    // Its own temporary data folder is gone with it.
    await expect(stat(result.dataDir)).rejects.toThrow(/ENOENT/);
  });

  it("exits 1 naming a port already in use, leaving nothing running", async () => {
    const portBase = await freePortBase(2);
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(portBase + 1, "127.0.0.1", resolve));
    try {
      const result = await attempt(
        "npx",
        [
          "bngfleet",
          "start",
          "--http",
          "--appliances",
          "2",
          "--port-base",
          String(portBase),
          "--data-dir",
          path.join(project, "busy-data"),
        ],
        project,
        env,
      );
      expect(result.status).toBe(1);
      expect(result.stderr).toContain(`Port ${portBase + 1} on 127.0.0.1 (appliance edge-2) is already in use`);
      expect(await listening(portBase)).toBe(false);
      expect(await processesIn(project)).toEqual([]);
    } finally {
      holder.close();
    }
  });
});

describe("the Worker the package ships, deployed from a user's project", () => {
  it(
    "is what wrangler uploads with the shipped wrangler.toml: the bundle and its " + "four text modules, as built",
    async () => {
      const project = path.join(scratch, "user-deploy");
      const env = envWith(process.execPath, { WRANGLER_SEND_METRICS: "false" });
      await installedProject(project, tarball, env);
      await copyFile(
        path.join(project, "node_modules", "bngfleet", "dist", "wrangler.toml"),
        path.join(project, "wrangler.toml"),
      );
      // The user's own wrangler (this repository's, as installed from the registry).
      const wrangler = path.resolve(import.meta.dirname, "../../node_modules/wrangler/bin/wrangler.js");
      const { stdout } = await run(
        process.execPath,
        [wrangler, "deploy", "--dry-run", "--outdir", "out"],
        project,
        env,
      );
      expect(stdout).toContain("env.Appliance (Appliance)");
      expect(stdout).toMatch(/Total \(4 modules\)/);
      const shipped = path.join(project, "node_modules", "bngfleet", "dist", "worker");
      for (const name of await readdir(shipped)) {
        expect(
          (await readFile(path.join(project, "out", name))).equals(await readFile(path.join(shipped, name))),
          name,
        ).toBe(true);
      }
    },
  );
});

describe("the types the package ships", () => {
  it("check a TypeScript caller of startFleet() (await using included) and refuse a misspelt option", async () => {
    const project = path.join(scratch, "user-typescript");
    const env = envWith(process.execPath);
    await installedProject(project, tarball, env);
    await writeFile(
      path.join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          lib: ["es2022", "esnext.disposable", "dom"],
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          noEmit: true,
          types: [],
        },
      }),
    );
    await writeFile(
      path.join(project, "fleet.ts"),
      `import { startFleet, type Fleet, type StartFleetOptions } from "bngfleet";
const options: StartFleetOptions = {
  appliances: 2,
  http: true,
  portBase: 9443,
  clock: "manual",
  log: (line) => void line,
};
export async function run(): Promise<string[]> {
  await using fleet: Fleet = await startFleet(options);
  return fleet.appliances.map((a) => a.name + " " + a.url + " " + fleet.token);
}
`,
    );
    const tsc = path.resolve(import.meta.dirname, "../../node_modules/typescript/bin/tsc");
    await run(process.execPath, [tsc, "-p", "."], project, env);
    await writeFile(
      path.join(project, "fleet.ts"),
      `import { startFleet } from "bngfleet";\nawait startFleet({ appliance: 2 });\n`,
    );
    const refused = await attempt(process.execPath, [tsc, "-p", "."], project, env);
    expect(refused.status).not.toBe(0);
    expect(refused.stdout).toMatch(
      /'appliance' does not exist in type 'StartFleetOptions'\. Did you mean to write 'appliances'\?/,
    );
  });
});
