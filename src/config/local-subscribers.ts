/**
 * Local subscribers in the configuration: two keyed lists, their keys, the
 * rules that span items or need the profile, and the table the data plane
 * installs from them.
 *
 * Each list, its key, and the identity an item stands for:
 *
 * - subscribers.local.ipoe: `port:sVlan:vlan`, decimal (`1:100:42`); the access line (the body's port, sVlan and vlan
 *   decide it).
 * - subscribers.local.pppoe: the username; the PAP/CHAP username (the password is a write-only secret).
 *
 * An IPoE session's username is its option82CircuitId when set, otherwise
 * `local-ipoe-<port>-<sVlan>-<vlan>` (the spec's IPoE body has no username).
 * Rates of 0 take the plan's; packet rates and bursts are kept but not
 * simulated. Addresses and delegated prefixes are unique among local
 * subscribers of one VRF (VRFs are separate address spaces, as the
 * configured pools are).
 */
import {
  LOCAL_KINDS,
  placeAddress,
  placePrefix,
  type LocalKind,
  type LocalSubscriber,
  type Placement,
} from "../../simulator/local-subscribers.ts";
import type { PoolDefinition } from "../../simulator/pool-rules.ts";
import type { Profile } from "../../simulator/profile.ts";
import { formatPrefix, parseIpv4, parseIpv6, parsePrefix, type Prefix } from "../../simulator/prefix.ts";
import { POOLS_LIST, refusingChild } from "./address-pools.ts";
import type { ConfigDocument, ConfigItem, Value } from "./types.ts";

/** The keyed list of each kind. */
export const LOCAL_LISTS = {
  ipoe: "subscribers.local.ipoe",
  pppoe: "subscribers.local.pppoe",
} as const satisfies Record<LocalKind, string>;

/** The key of an IPoE subscriber: its access line. */
export const ipoeKey = (port: number, sVlan: number, vlan: number): string => `${port}:${sVlan}:${vlan}`;

/** What the IPoE key schema admits; the children then check each number's range (so a 422 names the field). */
export const IPOE_KEY_PATTERN = /^-?\d{1,10}:-?\d{1,10}:-?\d{1,10}$/;

/** The `[port, sVlan, vlan]` of an IPoE key as stored (canonical), or null for a key no subscriber can have. */
export function ipoeLineOf(key: string): [number, number, number] | null {
  if (!IPOE_KEY_PATTERN.test(key)) return null;
  const [port, sVlan, vlan] = key.split(":").map(Number);
  return ipoeKey(port!, sVlan!, vlan!) === key ? [port!, sVlan!, vlan!] : null;
}

/** A PPPoE username: 1-253 printable ASCII characters, no space and no '/' (it is a URL path segment). */
export const isPppoeUsername = (text: string): boolean => /^[\x21-\x2e\x30-\x7e]{1,253}$/.test(text);

/** An IPv6 address or `address/length` (whether the host bits are zero is an item rule, with ipv6PdLength). */
export const isIpv6PrefixText = (text: string): boolean => text.includes(":") && parsePrefix(text, false) !== null;

/** The session username of an IPoE subscriber. */
export function ipoeUsername(port: number, sVlan: number, vlan: number, option82CircuitId: string | null): string {
  return option82CircuitId ?? `local-ipoe-${port}-${sVlan}-${vlan}`;
}

const num = (value: Value | undefined): number | null => (typeof value === "number" ? value : null);
const str = (value: Value | undefined): string | null => (typeof value === "string" ? value : null);

