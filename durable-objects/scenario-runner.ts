/**
 * Scenario control at the appliance: the data plane's actions go to the
 * data plane; `reset-bgp`, `upgrade` and `load-lease` act on the routing,
 * upgrade and licensing stores. A scenario file is run as the ordered clock
 * advances and actions `timeline` derives from it, stopping at the first
 * refused step (named by its index) with the state as it then stands.
 */
import { z } from "zod";
import { timeline } from "../simulator/scenario-file.ts";
import {
  ApplianceScenarioAction,
  ScenarioFile,
  TwinScenarioAction,
  type ScenarioActionResult,
  type ScenarioRunResult,
} from "../src/schemas/scenario.ts";
import { refuse, type Outcome } from "../src/schemas/outcome.ts";
import type { DataPlane } from "./data-plane.ts";
import type { LicensingStore } from "./licensing.ts";
import type { RoutingStore } from "./routing.ts";
import type { UpgradeStore } from "./upgrade.ts";

/** The stores a scenario acts on. */
export interface ScenarioStores {
  dataPlane: DataPlane;
  routing: RoutingStore;
  upgrade: UpgradeStore;
  licensing: LicensingStore;
}

const issues = (error: z.ZodError, prefix = "") =>
  error.issues
    .map((i) => `${[prefix, ...i.path.map(String)].filter(Boolean).join(".") || "action"}: ${i.message}`)
    .join("; ");

/** Packages by version for the `upgrade` actions of a scenario the local launcher runs, signed with its key. */
export type ScenarioPackages = Readonly<Record<string, Uint8Array>>;

/** Applies one action (validated here: the body of POST /twin/v1/scenario). */
export async function applyScenarioAction(
  stores: ScenarioStores,
  raw: unknown,
  actor: string,
  packages: ScenarioPackages = {},
): Promise<Outcome<{ result: ScenarioActionResult }>> {
  const parsed = TwinScenarioAction.safeParse(raw);
  if (!parsed.success) return refuse("invalid", issues(parsed.error));
  const appliance = ApplianceScenarioAction.safeParse(parsed.data);
  if (!appliance.success) return stores.dataPlane.scenario(parsed.data, actor);
  const { dataPlane } = stores;
  const action = appliance.data;
  dataPlane.log("notice", "audit.scenario", { action: action.action, actor });
  let detail: Record<string, number | string>;
  switch (action.action) {
    case "reset-bgp": {
      const reset = stores.routing.resetBgp(action.neighbor);
      if (action.neighbor !== null && reset.length === 0)
        return refuse("not-found", `no BGP neighbor '${action.neighbor}' is configured`);
      detail = { neighbors: reset.length };
      break;
    }
    case "upgrade": {
      // A signed package of that version, as an operator would stage: the launcher's, or the one already staged.
      const given = Object.hasOwn(packages, action.version) ? packages[action.version] : undefined;
      const staged = await stores.upgrade.scenarioPackage(action.version, given, actor);
      if (!staged.ok) return staged;
      const applied = stores.upgrade.apply(staged.staged.id, action.drain, actor);
      if (!applied.ok) return applied;
      detail = { version: action.version, drain: String(action.drain), packageId: staged.staged.id };
      break;
    }
    case "load-lease": {
      const loaded = await stores.licensing.loadScenarioLease(action, actor);
      if (!loaded.ok) return loaded;
      detail = { days: action.days, graceDays: action.graceDays, state: loaded.state };
      break;
    }
  }
  dataPlane.log("info", "scenario.action", {
    action: action.action,
    detail: Object.entries(detail)
      .map(([k, v]) => `${k}=${v}`)
      .join(" "),
  });
  return { ok: true, result: { ok: true, action: action.action, detail, state: dataPlane.scenarioState() } };
}

/** Runs a scenario file (validated here: the body of POST /twin/v1/scenario/run). */
export async function runScenarioFile(
  stores: ScenarioStores,
  raw: unknown,
  actor: string,
  packages: ScenarioPackages = {},
): Promise<Outcome<{ result: ScenarioRunResult }>> {
  const parsed = ScenarioFile.safeParse(raw);
  if (!parsed.success) return refuse("invalid", issues(parsed.error));
  for (const step of timeline(parsed.data)) {
    if (step.advanceSeconds > 0) {
      const advanced = await stores.dataPlane.scenario(
        { action: "advance-clock", seconds: step.advanceSeconds },
        actor,
      );
      if (!advanced.ok) return advanced;
    }
    if (!step.action) continue;
    const result = await applyScenarioAction(stores, step.action, actor, packages);
    const where = step.source === "seed" ? "seed" : `steps[${step.source}]`;
    if (!result.ok) return { ...result, detail: `${where} (at ${step.at} s, ${step.action.action}): ${result.detail}` };
  }
  return { ok: true, result: { ok: true, steps: parsed.data.steps.length, state: stores.dataPlane.scenarioState() } };
}
