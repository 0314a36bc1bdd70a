/**
 * Diagnostics, the wire contract: a synthetic frame traced through the forwarding pipeline, and ping from the
 * forwarding plane.
 */
import { z } from "zod";
import { operation } from "./contract.ts";

export const TraceStep = z
  .object({
    stage: z.enum([
      "ingress-port",
      "vlan-classify",
      "mpls",
      "subscriber-lookup",
      "source-vrf",
      "route-lookup",
      "cgn",
      "egress",
    ]),
    verdict: z.string().meta({
      description: "what the stage did; a verdict starting `drop:` ends the trace (see the operation's description)",
    }),
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
        "`local`: one of the appliance's own addresses in the VRF (gateway or L2TP " +
        "endpoint); `subscriber`: a live session holds the destination; `upstream`: the " +
        "default route toward the core; `discard`: an unassigned address of a pool " +
        "subnet; `martian`: an address never forwarded (loopback, link-local, multicast, reserved)",
    }),
    sessionId: z.int().nullable().meta({ description: "the session holding the destination (route `subscriber`)" }),
    size: z.int(),
    packetBytes: z.int().meta({ description: "IP packet length: IP header + 8 + size" }),
    pathMtu: z
      .int()
      .meta({ description: "1500; a PPPoE subscriber's 1492 (RFC 2516); an LNS-terminated subscriber's 1460" }),
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

const IpAddress = z.union([z.ipv4(), z.ipv6()]);
const isIpv6 = (text: string) => text.includes(":");
const clamped = (fallback: number, min: number, max: number) =>
  z
    .int32()
    .nullable()
    .optional()
    .transform((n) => Math.min(max, Math.max(min, n ?? fallback)));

export const InjectRequest = z
  .object({
    port: z
      .int32()
      .min(0)
      .meta({
        description:
          "ingress port: a data-plane port id as sessions, metrics and the session " +
          "summary's `byPort` show it; an id the appliance does not have is refused (400)",
      }),
    source: IpAddress.meta({
      description: "source IPv4 or IPv6 address: what subscriber lookup and the source-VRF rules match",
    }),
    destination: IpAddress.meta({ description: "destination address, of the same family as `source`" }),
    sVlan: z.int().min(0).max(4094).nullable().optional().meta({ description: "outer (S-)VLAN tag; 0 or null = none" }),
    cVlan: z.int().min(0).max(4094).nullable().optional().meta({ description: "inner (C-)VLAN tag; 0 or null = none" }),
    mplsLabel: z
      .int()
      .min(0)
      .max(1_048_575)
      .nullable()
      .optional()
      .meta({ format: "int64", description: "MPLS label (20 bits); 0 or null = none" }),
    protocol: z
      .int()
      .min(0)
      .max(255)
      .nullable()
      .optional()
      .meta({ description: "IP protocol: 17 UDP (the default), 6 TCP, 1 ICMP, 58 ICMPv6; others carry no L4 header" }),
    sourcePort: z
      .int()
      .min(0)
      .max(65535)
      .nullable()
      .optional()
      .meta({ description: "L4 source port (the ICMP echo identifier for ICMP)" }),
    destinationPort: z.int().min(0).max(65535).nullable().optional().meta({ description: "L4 destination port" }),
    size: z
      .int()
      .min(0)
      .max(9000)
      .nullable()
      .optional()
      .meta({ description: "payload bytes after the L4 header; null = 0" }),
    emit: z
      .boolean()
      .nullable()
      .optional()
      .meta({
        description:
          "true transmits the frame out of its egress port (audited): a subscriber-facing " +
          "egress port counts it in its transmit bytes and packets (GET " +
          "/system/interfaces, the scrape); default false, a dry run",
      }),
  })
  .superRefine((body, ctx) => {
    if (isIpv6(body.source) !== isIpv6(body.destination))
      ctx.addIssue({ code: "custom", path: ["destination"], message: "must be of the same address family as source" });
  })
  .meta({ id: "InjectRequest" });