/** The delegated prefix of an item: `ipv6PdPrefix` with its length, or why it has none. */
function delegatedPrefix(
  values: Record<string, Value>,
): { ok: true; prefix: Prefix | null } | { ok: false; child: string; detail: string } {
  const text = str(values.ipv6PdPrefix);
  const length = num(values.ipv6PdLength);
  if (text === null)
    return length === null
      ? { ok: true, prefix: null }
      : { ok: false, child: "ipv6PdLength", detail: "given without ipv6PdPrefix" };
  const slash = text.indexOf("/");
  const written = slash < 0 ? null : Number(text.slice(slash + 1));
  if (written !== null && length !== null && written !== length)
    return { ok: false, child: "ipv6PdLength", detail: `differs from the length of ipv6PdPrefix (/${written})` };
  const effective = written ?? length;
  if (effective === null)
    return { ok: false, child: "ipv6PdLength", detail: "required with an ipv6PdPrefix written without its length" };
  if (effective < 1 || effective > 128)
    return { ok: false, child: "ipv6PdLength", detail: "an IPv6 prefix length is 1-128" };
  const prefix = parsePrefix(slash < 0 ? `${text}/${effective}` : text, true);
  if (prefix === null || prefix.family !== 6)
    return { ok: false, child: "ipv6PdPrefix", detail: `not an IPv6 prefix with its host bits zero at /${effective}` };
  return { ok: true, prefix };
}

/** Rules within one item of either list (the registry's `checkItem`). */
export function localSubscriberItemProblems(values: Record<string, Value>): { child: string; detail: string }[] {
  const problems: { child: string; detail: string }[] = [];
  const pd = delegatedPrefix(values);
  if (!pd.ok) problems.push({ child: pd.child, detail: pd.detail });
  if (values.planName === null) {
    for (const child of ["downloadRateKbps", "uploadRateKbps"]) {
      if (values[child] === 0)
        problems.push({ child, detail: "a subscriber without planName needs its rates (0 takes the plan's)" });
    }
  }
  return problems;
}

/**
 * Rules across items and against the appliance's profile: an IPoE key that
 * is its access line, a port and a plan of the profile, addresses that fit
 * the configured pools of their VRF (`pools`), and addresses no other local
 * subscriber has. An address the pools now refuse is reported on the
 * subscriber when the subscriber changed, and otherwise on the pool whose
 * change refuses it (an exclude over it, a delegation it no longer matches),
 * naming the subscriber.
 */
