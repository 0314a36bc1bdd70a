/**
 * Diagnostics inject: a synthetic frame is walked through the forwarding
 * pipeline as it stands (sessions, source-VRF rules, pools, CGN bindings)
 * and every stage reports what it did. Pure and deterministic: the same
 * state and the same request give the same trace, and nothing is drawn from
 * the model's random stream.
 *
 * Stages, in pipeline order (a verdict starting `drop:` ends the trace):
 *
 * | stage | a | b | verdicts |
 * |---|---|---|---|
 * | ingress-port | port id | frame bytes | `accept` |
 * | vlan-classify | S-VLAN (0 none) | C-VLAN (0 none) | `untagged`, `single-tagged`, `double-tagged` |
 * | mpls | label (0 none) | label bytes (0 or 4) | `none`, `pop`, `drop:reserved-label` |
 * | subscriber-lookup | session id (0 none) | block length held / the session's port id | `session:<vrf>`,
 * `no-session`, `drop:source-check`, `drop:martian-source` |
 * | source-vrf | rule position, 1-based (0 none) | matched subnet length / rules on the ingest VRF |
 * `steer:<ingest>-><target>`, `no-match`, `drop:unknown-source` |
 * | route-lookup | session id of a subscriber route (0 otherwise) | prefix length matched | `subscriber:<vrf>`,
 * `upstream:<vrf>`, `drop:unassigned`, `drop:martian` |
 * | cgn | translated source port (0 none) | port block start (0 none) | `snat:<public IPv4>`, `skip:steered`,
 * `skip:internal` |
 * | egress | egress port id (-1 core uplink or L2TP tunnel) | frame bytes | `drop:dry-run`, `emitted` |
 */
import { holderIn, holdersOf, isMartian, poolSubnetIn, portIdOf, vrfOf, type Holder } from "./forwarding.ts";
import type { Model } from "./model.ts";
import { parseAddress } from "./prefix.ts";
import { matchSteering, rulesOn, type SteeringTable } from "./steering.ts";
import type { InjectRequest, InjectResult, TraceStep } from "../src/schemas/diagnostics.ts";

/** Why an inject request cannot be traced: bad input, named by field. */
export type InjectRefusal = {
  ok: false;
  reason: "unknown-port" | "bad-source" | "bad-destination" | "family-mismatch";
};

/** Ethernet II header (destination MAC, source MAC, EtherType). */
export const ETHERNET_HEADER_BYTES = 14;
/** Frame check sequence. */
export const FCS_BYTES = 4;
/** One IEEE 802.1Q / 802.1ad tag, or one MPLS label stack entry. */
export const TAG_BYTES = 4;
/** Shortest Ethernet frame (IEEE 802.3 §3.2.8): shorter frames are padded. */
export const MIN_FRAME_BYTES = 64;
/** UDP unless the request says otherwise. */
export const DEFAULT_PROTOCOL = 17;

/**
 * Bytes of the L4 header the trace assumes for a protocol: TCP without options, UDP, ICMP and ICMPv6 echo; others carry
 * none.
 */
export function l4HeaderBytes(protocol: number): number {
  if (protocol === 6) return 20;
  if (protocol === 17 || protocol === 1 || protocol === 58) return 8;
  return 0;
}

/**
 * The frame on the wire, FCS included, padded to 64 bytes: Ethernet II
 * header + 4 bytes per VLAN tag + 4 per MPLS label + the IP header (20 for
 * IPv4, 40 for IPv6) + the L4 header + the payload.
 */
export function frameBytes(r: { family: 4 | 6; tags: number; labels: number; protocol: number; size: number }): number {
  const ip = r.family === 4 ? 20 : 40;
  const bytes =
    ETHERNET_HEADER_BYTES + TAG_BYTES * (r.tags + r.labels) + ip + l4HeaderBytes(r.protocol) + r.size + FCS_BYTES;
  return Math.max(MIN_FRAME_BYTES, bytes);
}

/**
 * Traces a frame through the pipeline. Emission itself (and its audit) is the caller's: `emitted` says whether the
 * frame reached the egress.
 */
