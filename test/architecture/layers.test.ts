/**
 * The layer rules of docs/architecture.md's Layout section, checked on the source's
 * imports: HTTP → storage → domain → simulation at run time, nothing below
 * HTTP naming HTTP even as a type, a pure simulator, and no run-time import
 * cycle anywhere in the tree.
 */
import { describe, expect, it } from "vitest";
import {
  cycleViolations,
  importGraph,
  importsIn,
  runtimeCycles,
  sourceFiles,
  typeCycles,
  type Import,
} from "./import-graph.ts";
import { layerOf, layerViolations } from "./layer-map.ts";

/** One hand-written edge, as the graph reader would report it. */
const edge = (from: string, to: string, runtime: boolean): Import => ({
  from,
  to,
  specifier: `./${to}`,
  runtime,
  dynamic: false,
  line: 3,
});

describe("reading imports", () => {
  const text = [
    'import type { Role } from "../auth/roles.ts";',
    'import { type Outcome } from "../schemas/outcome.ts";',
    "import {",
    "  sha256Hex,",
    '} from "../trust/encoding.ts";',
    'export type { Principal } from "../schemas/principal.ts";',
    'export { ROLES } from "../auth/role-order.ts";',
    'import { z } from "zod";',
    'const lazy = () => import("../config/seed.ts");',
    'type Store = typeof import("../../durable-objects/identity.ts");',
  ].join("\n");
  const read = importsIn("src/http/example.ts", text).map(({ to, runtime, dynamic, line }) => ({
    to,
    runtime,
    dynamic,
    line,
  }));

  it("tells `import type` and `export type` from imports that load the module", () => {
    expect(read).toEqual([
      { to: "src/auth/roles.ts", runtime: false, dynamic: false, line: 1 },
      // verbatimModuleSyntax keeps `import {} from "…"`: the module is still evaluated.
      { to: "src/schemas/outcome.ts", runtime: true, dynamic: false, line: 2 },
      { to: "src/trust/encoding.ts", runtime: true, dynamic: false, line: 3 },
      { to: "src/schemas/principal.ts", runtime: false, dynamic: false, line: 6 },
      { to: "src/auth/role-order.ts", runtime: true, dynamic: false, line: 7 },
      { to: "zod", runtime: true, dynamic: false, line: 8 },
      { to: "src/config/seed.ts", runtime: true, dynamic: true, line: 9 },
      { to: "durable-objects/identity.ts", runtime: false, dynamic: false, line: 10 },
    ]);
  });

  it("finds the imports every Worker request depends on in the real tree", () => {
    const graph = importGraph();
    expect(graph).toContainEqual(
      expect.objectContaining({ from: "src/index.ts", to: "durable-objects/appliance.ts", runtime: true }),
    );
    expect(graph.filter((i) => i.from.startsWith("simulator/")).length).toBeGreaterThan(100);
  });
});

