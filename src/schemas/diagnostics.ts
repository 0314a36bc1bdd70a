/** Diagnostics' wire shapes: the inject trace and the ping result. */
import { z } from "zod";

export const TraceStep = z
  .object({
    stage: z.enum(["ingress-port", "vlan-classify", "mpls", "subscriber-lookup", "source-vrf", "route-lookup", "cgn", "egress"]),
    verdict: z.string().meta({ description: "what the stage did; a verdict starting `drop:` ends the trace (see the operation's description)" }),
    a: z.int().meta({ description: "the stage's first value (see the operation's description)" }),
    b: z.int().meta({ description: "the stage's second value (see the operation's description)" }),
  })
  .meta({ id: "TraceStep" });

export const InjectResult = z
  .object({
    frameBytes: z.int32().meta({ description: "the frame on the wire, FCS included, padded to 64 bytes" }),
    emitted: z.boolean().meta({ description: "true only when `emit` was set and the frame reached the egress" }),
    dryRun: z.boolean().meta({ description: "true unless `emit` was set" }),
    steps: z.array(TraceStep).meta({ description: "in pipeline order" }),
  })
  .meta({ id: "InjectResult" });

export type TraceStep = z.output<typeof TraceStep>;
export type InjectResult = z.output<typeof InjectResult>;

const Rtt = z.number().meta({ description: "milliseconds, microsecond resolution" });
export const PingResult = z
  .object({
    destination: z.string(),
    vrf: z.string().meta({ description: "the VRF as configured (`default` = the global table)" }),
    route: z.enum(["local", "subscriber", "upstream", "discard", "martian"]).meta({
      description:
        "`local`: one of the appliance's own addresses in the VRF (gateway or L2TP endpoint); `subscriber`: a live session holds the destination; `upstream`: the default route toward the core; `discard`: an unassigned address of a pool subnet; `martian`: an address never forwarded (loopback, link-local, multicast, reserved)",
    }),
    sessionId: z.int().nullable().meta({ description: "the session holding the destination (route `subscriber`)" }),
    size: z.int(),
    packetBytes: z.int().meta({ description: "IP packet length: IP header + 8 + size" }),
    pathMtu: z.int().meta({ description: "1500; a PPPoE subscriber's 1492 (RFC 2516); an LNS-terminated subscriber's 1460" }),
    dontFragment: z.boolean(),
    sent: z.int(),
    received: z.int(),
    lossPercent: z.number().meta({ description: "0-100, one decimal" }),
    rttMs: z.object({ min: Rtt, avg: Rtt, max: Rtt }).nullable().meta({ description: "null when nothing came back" }),
    replies: z
      .array(
        z.object({
          seq: z.int().meta({ description: "1-based" }),
          result: z.enum(["reply", "timeout", "would-fragment", "unreachable"]),
          rttMs: Rtt.nullable().meta({ description: "null unless `reply`" }),
        }),
      )
      .meta({ description: "one per probe, in order" }),
  })
  .meta({ id: "PingResult" });
export type PingResult = z.output<typeof PingResult>;
