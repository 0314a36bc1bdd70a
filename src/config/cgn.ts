/**
 * CGN groups in the configuration, and the CGN section of the simulation
 * profile built from it.
 *
 * A group is a `cgn.groups` item. Its lists are list-mode children; the
 * nested `autoLearn` list (`[{insideVrf, prefixes}]` on the wire) is one
 * list-mode child whose elements are `<insideVrf>:<prefix>` pairs, e.g.
 * `cgn-inside:100.127.0.0/16`, regrouped by VRF in order of first
 * appearance when read back. The four timeouts are the children
 * `timeouts.tcpEstablished`, `timeouts.tcpTransitory`, `timeouts.udp` and
 * `timeouts.icmp`.
 *
 * CGN allocators are built at startup (spec: CgnCommitResult), so the data
 * plane reads this section only when the appliance object opens: the shipped
 * profile with its `cgn` section replaced from the configuration. Two
 * per-group knobs are traffic, not configuration (`autoLearnSourcesPerSecond`,
 * `flowsPerSubscriber`): they come from the profile's group of the same name,
 * else its first group. Equal configuration gives an equal profile, so an
 * unchanged CGN section restores the data plane's snapshot at a restart and
 * a changed one starts it afresh.
 */
import { Profile, type CgnGroupConfig } from "../../simulator/index.ts";
import { parsePrefix, prefixesOverlap, prefixSpan, type Prefix } from "../../simulator/prefix.ts";
import type { ConfigDocument, ConfigItem, Value } from "./types.ts";

/** The configured half of a CGN group (the spec's CgnGroup without live counts), plus the inside VRFs it translates. */
export type CgnGroupSettings = Omit<CgnGroupConfig, "autoLearnSourcesPerSecond" | "flowsPerSubscriber">;

/** Port blocks one binding may hold, and groups one appliance may run (the allocator's limits). */
export const MAX_BLOCKS_PER_BINDING = 64;
export const MAX_GROUPS = 16;
/** Binding slots × port blocks per binding that the allocator holds in memory. */
export const MAX_BLOCK_SLOTS = 4_194_304;
const MAX_PUBLIC_ADDRESSES = 1 << 20;

const VRF_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** An IPv4 prefix with its host bits zero. */
export const isIpv4Cidr = (text: string): boolean => text.includes("/") && parsePrefix(text, true)?.family === 4;

/** An autoLearn element: `<insideVrf>:<IPv4 prefix>`. */
export function isAutoLearnEntry(text: string): boolean {
  const colon = text.indexOf(":");
  return colon > 0 && VRF_NAME.test(text.slice(0, colon)) && isIpv4Cidr(text.slice(colon + 1));
}

/** The VRF an autoLearn element names (what the VRF reference check reads). */
export const autoLearnVrf = (element: string): string => element.slice(0, Math.max(0, element.indexOf(":")));

/** `[{insideVrf, prefixes}]` as autoLearn elements. */
export const autoLearnElements = (entries: { insideVrf: string; prefixes: string[] }[]): string[] =>
  entries.flatMap((e) => e.prefixes.map((p) => `${e.insideVrf}:${p}`));

/** autoLearn elements regrouped by VRF, in order of first appearance. */
export function autoLearnEntries(elements: string[]): { insideVrf: string; prefixes: string[] }[] {
  const byVrf = new Map<string, string[]>();
  for (const element of elements) {
    const vrf = autoLearnVrf(element);
    byVrf.set(vrf, [...(byVrf.get(vrf) ?? []), element.slice(vrf.length + 1)]);
  }
  return [...byVrf].map(([insideVrf, prefixes]) => ({ insideVrf, prefixes }));
}

const list = (value: Value | undefined): string[] => (Array.isArray(value) ? value : []);
const num = (value: Value | undefined): number => (typeof value === "number" ? value : 0);
const prefixes = (texts: string[]): Prefix[] =>
  texts.map((t) => parsePrefix(t, true)).filter((p): p is Prefix => p !== null && p.family === 4);

/** A `cgn.groups` item as the configured half of a group. */
export function cgnGroupSettings({ key, values }: ConfigItem): CgnGroupSettings {
  return {
    name: key,
    description: typeof values.description === "string" ? values.description : "",
    insideVrfs: list(values.insideVrfs),
    outsideVrf: String(values.outsideVrf ?? "default"),
    publicSubnets: list(values.publicSubnets),
    chunkSize: num(values.chunkSize),
    portCap: num(values.portCap),
    setupsPerSec: num(values.setupsPerSec),
    bindingTimeoutSeconds: num(values.bindingTimeoutSeconds),
    quarantineSeconds: num(values.quarantineSeconds),
    bypassPrefixes: list(values.bypassPrefixes),
    autoLearn: autoLearnEntries(list(values.autoLearn)),
    timeouts: {
      tcpEstablished: num(values["timeouts.tcpEstablished"]),
      tcpTransitory: num(values["timeouts.tcpTransitory"]),
      udp: num(values["timeouts.udp"]),
      icmp: num(values["timeouts.icmp"]),
    },
  };
}

