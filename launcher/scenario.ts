/**
 * --scenario (BNG_SCENARIO): a scenario file (scenarios/*.json; the schema is
 * src/schemas/scenario.ts) run on every appliance once the fleet is up,
 * as POST /twin/v1/scenario/run would run it. The file is checked before
 * anything starts, so a bad file fails the launch naming the field.
 */
import { readFile } from "node:fs/promises";
import type { Miniflare } from "miniflare";
import { ScenarioFile } from "../src/schemas/scenario.ts";
import { LaunchError, UsageError } from "./config.ts";
import { loadUpgradeSigningKey } from "./state.ts";
import { importUpgradeSigningKey, signedPackage } from "../src/trust/package-signature.ts";
import type { ApplianceRpc } from "../src/env.ts";

/**
 * Reads and validates a scenario file, throwing a UsageError that names the file (and what gave it) and every bad
 * field.
 */
export async function loadScenarioFile(file: string, label = "BNG_SCENARIO"): Promise<ScenarioFile> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new UsageError(`Cannot read scenario file ${file} (${label}): ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`Scenario file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = ScenarioFile.safeParse(raw);
  if (!parsed.success) {
    throw new UsageError(
      `Scenario file ${file} is not ` +
        `valid:\n${parsed.error.issues.map((i) => `  ${i.path.join(".") || "(file)"}: ${i.message}`).join("\n")}`,
    );
  }
  return parsed.data;
}

/** The object's one call the launcher makes here, typed from the object itself. */
type ScenarioRunner = Pick<ApplianceRpc, "runLauncherScenario">;

/**
 * The packages the file's `upgrade` actions install, by version: a placeholder image naming the version (the twin
 * installs no software), signed with the data dir's development key as `bngfleet upgrade-package` signs one, so the
 * appliances stage them as any upload, signature checked (issue #47: the action staged an unsigned placeholder).
 */
async function upgradePackages(file: ScenarioFile, dataDir: string): Promise<Record<string, Uint8Array>> {
  const versions = new Set(file.steps.flatMap((step) => (step.action === "upgrade" ? [step.version] : [])));
  if (versions.size === 0) return {};
  const key = await importUpgradeSigningKey((await loadUpgradeSigningKey(dataDir)).privatePem);
  const packages: Record<string, Uint8Array> = {};
  for (const version of versions) {
    const image = new TextEncoder().encode(`bngfleet ${version} image (scenario)\n`);
    packages[version] = await signedPackage(version, image, key);
  }
  return packages;
}

/**
 * Runs the file on each appliance in turn (the actor in their logs is `launcher`); a refused step fails the launch.
 * Answers a line per appliance saying where the scenario left it.
 */
export async function runScenarioOnFleet(
  mf: Miniflare,
  owner: string,
  appliances: readonly string[],
  file: ScenarioFile,
  label: string,
  dataDir: string,
): Promise<string[]> {
  const lines: string[] = [];
  const namespace = await mf.getDurableObjectNamespace("Appliance", owner);
  const packages = await upgradePackages(file, dataDir);
  for (const name of appliances) {
    const stub = namespace.get(namespace.idFromName(name)) as unknown as ScenarioRunner & Partial<Disposable>;
    const outcome = await stub.runLauncherScenario(file, packages);
    // Released at once: an undisposed proxy stub keeps Miniflare's dispose() waiting at shutdown.
    stub[Symbol.dispose]?.();
    if (!outcome.ok) throw new LaunchError(`Scenario ${label} failed on ${name}: ${outcome.detail}`);
    lines.push(
      `${name}: ran scenario ${label} (${outcome.result.steps} steps), ` +
        `now ${outcome.result.state.simulatedTimeUtc} ` +
        `with ${outcome.result.state.sessions} sessions`,
    );
  }
  return lines;
}
