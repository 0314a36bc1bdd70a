/** The simulation profiles shipped in fleet-config/profiles/, bundled into the Worker and parsed once. */
import defaultProfile from "../fleet-config/profiles/default.json";
import large from "../fleet-config/profiles/large.json";
import small from "../fleet-config/profiles/small.json";
import xlarge from "../fleet-config/profiles/xlarge.json";
import { parseProfile, type Profile } from "../simulator/index.ts";
import { isShippedProfile, type ApplianceDefinition, type PROFILE_NAMES } from "../fleet-config/schema.ts";
import { userProfiles } from "../src/fleet/definition.ts";
import type { Env } from "../src/env.ts";

type ProfileName = (typeof PROFILE_NAMES)[number];

const SOURCES: Record<ProfileName, unknown> = { small, default: defaultProfile, large, xlarge };
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

/**
 * The parsed profile an appliance runs: a shipped one by name, else its fleet's own file from BNG_PROFILES (validated
 * by the launcher first).
 */
export function profileOf(env: Env, appliance: ApplianceDefinition): Profile {
  if (isShippedProfile(appliance.profile)) return profileNamed(appliance.profile);
  const source = userProfiles(env)[appliance.profile];
  if (source === undefined)
    throw new Error(
      `profile file '${appliance.profile}' of appliance '${appliance.name}' was not ` +
        `given to this Worker in BNG_PROFILES`,
    );
  const result = parseProfile(source);
  if (!result.ok) throw new Error(`profile file '${appliance.profile}' is invalid: ${result.issues.join("; ")}`);
  return result.profile;
}