/** A group as a `cgn.groups` item. */
function groupItem(g: CgnGroupSettings): ConfigItem {
  return {
    key: g.name,
    values: {
      description: g.description,
      insideVrfs: [...g.insideVrfs],
      outsideVrf: g.outsideVrf,
      publicSubnets: [...g.publicSubnets],
      chunkSize: g.chunkSize,
      portCap: g.portCap,
      setupsPerSec: g.setupsPerSec,
      bindingTimeoutSeconds: g.bindingTimeoutSeconds,
      quarantineSeconds: g.quarantineSeconds,
      bypassPrefixes: [...g.bypassPrefixes],
      autoLearn: autoLearnElements(g.autoLearn),
      "timeouts.tcpEstablished": g.timeouts.tcpEstablished,
      "timeouts.tcpTransitory": g.timeouts.tcpTransitory,
      "timeouts.udp": g.timeouts.udp,
      "timeouts.icmp": g.timeouts.icmp,
    },
  };
}

/** The seeded `cgn.groups`: the profile's groups, their configured half. */
export const cgnGroupItems = (profile: Profile): ConfigItem[] => profile.cgn.groups.map(groupItem);

/** A running (profile) group's configured half, in the shape and key order of `cgnGroupSettings`, for comparison. */
export const settingsOf = (g: CgnGroupConfig): CgnGroupSettings => cgnGroupSettings(groupItem(g));

/** The rules within one group (the registry's `checkItem`). */
export function cgnGroupProblems(values: Record<string, Value>): { child: string; detail: string }[] {
  const problems: { child: string; detail: string }[] = [];
  if (list(values.insideVrfs).length === 0)
    problems.push({
      child: "insideVrfs",
      detail: "at least one inside VRF: the group translates the IPv4 sessions of these VRFs",
    });
  const subnets = prefixes(list(values.publicSubnets));
  if (list(values.publicSubnets).length === 0)
    problems.push({ child: "publicSubnets", detail: "at least one public IPv4 prefix" });
  const inside = subnets.findIndex((p, i) => subnets.some((q, j) => j < i && prefixesOverlap(p, q)));
  if (inside >= 0)
    problems.push({
      child: "publicSubnets",
      detail: `${list(values.publicSubnets)[inside]} overlaps another subnet of the group`,
    });
  if (subnets.reduce((n, p) => n + Number(prefixSpan(p)), 0) > MAX_PUBLIC_ADDRESSES)
    problems.push({ child: "publicSubnets", detail: `at most ${MAX_PUBLIC_ADDRESSES} public addresses per group` });
  const { chunkSize, portCap } = values;
  if (typeof chunkSize === "number" && typeof portCap === "number") {
    if (portCap < chunkSize) problems.push({ child: "portCap", detail: `must be at least chunkSize (${chunkSize})` });
    else if (portCap % chunkSize !== 0)
      problems.push({
        child: "portCap",
        detail: `must be a whole number of port blocks (a multiple of chunkSize ${chunkSize})`,
      });
    else if (portCap / chunkSize > MAX_BLOCKS_PER_BINDING)
      problems.push({
        child: "portCap",
        detail: `at most ${MAX_BLOCKS_PER_BINDING} port blocks per binding (portCap / chunkSize)`,
      });
  }
  return problems;
}

/** Reports a problem: a child of a `cgn.groups` item, a field, or the list as a whole (key and child undefined). */
export type CgnReport = (at: { key?: string; child?: string; field?: string }, detail: string) => void;

/** Rules across groups and the global caps. */
export function cgnChecks(doc: ConfigDocument, report: CgnReport): void {
  const groups = doc.lists["cgn.groups"] ?? [];
  if (groups.length > MAX_GROUPS) report({}, `at most ${MAX_GROUPS} CGN groups`);
  const translatedBy = new Map<string, string>();
  const taken: { key: string; text: string; prefix: Prefix }[] = [];
  let blocks = 1;
  for (const group of groups) {
    for (const vrf of list(group.values.insideVrfs)) {
      const other = translatedBy.get(vrf);
      if (other !== undefined)
        report({ key: group.key, child: "insideVrfs" }, `VRF '${vrf}' is already translated by group '${other}'`);
      else translatedBy.set(vrf, group.key);
    }
    const mine: typeof taken = [];
    for (const text of list(group.values.publicSubnets)) {
      const prefix = parsePrefix(text, true);
      if (!prefix) continue;
      const clash = taken.find((t) => prefixesOverlap(t.prefix, prefix));
      if (clash)
        report({ key: group.key, child: "publicSubnets" }, `${text} overlaps ${clash.text} of group '${clash.key}'`);
      mine.push({ key: group.key, text, prefix });
    }
    taken.push(...mine);
    const { chunkSize, portCap } = group.values;
    if (typeof chunkSize === "number" && typeof portCap === "number" && chunkSize > 0)
      blocks = Math.max(blocks, Math.ceil(portCap / chunkSize));
  }
  const maxBindings = doc.fields["cgn.maxBindings"];
  if (typeof maxBindings === "number" && maxBindings * blocks > MAX_BLOCK_SLOTS) {
    report(
      { field: "cgn.maxBindings" },
      `the CGN allocator holds ${MAX_BLOCK_SLOTS} port-block slots: maxBindings × the ` +
        `largest group's portCap / chunkSize (${blocks}) must not exceed it`,
    );
  }
}