export type InjectRequest = z.output<typeof InjectRequest>;

const INJECT_DESCRIPTION = `Walks a synthetic frame through the forwarding pipeline as it stands now (live sessions, \
source-VRF rules, address pools, CGN bindings) and reports every stage. Deterministic: the same state and the same \
request give the same trace. The default is a dry run: the frame is dropped at the egress staging point (last step \
\`egress\`, verdict \`drop:dry-run\`). \`emit: true\` transmits it out of its egress port if no stage dropped it, and \
is audited in the log ring (\`audit.diagnostics.inject\`, whether or not the frame got out).

Bad input is 400 naming the field: an address that is not IPv4 or IPv6, families that differ, a tag, label, protocol \
or port number out of range, or a \`port\` id the appliance does not have. A frame the data plane would drop is not an \
error: the answer is 200 and the trace ends at the stage that dropped it.

Stages, in pipeline order (a stage absent from a trace did not apply; a verdict starting \`drop:\` ends the trace):

| stage | a | b | verdicts |
|---|---|---|---|
| \`ingress-port\` | port id | frame bytes | \`accept\` |
| \`vlan-classify\` | S-VLAN (0 = none) | C-VLAN (0 = none) | \`untagged\`, \`single-tagged\`, \`double-tagged\` |
| \`mpls\` | label (0 = none) | label bytes (0 or 4) | \`none\`; \`pop\` (the label is removed); \
\`drop:reserved-label\` (1-15, RFC 3032 §2.1) |
| \`subscriber-lookup\` | session id (0 = none) | \`session\`: length of the block holding the source (32, the WAN \
/64, the delegated prefix); \`drop:source-check\`: that session's port id (-1 = LNS-terminated) | \`session:<vrf>\` \
(the session's VRF is the ingest VRF); \`no-session\` (the frame stays in the port's native context, the global table \
\`default\`); \`drop:source-check\` (the source belongs to a session on another port or VLAN pair: strict reverse-path \
filtering, RFC 3704); \`drop:martian-source\` |
| \`source-vrf\` | position of the matching rule, 1-based, in configuration order as GET /api/v1/source-vrf-rules \
lists them (0 = none) | steered: length of the matching subnet (0 = a rule without subnets); otherwise the number of \
rules on the ingest VRF | \`steer:<ingestVrf>-><targetVrf>\`; \`no-match\` (routed in the ingest VRF); \
\`drop:unknown-source\` (no session and no rule). The matcher is the one behind the session detail's \`steering\`, \
applied to this packet's source address |
| \`route-lookup\` | session id of a subscriber route (0 otherwise) | prefix length matched (0 = the default route) | \
in the target VRF when steered, else the ingest VRF: \`subscriber:<vrf>\` (a live session holds the destination); \
\`upstream:<vrf>\` (the default route toward the core); \`drop:unassigned\` (a pool subnet's discard route: no session \
holds the address); \`drop:martian\` |
| \`cgn\` | translated source port | public port block start | only for a session with a CGN binding: \`snat:<public \
IPv4>\`; \`skip:steered\` (source-VRF steering is never NATed); \`skip:internal\` (to another subscriber of the inside \
VRF) |
| \`egress\` | egress port id (-1 = the core uplink, or the L2TP tunnel of an LNS-terminated session) | frame bytes | \
\`drop:dry-run\`, \`emitted\` |

\`frameBytes\` = 14 (Ethernet II header) + 4 per VLAN tag + 4 for an MPLS label + 20 (IPv4) or 40 (IPv6) + the L4 \
header (TCP 20, UDP 8, ICMP and ICMPv6 8, other protocols 0) + \`size\` + 4 (FCS), at least 64 (IEEE 802.3's minimum \
frame). Local only.`;

