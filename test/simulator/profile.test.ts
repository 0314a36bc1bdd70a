import { describe, expect, it } from "vitest";
import { parseProfile } from "../../simulator/index.ts";
import { rawProfile } from "./helpers.ts";

function issuesOf(patch: (raw: Record<string, any>) => void): string[] {
  const raw = structuredClone(rawProfile("small")) as Record<string, any>;
  patch(raw);
  const r = parseProfile(raw);
  return r.ok ? [] : r.issues;
}

describe("profiles", () => {
  it.each(["small", "default", "large", "xlarge"] as const)("accepts the shipped %s profile", (name) => {
    const r = parseProfile(rawProfile(name));
    expect(r.ok ? [] : r.issues).toEqual([]);
  });

  it("sizes the shipped profiles at about 2,000, 20,000 and 128,000 sessions", () => {
    const steady = (name: "small" | "default" | "large") => {
      const r = parseProfile(rawProfile(name));
      return r.ok ? r.profile.population.steadyStateSessions : 0;
    };
    expect(steady("small")).toBe(2000);
    expect(steady("default")).toBe(20_000);
    expect(steady("large")).toBe(128_000);
  });

  // Issue #22: 2e9 subscribers were accepted (an allocation of about 24 GB). The bound is the largest shipped
  // profile's base, read here from its file, not from the schema.
  it("bounds the subscriber base at the xlarge profile's, naming population.subscribers beyond it", () => {
    const largest = (rawProfile("xlarge") as { population: { subscribers: number } }).population.subscribers;
    expect(largest).toBe(272_000);
    expect(issuesOf((p) => (p.population.subscribers = largest))).toEqual([]);
    expect(issuesOf((p) => (p.population.subscribers = largest + 1))).toEqual([
      expect.stringMatching(/^population\.subscribers: at most 272,000/),
    ]);
    expect(issuesOf((p) => (p.population.subscribers = 2e9))).toEqual([
      expect.stringMatching(/^population\.subscribers: at most 272,000/),
    ]);
  });

  it("rejects a delegation length that does not suit the family", () => {
    expect(issuesOf((p) => (p.pools[3].delegationLength = 56)).join()).toMatch(/pools\.3\.delegationLength/);
  });

  it("rejects overlapping subnets in one VRF", () => {
    expect(issuesOf((p) => p.pools[0].subnets.push({ prefix: "198.18.0.0/24", announce: true })).join()).toMatch(
      /overlaps/,
    );
  });

  it("rejects public space in a CGN-translated pool", () => {
    expect(issuesOf((p) => (p.pools[1].subnets[0].prefix = "203.0.113.0/24")).join()).toMatch(/RFC 1918/);
  });

  it("rejects references to unknown VRFs and a portCap that is not a multiple of chunkSize", () => {
    expect(issuesOf((p) => (p.identities.realms[0].vrf = "nowhere")).join()).toMatch(/unknown VRF 'nowhere'/);
    expect(issuesOf((p) => (p.cgn.groups[0].portCap = 1500)).join()).toMatch(/multiple of chunkSize/);
  });

  it("rejects unknown keys and a missing global table", () => {
    expect(issuesOf((p) => (p.extra = 1)).length).toBeGreaterThan(0);
    expect(issuesOf((p) => (p.vrfs = p.vrfs.filter((v: { name: string }) => v.name !== "default"))).join()).toMatch(
      /'default'/,
    );
  });
});
