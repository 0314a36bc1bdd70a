/**
 * The configuration diff a commit, a rollback and a comparison show, worked by hand from a history of four versions.
 */
import { describe, expect, it } from "vitest";
import { diffBetween } from "../../ui/pages/config-diff.ts";
import type { ConfigHistoryEntry } from "../../src/schemas/config.ts";

const entry = (version: number, changes: [string, string | null, string | null][]): ConfigHistoryEntry => ({
  version,
  committedUtc: `2026-03-02T09:0${version}:00Z`,
  actor: "user:admin",
  comment: null,
  operation: version === 4 ? "rollback" : "config",
  rollbackTo: version === 4 ? 2 : null,
  restartRequired: false,
  changedPaths: changes.map(([p]) => p),
  changes: changes.map(([pointer, before, after]) => ({ pointer, before, after })),
});

// v2 sets the router id and a secret, v3 changes both and the hostname, v4 rolls back to v2 (undoing v3).
const history = [
  entry(4, [
    ["#/fields/routing.routerId", "10.0.0.3", "10.0.0.2"],
    ["#/fields/system.hostname", "edge-b", "edge-a"],
    ["#/fields/radius.secret", "********", "********"],
  ]),
  entry(3, [
    ["#/fields/routing.routerId", "10.0.0.2", "10.0.0.3"],
    ["#/fields/system.hostname", "edge-a", "edge-b"],
    ["#/fields/radius.secret", "********", "********"],
  ]),
  entry(2, [["#/fields/routing.routerId", null, "10.0.0.2"]]),
  entry(1, []),
];

describe("the difference between two versions", () => {
  it("lists each value at the older version and at the newer one", () => {
    expect(diffBetween(history, 2, 3)).toEqual([
      { pointer: "#/fields/radius.secret", from: "********", to: "******** (changed)" },
      { pointer: "#/fields/routing.routerId", from: "10.0.0.2", to: "10.0.0.3" },
      { pointer: "#/fields/system.hostname", from: "edge-a", to: "edge-b" },
    ]);
  });

  it(
    "leaves out a value changed and changed back (a rollback undoing it), but not a " +
      "secret, which cannot be compared",
    () => {
      expect(diffBetween(history, 2, 4)).toEqual([
        { pointer: "#/fields/radius.secret", from: "********", to: "******** (changed)" },
      ]);
    },
  );

  it("reads the other way round when asked from the newer version (what a rollback restores)", () => {
    expect(diffBetween(history, 3, 1)).toEqual([
      { pointer: "#/fields/radius.secret", from: "******** (changed)", to: "********" },
      { pointer: "#/fields/routing.routerId", from: "10.0.0.3", to: null },
      { pointer: "#/fields/system.hostname", from: "edge-b", to: "edge-a" },
    ]);
  });

  it("never shows a secret's value, only that it changed", () => {
    expect(diffBetween(history, 1, 4)).toEqual([
      { pointer: "#/fields/radius.secret", from: "********", to: "******** (changed)" },
      { pointer: "#/fields/routing.routerId", from: null, to: "10.0.0.2" },
    ]);
  });
});
