/**
 * The package project's global setup: packs this repository as `npm pack` does for a release (its prepack builds
 * dist/), into a scratch folder outside the repository, and installs Node.js 22 there from the npm registry, so
 * the package runs on both LTS versions users have (this suite itself runs on the repository's Node 24).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

const ROOT = path.resolve(import.meta.dirname, "../..");

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const scratch = await mkdtemp(path.join(tmpdir(), "bngfleet-package-"));
  const npm = (args: string[], cwd: string) =>
    execFileSync("npm", [...args, "--no-audit", "--no-fund", "--prefer-offline"], {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  npm(["pack", "--pack-destination", scratch, "--json"], ROOT);
  const tarball = path.join(scratch, (await readdir(scratch)).find((name) => name.endsWith(".tgz"))!);
  const node22 = path.join(scratch, "node22");
  npm(["install", "--prefix", node22, "node@22"], scratch);
  project.provide("pack", { tarball, scratch, node22: path.join(node22, "node_modules", ".bin", "node") });
  return () => rm(scratch, { recursive: true, force: true });
}

declare module "vitest" {
  export interface ProvidedContext {
    pack: { tarball: string; scratch: string; node22: string };
  }
}
