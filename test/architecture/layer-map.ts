/**
 * Which layer each part of the Worker belongs to, and the rules between
 * layers (docs/architecture.md, Layout). From the top:
 *
 *   HTTP        requests, responses, status codes, the route table
 *   storage     the Durable Object and its SQLite stores
 *   domain      pure rules and shapes: configuration, trust, roles, wire schemas
 *   simulation  the seeded data-plane model
 *
 * Run-time imports point down or stay within a layer. The domain sits below
 * the stores (issue #10, step 3: the stores call the trust and configuration
 * rules, never the reverse) and above the simulator (configuration parses
 * prefixes with simulator/prefix.ts; the simulator only borrows the wire
 * schemas' types).
 */
import type { Import } from "./import-graph.ts";

export type Layer = "http" | "storage" | "domain" | "simulation";

/** Top to bottom: a file may import at run time only its own layer or one further down. */
export const LAYERS: readonly Layer[] = ["http", "storage", "domain", "simulation"];

/**
 * Path prefixes and their layer, with the reason; the longest matching prefix
 * wins, so a file can sit in a folder of another layer when what it does says so.
 */
export const LAYER_MAP: readonly { prefix: string; layer: Layer; why: string }[] = [
  { prefix: "src/index.ts", layer: "http", why: "the Worker's fetch entry" },
  { prefix: "src/http/", layer: "http", why: "route type, pipeline, problem details, bodies, headers, pages" },
  { prefix: "src/routes/", layer: "http", why: "one file per API section: the route table" },
  {
    prefix: "src/openapi/",
    layer: "http",
    why: "the OpenAPI document is read from the route table, so it sits where the table does",
  },
  {
    prefix: "src/auth/authenticate.ts",
    layer: "http",
    why: "reads the credential off the request and enforces a route's floor with statuses",
  },
  { prefix: "src/fleet/proxy.ts", layer: "http", why: "relays a peer's HTTP answer" },
  { prefix: "src/fleet/context.ts", layer: "http", why: "the appliance as route handlers see it" },
  { prefix: "durable-objects/", layer: "storage", why: "the Appliance object and its stores" },
  {
    prefix: "src/env.ts",
    layer: "domain",
    why: "the deployment's bindings: types only, read by the object and the fleet definition",
  },
  { prefix: "src/auth/", layer: "domain", why: "roles, role floors, account rules, bootstrap: no request in sight" },
  { prefix: "src/config/", layer: "domain", why: "the configuration registry and its validation" },
  { prefix: "src/trust/", layer: "domain", why: "the trust core: pure policy and credentials" },
  { prefix: "src/schemas/", layer: "domain", why: "wire shapes and refusals as tagged unions, shared by every layer" },
  { prefix: "src/fleet/", layer: "domain", why: "the fleet file as the Worker reads it" },
  {
    prefix: "src/syslog/",
    layer: "domain",
    why: "the RFC 5424 message and its stream framing: pure formatting, no socket",
  },
  { prefix: "src/radius/", layer: "domain", why: "the RADIUS packet codec and its MD5 signing: pure, no socket" },
  {
    prefix: "src/metrics/",
    layer: "domain",
    why: "the Prometheus text format and families: pure formatting, no request",
  },
  { prefix: "src/upgrade/", layer: "domain", why: "the upgrade package format, also read by scripts/" },
  { prefix: "fleet-config/", layer: "domain", why: "the fleet file's schema, shared with the launcher" },
  { prefix: "simulator/", layer: "simulation", why: "the pure seeded model" },
];

/**
 * What the wire contract (src/schemas/) may load at run time besides itself and zod: the web UI bundles
 * it, and the simulator borrows its types, so it stays free of model, store and HTTP code. Each
 * exception is a pure rule the contract states: the simulator's shared enumerations (a leaf), the
 * role order and account-name rules, the OIDC issuer rule, and the configuration registry from which
 * the keyed lists' bodies and rows are derived.
 */
