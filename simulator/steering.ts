/**
 * Source-VRF steering: traffic arriving in one VRF from given source subnets
 * is routed into another VRF, without NAT (spec "Source VRF rule"). One
 * matcher serves the session detail's `steering` and the diagnostics inject
 * trace, so the two can never disagree.
 */
import { parseAddress, parsePrefix, prefixHas, type Family, type Prefix } from "./prefix.ts";

/** A source-VRF rule as configured (`sourceVrfRules`, in configuration order). */
export interface SourceVrfRule {
  name: string;
  ingestVrf: string;
  sourceSubnets: string[];
  targetVrf: string;
}

/** An address as the matcher compares it. */
export interface SourceAddress {
  family: Family;
  value: bigint;
}

interface CompiledRule extends SourceVrfRule {
  /** 1-based position in configuration order, as GET /api/v1/source-vrf-rules lists the rules. */
  position: number;
  prefixes: Prefix[];
}

/** The rules compiled once per hot-apply, so a lookup parses nothing. */
export interface SteeringTable {
  readonly rules: readonly CompiledRule[];
}

/** Which rule steers a source, and through which of its subnets. */
export interface SteeringMatch {
  rule: string;
  /** 1-based position of the rule in configuration order. */
  position: number;
  ingestVrf: string;
  targetVrf: string;
  /** Length of the subnet that matched; 0 for a rule without subnets (every source of the ingest VRF). */
  prefixLength: number;
}

/** Compiles the configured rules (unparsable subnets, which validation refuses, match nothing). */
export function compileSteering(rules: readonly SourceVrfRule[]): SteeringTable {
  return {
    rules: rules.map((rule, i) => ({
      ...rule,
      sourceSubnets: [...rule.sourceSubnets],
      position: i + 1,
      prefixes: rule.sourceSubnets.map((p) => parsePrefix(p, false)).filter((p) => p !== null),
    })),
  };
}

/**
 * The first rule (in configuration order) whose ingest VRF is `ingestVrf`
 * (case-insensitive) and whose source subnets hold one of `sources`; a rule
 * without subnets matches every source of its ingest VRF.
 */
export function matchSteering(
  table: SteeringTable,
  ingestVrf: string,
  sources: readonly SourceAddress[],
): SteeringMatch | null {
  const vrf = ingestVrf.toLowerCase();
  for (const r of table.rules) {
    if (r.ingestVrf.toLowerCase() !== vrf) continue;
    const length =
      r.prefixes.length === 0
        ? 0
        : (r.prefixes.find((p) => sources.some((a) => prefixHas(p, a.family, a.value)))?.length ?? null);
    if (length !== null)
      return {
        rule: r.name,
        position: r.position,
        ingestVrf: r.ingestVrf,
        targetVrf: r.targetVrf,
        prefixLength: length,
      };
  }
  return null;
}

/** How many rules take traffic arriving in a VRF (the inject trace reports it when none matched). */
export function rulesOn(table: SteeringTable, ingestVrf: string): number {
  const vrf = ingestVrf.toLowerCase();
  return table.rules.filter((r) => r.ingestVrf.toLowerCase() === vrf).length;
}

/**
 * A session's steering as its detail shows it: the rule matching its IPv4
 * address or the first address of its IPv6 prefix (WAN, else delegated).
 */
export function sessionSteering(
  table: SteeringTable,
  session: { vrf: string; ipv4: string; ipv6: string | null },
): { rule: string; targetVrf: string } | null {
  const sources = [session.ipv4, session.ipv6?.split("/")[0]]
    .flatMap((text) => (text ? [parseAddress(text)] : []))
    .filter((a) => a !== null);
  const match = matchSteering(table, session.vrf, sources);
  return match ? { rule: match.rule, targetVrf: match.targetVrf } : null;
}