export function localSubscriberProblems(
  doc: ConfigDocument,
  before: ConfigDocument,
  pools: readonly PoolDefinition[],
  profile: Profile | undefined,
  report: (list: string, key: string, child: string | undefined, detail: string) => void,
): void {
  const beforePools = new Map((before.lists[POOLS_LIST] ?? []).map((item) => [item.key, item.values]));
  const refused = (
    list: string,
    key: string,
    unchanged: boolean,
    child: string,
    shown: string,
    placed: Extract<Placement, { kind: "refused" }>,
  ): void => {
    const pool = pools[placed.pool];
    if (!unchanged || !pool) return report(list, key, child, `${shown} ${placed.detail}`);
    const delegationChanged = beforePools.get(pool.name)?.delegationLength !== pool.delegationLength;
    report(
      POOLS_LIST,
      pool.name,
      refusingChild(placed.cause, delegationChanged),
      `${child} ${shown} of ${list} '${key}' ${placed.detail}: change or delete that ` +
        `subscriber first, or in the same change`,
    );
  };
  const owners = new Map<string, string>();
  const claim = (list: string, key: string, child: string, identity: string, shown: string): void => {
    const owner = owners.get(identity);
    if (owner !== undefined) report(list, key, child, `${shown} is already used by ${owner}`);
    else owners.set(identity, `${list} '${key}'`);
  };
  for (const kind of LOCAL_KINDS) {
    const list = LOCAL_LISTS[kind];
    const was = new Map((before.lists[list] ?? []).map((item) => [item.key, JSON.stringify(item.values)]));
    for (const { key, values } of doc.lists[list] ?? []) {
      const unchanged = was.get(key) === JSON.stringify(values);
      const vrf = str(values.vrfName) ?? "default";
      if (kind === "ipoe") {
        const [port, sVlan, vlan] = [num(values.port), num(values.sVlan), num(values.vlan)];
        if (port !== null && sVlan !== null && vlan !== null && key !== ipoeKey(port, sVlan, vlan)) {
          report(
            list,
            key,
            undefined,
            `the key of an IPoE subscriber is its line port:sVlan:vlan ` +
              `(${ipoeKey(port, sVlan, vlan)} for these values)`,
          );
        }
        if (profile && port !== null && !profile.ports.some((p) => p.portId === port)) {
          report(
            list,
            key,
            "port",
            `no port ${port} on this appliance (ports: ${profile.ports.map((p) => p.portId).join(", ")})`,
          );
        }
      }
      const plan = str(values.planName);
      if (profile && plan !== null && !profile.plans.some((p) => p.name === plan)) {
        report(
          list,
          key,
          "planName",
          `no plan '${plan}' on this appliance (plans: ${profile.plans.map((p) => p.name).join(", ")})`,
        );
      }
      const v4Text = str(values.framedIp);
      const v4 = v4Text === null ? null : parseIpv4(v4Text);
      if (v4 !== null) {
        const placed = placeAddress(pools, vrf, "ipv4", BigInt(v4));
        if (placed.kind === "refused") refused(list, key, unchanged, "framedIp", v4Text!, placed);
        claim(list, key, "framedIp", `v4/${vrf}/${v4}`, `framedIp ${v4Text} (VRF ${vrf})`);
      }
      const v6Text = str(values.framedIpv6);
      const v6 = v6Text === null ? null : parseIpv6(v6Text);
      if (v6 !== null) {
        const placed = placeAddress(pools, vrf, "ipv6-wan", v6);
        if (placed.kind === "refused") refused(list, key, unchanged, "framedIpv6", v6Text!, placed);
        // Inside a pool the whole /64 is the subscriber's: two addresses in one block clash.
        const identity = placed.kind === "pool" ? `wan/${vrf}/${formatPrefix(placed.block)}` : `wan/${vrf}/${v6}`;
        claim(
          list,
          key,
          "framedIpv6",
          identity,
          placed.kind === "pool"
            ? `the block ${formatPrefix(placed.block)} of framedIpv6 ${v6Text}`
            : `framedIpv6 ${v6Text}`,
        );
      }
      const pd = delegatedPrefix(values);
      if (pd.ok && pd.prefix !== null) {
        const placed = placePrefix(pools, vrf, pd.prefix);
        if (placed.kind === "refused") refused(list, key, unchanged, "ipv6PdPrefix", formatPrefix(pd.prefix), placed);
        claim(
          list,
          key,
          "ipv6PdPrefix",
          `pd/${vrf}/${formatPrefix(pd.prefix)}`,
          `ipv6PdPrefix ${formatPrefix(pd.prefix)}`,
        );
      }
    }
  }
}

/** The table the data plane installs: every item of both lists, as the simulator takes it. */
export function localSubscribersOf(ipoe: readonly ConfigItem[], pppoe: readonly ConfigItem[]): LocalSubscriber[] {
  const common = (values: Record<string, Value>) => {
    const pd = delegatedPrefix(values);
    return {
      vrf: str(values.vrfName) ?? "default",
      framedIp: str(values.framedIp),
      framedIpv6: str(values.framedIpv6),
      ipv6Pd: pd.ok && pd.prefix !== null ? formatPrefix(pd.prefix) : null,
      plan: str(values.planName),
      downloadKbps: num(values.downloadRateKbps) ?? 0,
      uploadKbps: num(values.uploadRateKbps) ?? 0,
    };
  };
  return [
    ...ipoe.map(({ key, values }): LocalSubscriber => {
      const [port, sVlan, vlan] = [num(values.port) ?? 0, num(values.sVlan) ?? 0, num(values.vlan) ?? 0];
      return {
        kind: "ipoe",
        key,
        username: ipoeUsername(port, sVlan, vlan, str(values.option82CircuitId)),
        ...common(values),
        line: { portId: port, svlan: sVlan, cvlan: vlan },
      };
    }),
    ...pppoe.map(
      ({ key, values }): LocalSubscriber => ({ kind: "pppoe", key, username: key, ...common(values), line: null }),
    ),
  ];
}