export const CONTRACT_RUNTIME_IMPORTS: readonly string[] = [
  "simulator/vocabulary.ts",
  "src/auth/roles.ts",
  "src/auth/accounts.ts",
  "src/trust/oidc.ts",
  "src/config/registry.ts",
];

/** The folders outside the Worker (tools, tests, the browser UI): layered code imports none of them. */
const OUTSIDE = ["launcher/", "scripts/", "test/", "ui/"];
/** The web UI's build output, which the HTTP layer bundles as text (src/http/web-ui.ts). */
const UI_BUILD = "ui/dist/";

/** The layer of a file, or null when it is outside the Worker or a package. */
export function layerOf(file: string): Layer | null {
  let best: { prefix: string; layer: Layer } | null = null;
  for (const entry of LAYER_MAP) {
    if (
      (file === entry.prefix || (entry.prefix.endsWith("/") && file.startsWith(entry.prefix))) &&
      entry.prefix.length > (best?.prefix.length ?? -1)
    )
      best = entry;
  }
  return best?.layer ?? null;
}

const isWorkerSource = (file: string): boolean => /^(src|durable-objects|simulator|fleet-config)\//.test(file);
const rank = (layer: Layer): number => LAYERS.indexOf(layer);

/** How an import reads in a failure message: `file:line imports target (run time|type only)`. */
const importText = (i: Import): string =>
  `${i.from}:${i.line} imports ${i.to} (${i.runtime ? "at run time" : "type only"})`;

/** Every broken layer rule among these imports, one line each naming the file, the import and the rule. */
export function layerViolations(imports: readonly Import[]): string[] {
  const found: string[] = [];
  for (const i of imports) {
    if (!isWorkerSource(i.from)) continue;
    const from = layerOf(i.from);
    const to = layerOf(i.to);
    const isPackage = !i.specifier.startsWith(".");
    if (from === "simulation") {
      // The simulator stays pure: runnable in plain Node from a seed, so nothing of the Worker's comes in at run time.
      const allowed =
        to === "simulation" || (isPackage && i.to === "zod") || (!i.runtime && i.to.startsWith("src/schemas/"));
      if (!allowed)
        found.push(
          `${importText(i)}: simulator/ imports only itself, zod, and types from src/schemas/ (with \`import type\`)`,
        );
      continue;
    }
    if (i.from.startsWith("src/schemas/") && i.runtime) {
      const allowed = isPackage
        ? i.to === "zod"
        : i.to.startsWith("src/schemas/") || CONTRACT_RUNTIME_IMPORTS.includes(i.to);
      if (!allowed)
        found.push(
          `${importText(i)}: the contract (src/schemas/) loads only itself, zod ` +
            `and ${CONTRACT_RUNTIME_IMPORTS.join(", ")} at run time (the web UI bundles it)`,
        );
      if (isPackage) continue;
    }
    if (isPackage) continue;
    if (OUTSIDE.some((folder) => i.to.startsWith(folder))) {
      if (!(from === "http" && i.to.startsWith(UI_BUILD)))
        found.push(
          `${importText(i)}: the Worker imports nothing from launcher/, scripts/, test/ or ` +
            `ui/ (only the HTTP layer bundles ui/dist/)`,
        );
      continue;
    }
    if (from === null || to === null) {
      found.push(
        `${importText(i)}: every Worker file has a layer (add its folder to LAYER_MAP in ` +
          `test/architecture/layer-map.ts)`,
      );
      continue;
    }
    if (to === "http" && from !== "http") {
      // Stricter than the run-time rule: below HTTP nothing even names a request-level type (issue #10, "done means").
      found.push(`${importText(i)}: only the HTTP layer imports the HTTP layer, types included (${from} is below it)`);
    } else if (i.runtime && rank(to) < rank(from)) {
      found.push(
        `${importText(i)}: ${from} may not import ${to} at run time (layers ` +
          `run ${LAYERS.join(" → ")}; imports point down)`,
      );
    }
  }
  return found;
}