export function traceInject(
  m: Model,
  rules: SteeringTable,
  req: InjectRequest,
): { ok: true; result: InjectResult } | InjectRefusal {
  const portIndex = m.profile.ports.findIndex((p) => p.portId === req.port);
  if (portIndex < 0) return { ok: false, reason: "unknown-port" };
  const source = parseAddress(req.source.trim());
  if (!source) return { ok: false, reason: "bad-source" };
  const destination = parseAddress(req.destination.trim());
  if (!destination) return { ok: false, reason: "bad-destination" };
  if (source.family !== destination.family) return { ok: false, reason: "family-mismatch" };

  const sVlan = req.sVlan ?? 0;
  const cVlan = req.cVlan ?? 0;
  const label = req.mplsLabel ?? 0;
  const protocol = req.protocol ?? DEFAULT_PROTOCOL;
  const bytes = frameBytes({
    family: source.family,
    tags: (sVlan > 0 ? 1 : 0) + (cVlan > 0 ? 1 : 0),
    labels: label > 0 ? 1 : 0,
    protocol,
    size: req.size ?? 0,
  });
  const emit = req.emit === true;
  const steps: TraceStep[] = [];
  const done = (): { ok: true; result: InjectResult } => {
    const last = steps[steps.length - 1];
    return {
      ok: true,
      result: {
        frameBytes: bytes,
        emitted: last?.stage === "egress" && last.verdict === "emitted",
        dryRun: !emit,
        steps,
      },
    };
  };
  const step = (stage: TraceStep["stage"], verdict: string, a = 0, b = 0): boolean => {
    steps.push({ stage, verdict, a, b });
    return !verdict.startsWith("drop:");
  };

  step("ingress-port", "accept", req.port, bytes);
  step(
    "vlan-classify",
    sVlan > 0 && cVlan > 0 ? "double-tagged" : sVlan > 0 || cVlan > 0 ? "single-tagged" : "untagged",
    sVlan,
    cVlan,
  );
  // RFC 3032 §2.1 and RFC 7274: labels 0-15 are reserved; 0 reads as "no label" here (the spec's 0/null = none).
  if (
    !step("mpls", label === 0 ? "none" : label < 16 ? "drop:reserved-label" : "pop", label, label > 0 ? TAG_BYTES : 0)
  )
    return done();

  // Subscriber lookup: the session holding the source address. A session reached on another port or
  // VLAN pair fails the source check (RFC 3704 strict reverse-path filtering on subscriber interfaces).
  if (isMartian(source)) {
    step("subscriber-lookup", "drop:martian-source");
    return done();
  }
  const holders = holdersOf(m, source);
  const arrivedOn = (h: Holder) =>
    portIdOf(m, h.slot) === req.port &&
    (m.store.svlan[h.slot] ?? 0) === sVlan &&
    (m.store.cvlan[h.slot] ?? 0) === cVlan;
  const holder = holders.find(arrivedOn) ?? null;
  if (!holder && holders.length > 0) {
    const other = holders[0] as Holder;
    step("subscriber-lookup", "drop:source-check", m.store.id[other.slot] ?? 0, portIdOf(m, other.slot));
    return done();
  }
  // Without a session the frame stays in the port's native routing context, the global table.
  const ingestVrf = holder ? vrfOf(m, holder.slot) : "default";
  if (holder) step("subscriber-lookup", `session:${ingestVrf}`, m.store.id[holder.slot] ?? 0, holder.length);
  else step("subscriber-lookup", "no-session");

  // Source-VRF rules: the same matcher as the session detail's `steering`. Steered traffic is routed, never NATed.
  const match = matchSteering(rules, ingestVrf, [source]);
  if (match) step("source-vrf", `steer:${match.ingestVrf}->${match.targetVrf}`, match.position, match.prefixLength);
  else if (!step("source-vrf", holder ? "no-match" : "drop:unknown-source", 0, rulesOn(rules, ingestVrf)))
    return done();
  const lookupVrf = match?.targetVrf ?? ingestVrf;

  // Route lookup in the VRF the frame now belongs to: a subscriber's block, a pool subnet's discard route, or the
  // default route upstream.
  let egressPort = -1;
  let internal = false;
  if (isMartian(destination)) {
    step("route-lookup", "drop:martian");
    return done();
  }
  const target = holderIn(m, lookupVrf, destination);
  if (target) {
    internal = true;
    egressPort = portIdOf(m, target.slot);
    step("route-lookup", `subscriber:${vrfOf(m, target.slot)}`, m.store.id[target.slot] ?? 0, target.length);
  } else {
    const discard = poolSubnetIn(m, lookupVrf, destination);
    if (discard) {
      step("route-lookup", "drop:unassigned", 0, discard.length);
      return done();
    }
    step("route-lookup", `upstream:${lookupVrf}`, 0, 0);
  }

  // CGN: only a session with a binding, sending from its translated private IPv4 address.
  const binding = holder && source.family === 4 ? (m.store.cgn[holder.slot] ?? -1) : -1;
  if (binding >= 0) {
    if (match) step("cgn", "skip:steered");
    else if (internal) step("cgn", "skip:internal");
    else {
      const row = m.cgn.row(binding, m.usernameOf);
      const start = Number((row.portBlocks[0] ?? "0").split("-")[0]);
      step("cgn", `snat:${row.publicIp}`, start + ((req.sourcePort ?? 0) % row.chunkSize), start);
    }
  }

  step("egress", emit ? "emitted" : "drop:dry-run", egressPort, bytes);
  return done();
}
