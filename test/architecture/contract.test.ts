/**
 * The wire contract (src/schemas/) is imported at run time by the Worker and
 * by the web UI's bundle (`call(operation, input)` in ui/api.ts reads an
 * operation's method and path), so it loads nothing server-side: only zod,
 * itself, the simulator's leaf of shared enumerations, and the few pure rules
 * named here (issue #27, the contract step).
 */
import { describe, expect, it } from "vitest";
import { importGraph, type Import } from "./import-graph.ts";

/** What a contract file may load at run time besides zod and other contract files, each with the reason. */
const ALLOWED: Record<string, string> = {
  "simulator/vocabulary.ts": "the enumerations and catalogues the contract shares with the model; a leaf that imports nothing",
  "src/auth/roles.ts": "the role names and the role schema",
  "src/auth/accounts.ts": "the username and new-password rules an account write is checked with",
  "src/trust/oidc.ts": "the issuer rule of an OIDC provider write",
  "src/config/registry.ts": "the configuration registry, from which the configuration's shapes are derived",
};

/** Every run-time import of a contract file that reaches outside what the contract may load. */
function contractViolations(imports: readonly Import[]): string[] {
  return imports
    .filter((i) => i.from.startsWith("src/schemas/") && i.runtime && !i.dynamic)
    .filter((i) => !(i.to === "zod" || i.to.startsWith("src/schemas/") || i.to in ALLOWED))
    .map((i) => `${i.from}:${i.line} imports ${i.to} at run time: the contract loads only zod, src/schemas/ and ${Object.keys(ALLOWED).join(", ")}`);
}

const edge = (from: string, to: string, runtime: boolean): Import => ({ from, to, specifier: to, runtime, dynamic: false, line: 3 });

describe("the wire contract's run-time imports", () => {
  it("refuse a contract file loading the HTTP layer, a store or the model, and allow types and the vocabulary", () => {
    const imports = [
      edge("src/schemas/sessions.ts", "src/http/route.ts", true),
      edge("src/schemas/logs.ts", "simulator/log-catalogue.ts", true),
      edge("src/schemas/system.ts", "durable-objects/appliance.ts", true),
      edge("src/schemas/alarms.ts", "simulator/vocabulary.ts", true),
      edge("src/schemas/sessions.ts", "simulator/session-queries.ts", false),
      edge("src/schemas/captures.ts", "zod", true),
    ];
    expect(contractViolations(imports).map((v) => v.split(" imports ")[1]!.split(" ")[0])).toEqual(["src/http/route.ts", "simulator/log-catalogue.ts", "durable-objects/appliance.ts"]);
  });

  it("hold in the tree", () => {
    expect(contractViolations(importGraph())).toEqual([]);
  });
});