describe("the layer rules", () => {
  it("refuse a store importing a route file at run time, naming file, import and rule", () => {
    expect(layerViolations([edge("durable-objects/identity.ts", "src/routes/auth/schemas.ts", true)])).toEqual([
      "durable-objects/identity.ts:3 imports src/routes/auth/schemas.ts (at run time): " +
        "only the HTTP layer imports the HTTP layer, types included (storage is below it)",
    ]);
  });

  it("refuse a domain module naming an HTTP type", () => {
    expect(layerViolations([edge("src/schemas/outcome.ts", "src/http/problem.ts", false)])).toHaveLength(1);
  });

  it("refuse the domain calling into a store, but let it name a store's type", () => {
    expect(layerViolations([edge("src/trust/lockout.ts", "durable-objects/identity.ts", true)])).toEqual([
      "src/trust/lockout.ts:3 imports durable-objects/identity.ts (at run time): " +
        "domain may not import storage at run time (layers run http → storage → domain → " +
        "simulation; imports point down)",
    ]);
    expect(layerViolations([edge("src/schemas/commit.ts", "durable-objects/config-store.ts", false)])).toEqual([]);
  });

  it("let each layer import the ones below it", () => {
    const downward = [
      edge("src/routes/sessions.ts", "durable-objects/appliance.ts", true),
      edge("durable-objects/identity.ts", "src/trust/lockout.ts", true),
      edge("src/config/validate.ts", "simulator/prefix.ts", true),
    ];
    expect(layerViolations(downward)).toEqual([]);
  });

  it("keep the simulator to itself, zod and the wire schemas' types", () => {
    const imports = [
      edge("simulator/sessions.ts", "src/schemas/sessions.ts", false),
      { ...edge("simulator/scenario.ts", "zod", true), specifier: "zod" },
      edge("simulator/sessions.ts", "src/schemas/sessions.ts", true),
      edge("simulator/sessions.ts", "src/config/registry.ts", false),
      { ...edge("simulator/clock.ts", "cloudflare:workers", true), specifier: "cloudflare:workers" },
    ];
    expect(layerViolations(imports).map((v) => v.split(" imports ")[1]!.split(" ")[0])).toEqual([
      "src/schemas/sessions.ts",
      "src/config/registry.ts",
      "cloudflare:workers",
    ]);
  });

  it("keep the contract to itself, zod, the simulator's vocabulary and the pure rules it states", () => {
    const imports = [
      edge("src/schemas/alarms.ts", "simulator/vocabulary.ts", true),
      edge("src/schemas/sessions.ts", "src/schemas/common.ts", true),
      { ...edge("src/schemas/sessions.ts", "zod", true), specifier: "zod" },
      edge("src/schemas/alarms.ts", "simulator/alarms.ts", true),
      edge("src/schemas/system.ts", "src/metrics/families.ts", true),
      { ...edge("src/schemas/fleet.ts", "jose", true), specifier: "jose" },
      edge("src/schemas/sessions.ts", "simulator/session-queries.ts", false),
    ];
    expect(layerViolations(imports).map((v) => v.split(" imports ")[1]!.split(" ")[0])).toEqual([
      "simulator/alarms.ts",
      "src/metrics/families.ts",
      "jose",
    ]);
  });

  it("place every file of the Worker in a layer", () => {
    const unplaced = sourceFiles().filter(
      (file) => /^(src|durable-objects|simulator|fleet-config)\//.test(file) && layerOf(file) === null,
    );
    expect(unplaced).toEqual([]);
  });

  it("hold in the tree: no import breaks them", () => {
    expect(layerViolations(importGraph())).toEqual([]);
  });
});

describe("run-time import cycles", () => {
  it("are found, however long", () => {
    const ring = [
      edge("simulator/a.ts", "simulator/b.ts", true),
      edge("simulator/b.ts", "simulator/c.ts", true),
      edge("simulator/c.ts", "simulator/a.ts", true),
    ];
    expect(runtimeCycles(ring)).toEqual([["simulator/a.ts", "simulator/b.ts", "simulator/c.ts"]]);
    expect(cycleViolations(ring)[2]).toBe(
      "simulator/c.ts:3 imports simulator/a.ts (at run time): closes a run-time import " +
        "cycle through simulator/a.ts, simulator/b.ts, simulator/c.ts (a leaf module for " +
        "what they share breaks it)",
    );
    // A type-only edge vanishes when compiled, so it closes no cycle.
    expect(runtimeCycles([...ring.slice(0, 2), edge("simulator/c.ts", "simulator/a.ts", false)])).toEqual([]);
  });

  it(
    "do not occur anywhere in the tree (src, durable-objects, simulator, " +
      "fleet-config, launcher, scripts, ui, test)",
    () => {
      expect(cycleViolations(importGraph())).toEqual([]);
    },
  );
});

describe("type-level import cycles", () => {
  it("are found through a type-only edge too", () => {
    const ring = [edge("simulator/a.ts", "simulator/b.ts", true), edge("simulator/b.ts", "simulator/a.ts", false)];
    expect(runtimeCycles(ring)).toEqual([]);
    expect(typeCycles(ring)).toEqual([["simulator/a.ts", "simulator/b.ts"]]);
  });

  it("do not occur outside the tests: each file can be read after those it imports", () => {
    expect(typeCycles(importGraph().filter((i) => !i.from.startsWith("test/") && !i.to.startsWith("test/")))).toEqual(
      [],
    );
  });
});
