/** The simulation profiles shipped in fleet-config/profiles/, bundled into the Worker and parsed once. */
import defaultProfile from "../fleet-config/profiles/default.json";
import large from "../fleet-config/profiles/large.json";
import small from "../fleet-config/profiles/small.json";
import { parseProfile, type Profile } from "../simulator/index.ts";

const SOURCES: Record<string, unknown> = { small, default: defaultProfile, large };
const parsed = new Map<string, Profile>();

/** The profile of a name, or an error naming the known ones. */
export function profileNamed(name: string): Profile {
  let profile = parsed.get(name);
  if (!profile) {
    const source = SOURCES[name];
    if (source === undefined) throw new Error(`unknown profile '${name}'; known: ${Object.keys(SOURCES).join(", ")}`);
    const result = parseProfile(source);
    if (!result.ok) throw new Error(`profile '${name}' is invalid: ${result.issues.join("; ")}`);
    profile = result.profile;
    parsed.set(name, profile);
  }
  return profile;
}
