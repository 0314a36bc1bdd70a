/**
 * GRE circuits in the configuration: the syntax of tunnel addresses and
 * interface names, the pairing of a circuit's two tunnel addresses, and the
 * rules across circuits (distinct tunnels, non-overlapping tunnel subnets).
 * Pure; the registry and the validator call it.
 */
import { familyBits, parseAddress, type Family } from "../../simulator/prefix.ts";
import type { ConfigDocument, Value } from "./types.ts";

/** Circuit ids that would shadow the section's own paths (`/gre-circuits/status`, `/gre-circuits/listeners`). */
export const RESERVED_CIRCUIT_IDS = ["status", "listeners"] as const;

/** A Linux interface name: 1-15 characters (IFNAMSIZ 16 with the NUL), no '/' or whitespace. */
export const isInterfaceName = (text: string): boolean => /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,14}$/.test(text);

/** An interface address: `address/length`, host bits set (e.g. 10.255.0.1/30). */
export interface InterfaceAddress {
  family: Family;
  value: bigint;
  length: number;
}

/** Parses `address/length` as an interface address carries it, or null. */
export function parseInterfaceAddress(text: string): InterfaceAddress | null {
  const match = /^([^/\s]+)\/(\d{1,3})$/.exec(text.trim());
  if (!match) return null;
  const address = parseAddress(match[1]!);
  const length = Number(match[2]);
  if (!address || length > familyBits(address.family)) return null;
  return { family: address.family, value: address.value, length };
}

export const isInterfaceAddress = (text: string): boolean => parseInterfaceAddress(text) !== null;

const hostBits = (a: InterfaceAddress) => BigInt(familyBits(a.family) - a.length);
const networkOf = (a: InterfaceAddress) => a.value >> hostBits(a);
const hostOf = (a: InterfaceAddress) => a.value & ((1n << hostBits(a)) - 1n);

/**
 * Whether an address is usable on a point-to-point subnet: not the network
 * or (IPv4) broadcast address, except on a /31 (RFC 3021) or /127 (RFC 6164)
 * where both addresses are hosts.
 */
function unusable(a: InterfaceAddress): string | null {
  const bits = hostBits(a);
  if (bits <= 1n) return bits === 0n ? "a host route has no room for the far end; use a /30, /31, /126 or /127" : null;
  if (hostOf(a) === 0n) return "is the subnet's network address";
  if (a.family === 4 && hostOf(a) === (1n << bits) - 1n) return "is the subnet's broadcast address";
  return null;
}

/** The rules between one circuit's tunnel addresses (the registry's `checkItem`). */
export function tunnelAddressProblems(values: Record<string, Value>): { child: string; detail: string }[] {
  const local = typeof values.localTunnelAddress === "string" ? parseInterfaceAddress(values.localTunnelAddress) : null;
  const remote =
    typeof values.remoteTunnelAddress === "string" ? parseInterfaceAddress(values.remoteTunnelAddress) : null;
  const problems: { child: string; detail: string }[] = [];
  if (local) {
    const issue = unusable(local);
    if (issue) problems.push({ child: "localTunnelAddress", detail: issue });
  }
  if (!local || !remote) return problems;
  if (local.family !== remote.family || local.length !== remote.length || networkOf(local) !== networkOf(remote)) {
    problems.push({
      child: "remoteTunnelAddress",
      detail:
        `must be in the same subnet as ` +
        `localTunnelAddress ${String(values.localTunnelAddress)} (same family and prefix length)`,
    });
  } else if (local.value === remote.value) {
    problems.push({ child: "remoteTunnelAddress", detail: "must differ from localTunnelAddress" });
  } else {
    const issue = unusable(remote);
    if (issue) problems.push({ child: "remoteTunnelAddress", detail: issue });
  }
  return problems;
}

/** Reports a problem of one item's child. */
export type Report = (list: string, key: string, child: string, detail: string) => void;

/**
 * Rules across circuits and listeners: a circuit's remote is of its
 * listener's family; two circuits of one listener are told apart by remote
 * and GRE key (RFC 2890), so that pair is unique; two circuits in one VRF
 * may not put overlapping tunnel subnets in it.
 */
export function greChecks(doc: ConfigDocument, report: Report): void {
  const listeners = new Map(
    (doc.lists["gre.listeners"] ?? []).map((l) => [
      l.key,
      typeof l.values.localAddress === "string" ? parseAddress(l.values.localAddress) : null,
    ]),
  );
  const tunnels = new Map<string, string>();
  const subnets: { key: string; vrf: string; family: Family; network: bigint; length: number }[] = [];
  for (const circuit of doc.lists["gre.circuits"] ?? []) {
    const v = circuit.values;
    const remote = typeof v.remote === "string" ? parseAddress(v.remote) : null;
    const local = typeof v.listenerId === "string" ? listeners.get(v.listenerId) : undefined;
    if (remote && local && remote.family !== local.family) {
      report(
        "gre.circuits",
        circuit.key,
        "remote",
        `an IPv${remote.family} remote cannot be reached from listener ` +
          `'${String(v.listenerId)}' (IPv${local.family} local address)`,
      );
    }
    if (remote && typeof v.listenerId === "string") {
      const tunnel = `${v.listenerId}\n${remote.family}:${remote.value}\n${v.key ?? ""}`;
      const other = tunnels.get(tunnel);
      if (other !== undefined) {
        report(
          "gre.circuits",
          circuit.key,
          "remote",
          `circuit '${other}' already runs a tunnel from listener '${v.listenerId}' ` +
            `to ${v.remote} with ${v.key === null ? "no GRE key" : `GRE key ${v.key}`}; give ` +
            `one of them a distinct key`,
        );
      } else tunnels.set(tunnel, circuit.key);
    }
    const address = typeof v.localTunnelAddress === "string" ? parseInterfaceAddress(v.localTunnelAddress) : null;
    if (address && typeof v.vrf === "string") {
      const mine = {
        key: circuit.key,
        vrf: v.vrf,
        family: address.family,
        network: networkOf(address),
        length: address.length,
      };
      const clash = subnets.find((s) => s.vrf === mine.vrf && s.family === mine.family && overlap(s, mine));
      if (clash)
        report(
          "gre.circuits",
          circuit.key,
          "localTunnelAddress",
          `overlaps the tunnel subnet of circuit '${clash.key}' in VRF '${mine.vrf}'`,
        );
      subnets.push(mine);
    }
  }
}

function overlap(
  a: { family: Family; network: bigint; length: number },
  b: { family: Family; network: bigint; length: number },
): boolean {
  const bits = BigInt(familyBits(a.family));
  const shorter = Math.min(a.length, b.length);
  const base = (s: { network: bigint; length: number }) =>
    (s.network << (bits - BigInt(s.length))) >> (bits - BigInt(shorter));
  return base(a) === base(b);
}
