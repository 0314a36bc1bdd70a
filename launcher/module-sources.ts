/**
 * The Worker's modules put into workerd's configuration by the launcher's rewrite, not by Miniflare.
 *
 * Miniflare embeds each module's source in the Cap'n Proto message it writes, in an arena that grows by copying the
 * whole message at every allocation of at least 4 KB (capnp-es's single-segment arena grows linearly). Once the
 * bundle's 5.3 MB of sources are in, each of the thousands of small allocations after them copies them again: on
 * this 2-core machine, 2.1-2.4 s of the launcher's CPU per start against 0.12-0.18 s for the same configuration
 * with one-line modules (a third of a three-appliance start). So Miniflare is handed a placeholder for each module
 * and the rewrite (launcher/workerd-config.ts) sets the files' contents: one allocation, one copy, each.
 */
import { readFileSync } from "node:fs";
import { utils } from "capnp-es";
import type { ModuleDefinition } from "miniflare";
import type { BundleModule } from "./bundle.ts";
import type { Config } from "./workerd-message.ts";

/** What Miniflare is given as a module's source; the rewrite refuses to replace anything else. */
export const MODULE_PLACEHOLDER =
  "/* bngfleet: the launcher's rewrite of workerd's configuration puts this module's source here */";

/** Worker.Module's content kinds (the union at data offset 0) whose source is text the rewrite sets. */
const TEXT_KINDS = new Set([0 /* esModule */, 2 /* text */]);

/**
 * The modules as Miniflare is to see them (their sources as placeholders) and the files the rewrite reads them
 * from, by module name (a path relative to the bundle's folder, as Miniflare names a module). Only text modules
 * go by reference; any other kind stays in the message as it is.
 */
export function modulesByReference(
  modules: BundleModule[],
  root: string,
): { modules: ModuleDefinition[]; files: Record<string, string> } {
  const files: Record<string, string> = {};
  const definitions = modules.map(({ path, type }): ModuleDefinition => {
    if (type !== "ESModule" && type !== "Text") return { type, path, contents: new Uint8Array(readFileSync(path)) };
    files[path.slice(root.length + 1)] = path;
    return { type, path, contents: MODULE_PLACEHOLDER };
  });
  return { modules: definitions, files };
}

/**
 * Sets every placeholder module's source from its file (Miniflare's own services have modules of the same names,
 * with their sources: the placeholder tells ours); throws naming a module it was to fill and did not find.
 */
export function applyModuleSources(root: Config, files: Record<string, string>): void {
  // Found first, written after: a write grows the message into a new buffer, which structs read before it do not see.
  const found: { service: number; module: number; file: string }[] = [];
  root.services.forEach((service, i) =>
    (service.worker?.modules ?? []).forEach((module, j) => {
      const file = files[module.name];
      if (file === undefined || !TEXT_KINDS.has(utils.getUint16(0, module))) return;
      if (utils.getText(1, module).startsWith(MODULE_PLACEHOLDER)) found.push({ service: i, module: j, file });
    }),
  );
  for (const { service, module: index, file } of found) {
    const module = root.services.get(service).worker!.modules!.get(index);
    // Miniflare appends a `//# sourceURL=` line naming the file to an ES module, for stack traces: it is kept.
    const placed = utils.getText(1, module);
    // The pointer alone is cleared, its placeholder left unreferenced as capnp allows: setText over a text erases
    // it first, and capnp-es's erase of a byte list zeroes eight times its length (the words after it: a Worker's
    // compatibility date, here).
    utils.erasePointer(utils.getPointer(1, module));
    utils.setText(1, readFileSync(file, "utf8") + placed.slice(MODULE_PLACEHOLDER.length), module);
  }
  const filled = new Set(found.map((f) => f.file));
  const missing = Object.entries(files)
    .filter(([, file]) => !filled.has(file))
    .map(([name]) => name);
  if (missing.length > 0)
    throw new Error(`workerd's configuration has no placeholder for module ${missing.join(", ")}`);
}
