/**
 * The IGP (OSPFv2 or IS-IS) as a pure function of the seed, the configured
 * interfaces, when each was last (re)configured and the simulated clock.
 *
 * Every non-passive interface faces one neighbor router on its subnet (the
 * other end of a point-to-point link, or a stable host of a larger subnet).
 * After a (re)configuration the adjacency forms over simulated seconds:
 * OSPF Down → Init (first hello, 1-10 s) → ExStart → Exchange → Loading →
 * Full (database exchange, 5-25 s more); IS-IS Down → Initializing → Up. About
 * one day in twelve an adjacency drops for 1-4 minutes (never in its first
 * ten minutes up): it goes Down once its dead interval expires and forms
 * again when the link is back.
 */
import { familyBits, formatAddress, formatIpv4, parseAddress, type Family } from "./prefix.ts";
import { hashBetween, latestOutage, phaseAt, textKey, type FlapPolicy, type Phase } from "./flaps.ts";
import { hash32 } from "./random.ts";
import type { IgpStatus } from "../src/schemas/routing.ts";
import { type IgpProtocol } from "./vocabulary.ts";

/** An interface as configured (`igp.interfaces`), with when it was last (re)configured. */
export interface IgpInterfaceConfig {
  name: string;
  /** `address/length` of this end. */
  address: string;
  /** OSPF area (`a.b.c.d`); IS-IS ignores it. */
  area: string;
  /** IS-IS circuit level; OSPF ignores it. */
  level: "level-1" | "level-2" | "level-1-2";
  cost: number;
  passive: boolean;
  helloSeconds: number;
  deadSeconds: number;
  provisionedMs: number;
}

/** An adjacency of the IGP status, as the wire shape has it. */
export type IgpAdjacency = IgpStatus["adjacencies"][number];

const FLAPS: FlapPolicy = {
  slotMs: 86_400_000,
  probability: 1 / 12,
  minMs: 60_000,
  maxMs: 240_000,
  tailMs: 300_000,
  salt: 31,
};
const SETTLE_MS = 600_000;
const OSPF_STEPS = ["Init", "ExStart", "Exchange", "Loading"] as const;

function parseInterface(text: string): { family: Family; value: bigint; length: number } | null {
  const match = /^([^/\s]+)\/(\d{1,3})$/.exec(text);
  const address = match ? parseAddress(match[1]!) : null;
  if (!match || !address) return null;
  const length = Number(match[2]);
  return length > familyBits(address.family) ? null : { family: address.family, value: address.value, length };
}

/**
 * The neighbor's address on this end's subnet: the other host of a /30, /31, /126 or /127, else a stable host of the
 * subnet.
 */
export function neighborAddressOf(seed: number, address: string): string | null {
  const a = parseInterface(address);
  if (!a) return null;
  const bits = BigInt(familyBits(a.family) - a.length);
  if (bits === 0n) return null;
  const size = 1n << bits;
  const network = (a.value >> bits) << bits;
  const host = a.value - network;
  let other: bigint;
  if (bits === 1n) other = host ^ 1n;
  else if (bits === 2n) other = host === 1n ? 2n : 1n;
  else {
    // A stable usable host other than ours (not the network or, for IPv4, the broadcast address).
    const usable = a.family === 4 ? size - 2n : size - 1n;
    const span = usable > 1_000_000n ? 1_000_000n : usable;
    other = 1n + (BigInt(hash32(seed, textKey(address), 7)) % span);
    if (other === host) other = other === 1n ? 2n : 1n;
  }
  return formatAddress(a.family, network + other);
}

/** A neighbor's OSPF router id (dotted quad) or IS-IS system id (`xxxx.xxxx.xxxx`), stable per seed and interface. */
function neighborIdOf(seed: number, protocol: IgpProtocol, iface: IgpInterfaceConfig): string {
  const h = hash32(seed, textKey(`${iface.name}|${iface.address}`), 8);
  if (protocol === "isis") {
    const hex = (h >>> 0).toString(16).padStart(8, "0");
    return `1921.${hex.slice(0, 4)}.${hex.slice(4)}`;
  }
  return formatIpv4(((10 << 24) | (255 << 16) | (h & 0xffff)) >>> 0);
}

/**
 * The neighbor's loopback (its OSPF router id; the address an IS-IS system id was derived from), which the IGP installs
 * a route to.
 */