/** The simulation knobs of a group that configuration does not hold. */
function trafficOf(
  profile: Profile,
  name: string,
): Pick<CgnGroupConfig, "autoLearnSourcesPerSecond" | "flowsPerSubscriber"> {
  const source = profile.cgn.groups.find((g) => g.name === name) ?? profile.cgn.groups[0];
  return {
    autoLearnSourcesPerSecond: source?.autoLearnSourcesPerSecond ?? 0,
    flowsPerSubscriber: source?.flowsPerSubscriber ?? 180,
  };
}

export type ProfileOutcome =
  | { ok: true; profile: Profile }
  | { ok: false; issues: { path: (string | number)[]; message: string }[] };

/**
 * The profile with its CGN section taken from the configuration: groups,
 * maxBindings and maxFlows. VRFs the groups name that the profile does not
 * know are added to it (no sessions live there, but the allocators need them).
 */
export function profileWithCgn(profile: Profile, doc: Pick<ConfigDocument, "fields" | "lists">): ProfileOutcome {
  const groups = (doc.lists["cgn.groups"] ?? []).map(cgnGroupSettings);
  const known = new Set(profile.vrfs.map((v) => v.name));
  const named = groups.flatMap((g) => [...g.insideVrfs, g.outsideVrf, ...g.autoLearn.map((a) => a.insideVrf)]);
  const added = [...new Set(named.filter((name) => !known.has(name)))].map((name) => ({ name, description: "" }));
  const raw = {
    ...profile,
    vrfs: [...profile.vrfs, ...added],
    cgn: {
      ...profile.cgn,
      maxBindings: num(doc.fields["cgn.maxBindings"]),
      maxFlows: num(doc.fields["cgn.maxFlows"]),
      groups: groups.map((g) => ({ ...g, ...trafficOf(profile, g.name) })),
    },
  };
  const result = Profile.safeParse(raw);
  if (result.success) return { ok: true, profile: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((i) => ({
      path: i.path.map((p) => (typeof p === "number" ? p : String(p))),
      message: i.message,
    })),
  };
}

/**
 * What would stop the appliance from building its CGN allocators at the next
 * start, as problems of the configuration: the final check after the
 * registry's, catching the profile's own rules (e.g. a translated VRF whose
 * pools hold public space).
 */
export function cgnProfileProblems(
  profile: Profile,
  doc: Pick<ConfigDocument, "fields" | "lists">,
  report: CgnReport,
): void {
  const built = profileWithCgn(profile, doc);
  if (built.ok) return;
  const groups = doc.lists["cgn.groups"] ?? [];
  for (const { path, message } of built.issues) {
    const [section, sub, index, child, grandchild] = path;
    if (section === "cgn" && sub === "groups" && typeof index === "number" && groups[index]) {
      // Children are named as the configuration names them (`timeouts.udp`).
      const name =
        child === "timeouts" && typeof grandchild === "string"
          ? `timeouts.${grandchild}`
          : typeof child === "string"
            ? child
            : undefined;
      report({ key: groups[index].key, ...(name === undefined ? {} : { child: name }) }, message);
    } else if (section === "cgn" && (sub === "maxBindings" || sub === "maxFlows")) {
      report({ field: `cgn.${sub}` }, message);
    } else if (section === "pools" && typeof sub === "number") {
      const pool = profile.pools[sub];
      const vrf = pool?.vrf ?? "default";
      const group = groups.find((g) => list(g.values.insideVrfs).includes(vrf));
      // One problem per pool, whichever of its subnets broke which rule.
      const detail =
        `VRF '${vrf}' cannot be translated: its IPv4 pool '${pool?.name}' holds public ` +
        `or announced space (a CGN inside pool holds RFC 1918 / RFC 6598 space and is ` +
        `never announced)`;
      report(group ? { key: group.key, child: "insideVrfs" } : {}, detail);
    } else {
      report({}, `the CGN allocators could not be built from this configuration: ${path.join(".")}: ${message}`);
    }
  }
}
