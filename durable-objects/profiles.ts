/** The simulation profiles shipped in fleet-config/profiles/, bundled into the Worker and parsed once. */
import defaultProfile from "../fleet-config/profiles/default.json";
import large from "../fleet-config/profiles/large.json";
import small from "../fleet-config/profiles/small.json";
import { parseProfile, type Profile } from "../simulator/index.ts";
import type { PROFILE_NAMES } from "../fleet-config/schema.ts";

type ProfileName = (typeof PROFILE_NAMES)[number];

const SOURCES: Record<ProfileName, unknown> = { small, default: defaultProfile, large };
const parsed = new Map<string, Profile>();

/** The parsed profile of a name (the fleet schema admits only shipped names). */
export function profileNamed(name: ProfileName): Profile {
  let profile = parsed.get(name);
  if (!profile) {
    const source = SOURCES[name];
    const result = parseProfile(source);
    if (!result.ok) throw new Error(`profile '${name}' is invalid: ${result.issues.join("; ")}`);
    profile = result.profile;
    parsed.set(name, profile);
  }
  return profile;
}