export const PingRequest = z
  .object({
    destination: IpAddress.meta({ description: "IPv4 or IPv6 address to echo" }),
    vrf: z
      .string()
      .min(1)
      .max(255)
      .nullable()
      .optional()
      .meta({
        description:
          "configured VRF to originate in (case-insensitive); null or absent = the global " +
          "table `default`; an unknown VRF is 404",
      }),
    count: clamped(5, 1, 100).meta({ description: "echo requests, one a second; default 5, clamped to 1-100" }),
    size: z
      .int()
      .min(0)
      .max(65507)
      .nullable()
      .optional()
      .transform((n) => n ?? 56)
      .meta({ description: "ICMP payload bytes after the 8-byte echo header; default 56" }),
    dontFragment: z
      .boolean()
      .nullable()
      .optional()
      .transform((b) => b === true)
      .meta({ description: "IPv4 DF bit (IPv6: no fragment header); default false" }),
    timeoutMs: clamped(1000, 100, 10_000).meta({
      description: "per-probe reply timeout; default 1000, clamped to 100-10000",
    }),
  })
  .meta({ id: "PingRequest" });

const PING_DESCRIPTION = `ICMP echo originated by the forwarding plane, in the global table or inside a configured VRF \
(404 for a VRF the configuration does not have). A payload over the path MTU with \`dontFragment\` set is sent on \
purpose: every probe comes back \`would-fragment\` (200, not an input error). The outcome follows the state: a live \
subscriber answers from its access line (a few milliseconds, stable per session; about one CPE in ten ignores echo), \
an unassigned pool address hits its subnet's discard route (\`unreachable\`), the appliance's own VRF addresses answer \
at once, and any other destination goes up the default route with a round trip stable per destination (about one in \
twelve filters echo; 1% of probes are lost). Results are deterministic for the appliance's seed, its simulated clock \
and the request. The call returns when the ping is done (simulated, not waited for). Local only: never relayed by the \
fleet proxy.`;

/** The section's operations. Both are local to this appliance: mutations are never relayed by the fleet proxy. */
export const diagnostics = {
  inject: operation({
    method: "POST",
    path: "/api/v1/diagnostics/inject",
    section: "System",
    summary: "Trace a synthetic frame through the forwarding pipeline (dry run by default; emit is audited)",
    description: INJECT_DESCRIPTION,
    floor: "operator",
    body: InjectRequest,
    response: { description: "InjectResult", schema: InjectResult },
    examples: {
      body: {
        port: 1,
        source: "198.18.4.14",
        destination: "8.8.8.8",
        sVlan: 100,
        cVlan: 1,
        protocol: 17,
        sourcePort: 40000,
        destinationPort: 53,
        size: 64,
      },
      response: {
        frameBytes: 118,
        emitted: false,
        dryRun: true,
        steps: [
          { stage: "ingress-port", verdict: "accept", a: 1, b: 118 },
          { stage: "vlan-classify", verdict: "double-tagged", a: 100, b: 1 },
        ],
      },
    },
  }),
  ping: operation({
    method: "POST",
    path: "/api/v1/diagnostics/ping",
    section: "System",
    summary: "Ping from the forwarding plane, optionally inside a VRF",
    description: PING_DESCRIPTION,
    floor: "operator",
    body: PingRequest,
    response: { description: "PingResult", schema: PingResult },
    errors: [404],
    examples: {
      body: { destination: "10.1.2.1", count: 3, size: 56, timeoutMs: 1000 },
      response: {
        destination: "10.1.2.1",
        vrf: "default",
        route: "upstream",
        sessionId: null,
        size: 56,
        packetBytes: 84,
        pathMtu: 1500,
        dontFragment: false,
        sent: 3,
        received: 3,
        lossPercent: 0,
        rttMs: { min: 69.798, avg: 74.34, max: 78.583 },
        replies: [
          { seq: 1, result: "reply", rttMs: 78.583 },
          { seq: 2, result: "reply", rttMs: 74.639 },
        ],
      },
      errors: { 404: "no VRF 'cust-nowhere' (configured VRFs and `default` only)" },
    },
  }),
};
