/**
 * The examples in examples/, run as a user runs them: each copied into a project of its own outside the
 * repository, with the packed bngfleet (not this repository's sources) and its other dependencies from the
 * registry.
 */
import { cp, readFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, inject, it } from "vitest";
import { freePortBase } from "../../scripts/harness/fleet-process.ts";
import { background, envWith, installedProject, listening, processesIn, run, until } from "./project.ts";

const { tarball, scratch, node22 } = inject("pack");
const EXAMPLES = path.resolve(import.meta.dirname, "../../examples");

describe("examples/vitest", () => {
  it("starts a fleet in globalSetup, reads and disconnects a session, and stops the fleet after the run", async () => {
    const project = path.join(scratch, "example-vitest");
    const env = envWith(process.execPath, { BNG_PORT_BASE: String(await freePortBase(2)) });
    await installedProject(project, tarball, env, path.join(EXAMPLES, "vitest"));
    const { stdout } = await run("npx", ["vitest", "run"], project, env);
    expect(stdout).toMatch(/Tests\s+2 passed \(2\)/);
    expect(await processesIn(project)).toEqual([]);
    expect(await listening(Number(env.BNG_PORT_BASE))).toBe(false);
  });
});

describe("examples/playwright", () => {
  it("starts a fleet as Playwright's webServer and signs in to its web UI in Chromium", async () => {
    const project = path.join(scratch, "example-playwright");
    const env = envWith(process.execPath, {
      BNG_PORT_BASE: String(await freePortBase(1)),
      CHROMIUM_PATH: "/usr/bin/chromium",
      CI: "1",
    });
    await installedProject(project, tarball, env, path.join(EXAMPLES, "playwright"));
    const { stdout } = await run("npx", ["playwright", "test", "--reporter=line"], project, env);
    expect(stdout).toMatch(/1 passed/);
    await until(async () => (await processesIn(project)).length === 0);
    expect(await processesIn(project)).toEqual([]);
  });
});

describe("examples/github-actions", () => {
  it("runs its workflow's steps (those GitHub's own actions do not) on Node.js 22 and its checks pass", async () => {
    const project = path.join(scratch, "example-github-actions");
    await cp(path.join(EXAMPLES, "github-actions"), project, { recursive: true });
    const workflow = parse(await readFile(path.join(project, ".github", "workflows", "api-tests.yml"), "utf8")) as {
      jobs: Record<string, { steps: { uses?: string; run?: string; with?: { "node-version"?: number } }[] }>;
    };
    const steps = Object.values(workflow.jobs)[0]!.steps;
    // actions/checkout is this copy; actions/setup-node is the Node.js it names, installed for this suite.
    expect(steps.find((s) => s.uses?.startsWith("actions/setup-node"))?.with?.["node-version"]).toBe(22);
    const env = envWith(node22, { BNG_PORT_BASE: String(await freePortBase(2)) });
    const jobs: ReturnType<typeof background>[] = [];
    const outputs: string[] = [];
    try {
      for (const step of steps.filter((s) => s.run !== undefined)) {
        // The registry's bngfleet is the one just packed.
        const script = step.run!.replace(
          "npm install --save-dev bngfleet",
          `npm install --save-dev --no-audit --no-fund --prefer-offline ${tarball}`,
        );
        // As a runner does: bash -e, each step in the job's process group, background jobs left running.
        const job = background("bash", ["-e", "-c", script], project, env);
        jobs.push(job);
        const code = await job.exited;
        outputs.push(job.stdout() + job.stderr());
        expect(code, `step failed:\n${script}\n${outputs.at(-1)}`).toBe(0);
      }
      expect(outputs.join("\n")).toMatch(
        /edge-1: running, software bngfleet [\d.]+\nedge-2: running, software bngfleet [\d.]+/,
      );
    } finally {
      // The end of the job: its processes are stopped.
      for (const job of jobs) {
        try {
          process.kill(-job.child.pid!, "SIGTERM");
        } catch {
          // That step's processes are gone.
        }
      }
    }
    await until(async () => (await processesIn(project)).length === 0);
    expect(await processesIn(project)).toEqual([]);
  });
});