export function adjacencyLoopback(a: IgpAdjacency): string {
  if (/^\d+\.\d+\.\d+\.\d+$/.test(a.neighborId)) return a.neighborId;
  return formatIpv4(((10 << 24) | (255 << 16) | parseInt(a.neighborId.slice(-4), 16)) >>> 0);
}

/** The adjacency of one non-passive interface at `nowMs`. */
export function igpAdjacency(
  seed: number,
  protocol: Exclude<IgpProtocol, "none">,
  iface: IgpInterfaceConfig,
  nowMs: number,
): IgpAdjacency | null {
  const neighborAddress = neighborAddressOf(seed, iface.address);
  if (iface.passive || neighborAddress === null) return null;
  const key = textKey(`${protocol}|${iface.name}|${iface.address}`);
  const finalState = protocol === "ospf" ? "Full" : "Up";
  const formation = (startMs: number): Phase<string>[] => {
    const steps = protocol === "ospf" ? OSPF_STEPS : (["Initializing"] as const);
    const phases: Phase<string>[] = [{ atMs: startMs, state: "Down" }];
    let at = startMs + hashBetween(seed, key, 1, 1_000, Math.min(10_000, iface.helloSeconds * 1000));
    steps.forEach((state, i) => {
      phases.push({ atMs: at, state });
      at += hashBetween(seed, key, 10 + i, 1_000, 6_000);
    });
    phases.push({ atMs: at, state: finalState });
    return phases;
  };
  let phases = formation(iface.provisionedMs);
  const upMs = phases[phases.length - 1]!.atMs;
  const outage = latestOutage(seed, key, FLAPS, upMs + SETTLE_MS, nowMs);
  if (outage) {
    // The neighbor stops answering hellos: Down once the dead interval expires (or when the link returns first, at
    // once).
    const downMs = outage.startMs + Math.min(outage.lengthMs, iface.deadSeconds * 1000);
    phases = [{ atMs: downMs, state: "Down" }, ...formation(outage.startMs + outage.lengthMs).slice(1)];
    if (downMs > outage.startMs) phases.unshift({ atMs: upMs, state: finalState });
  }
  const current = phaseAt(phases, nowMs);
  const upSince = current.state === finalState ? current.atMs : null;
  const down = current.state === "Down";
  // Hellos arrive every helloSeconds from the neighbor; the dead timer restarts at each.
  const sinceHello = (nowMs - (phases[0]!.atMs + (key % (iface.helloSeconds * 1000)))) % (iface.helloSeconds * 1000);
  return {
    interface: iface.name,
    neighborId: neighborIdOf(seed, protocol, iface),
    neighborAddress,
    state: current.state,
    area: protocol === "ospf" ? iface.area : iface.level,
    cost: iface.cost,
    uptimeSeconds: upSince === null ? null : Math.floor((nowMs - upSince) / 1000),
    deadTimerSeconds: down ? null : Math.max(1, iface.deadSeconds - Math.floor(Math.max(0, sinceHello) / 1000)),
    lastChangeUtc: new Date(current.atMs).toISOString(),
  };
}

/** The IGP status: interfaces in configuration order, then one adjacency per non-passive interface. */
export function igpStatus(
  seed: number,
  nowMs: number,
  daemonUp: boolean,
  protocol: IgpProtocol,
  routerId: string | null,
  interfaces: readonly IgpInterfaceConfig[],
): IgpStatus {
  if (!daemonUp) return { reachable: false, protocol, routerId, interfaces: [], adjacencies: [] };
  if (protocol === "none") return { reachable: true, protocol, routerId, interfaces: [], adjacencies: [] };
  const adjacencies = interfaces.map((i) => igpAdjacency(seed, protocol, i, nowMs)).filter((a) => a !== null);
  const finalState = protocol === "ospf" ? "Full" : "Up";
  return {
    reachable: true,
    protocol,
    routerId,
    interfaces: interfaces.map((i) => ({
      name: i.name,
      address: i.address,
      area: protocol === "ospf" ? i.area : i.level,
      cost: i.cost,
      passive: i.passive,
      helloSeconds: i.helloSeconds,
      deadSeconds: i.deadSeconds,
      fullNeighbors: adjacencies.filter((a) => a.interface === i.name && a.state === finalState).length,
    })),
    adjacencies,
  };
}
