/**
 * A traced frame (POST /diagnostics/inject) in words: each stage of the
 * pipeline says what it did with the frame, its two numbers read as the
 * operation's table defines them (a port, a VLAN, a session, a prefix
 * length), never as a bare pair; and one headline: sent, dropped (and
 * where), or, for the default dry run, where it would have left. Pure.
 */
import type { InjectResult } from "../../src/schemas/diagnostics.ts";

type Step = InjectResult["steps"][number];

/** Each stage's name, as the trace lists it. */
export const STAGE_NAMES: Record<string, string> = {
  "ingress-port": "Ingress port",
  "vlan-classify": "VLAN tags",
  mpls: "MPLS",
  "subscriber-lookup": "Subscriber",
  "source-vrf": "Source-VRF rules",
  "route-lookup": "Route",
  cgn: "CGN",
  egress: "Egress",
};

/** How a port is named: its label (`xe-0/0/1 OLT-south`) when known, else its id. */
export type PortName = (id: number) => string;

const after = (verdict: string, head: string) => verdict.slice(head.length);

/** What one stage did, in a sentence. */
export function stepWords(step: Step, port: PortName): string {
  const { stage, verdict: v, a, b } = step;
  const out = (id: number) => (id === -1 ? "the core uplink (or the session's L2TP tunnel)" : port(id));
  switch (stage) {
    case "ingress-port":
      return `entered on ${port(a)}, a ${b}-byte frame.`;
    case "vlan-classify":
      if (v === "untagged") return "no VLAN tag.";
      if (v === "single-tagged") return `one VLAN tag, ${b || a}.`;
      if (v === "double-tagged") return `S-VLAN ${a}, C-VLAN ${b}.`;
      break;
    case "mpls":
      if (v === "none") return "no MPLS label.";
      if (v === "pop") return `MPLS label ${a} removed.`;
      if (v === "drop:reserved-label") return `dropped: label ${a} is reserved (RFC 3032).`;
      break;
    case "subscriber-lookup":
      if (v.startsWith("session:")) return `from session ${a}, the /${b} it holds, in VRF ${after(v, "session:")}.`;
      if (v === "no-session") return "from no subscriber session: it stays in the global table.";
      if (v === "drop:source-check")
        return (
          `dropped: the source is session ${a}'s, ` +
          `on ${b === -1 ? "an L2TP tunnel" : port(b)}, not here (reverse-path check).`
        );
      if (v === "drop:martian-source") return "dropped: the source is a martian address.";
      break;
    case "source-vrf": {
      if (v.startsWith("steer:")) {
        const [from, to] = after(v, "steer:").split("->");
        return `rule ${a} steers it from VRF ${from} into VRF ${to}.`;
      }
      if (v === "no-match") return "no rule matched: it is routed in its own VRF.";
      if (v === "drop:unknown-source") return "dropped: no session and no rule claims the source.";
      break;
    }
    case "route-lookup":
      if (v.startsWith("subscriber:")) return `to session ${a} in VRF ${after(v, "subscriber:")}, by its /${b}.`;
      if (v.startsWith("upstream:"))
        return (
          `up ${b === 0 ? "the default route" : `a /${b} route`} toward the core, in ` + `VRF ${after(v, "upstream:")}.`
        );
      if (v === "drop:unassigned") return "dropped: a pool address no session holds (its discard route).";
      if (v === "drop:martian") return "dropped: the destination is a martian address.";
      break;
    case "cgn":
      if (v.startsWith("snat:")) return `source translated to ${after(v, "snat:")} port ${a}, in the block from ${b}.`;
      if (v === "skip:steered") return "not translated: steered traffic is never NATed.";
      if (v === "skip:internal") return "not translated: it goes to another subscriber of the inside VRF.";
      break;
    case "egress":
      if (v === "drop:dry-run") return `would leave by ${out(a)}; a dry run, so it was not sent.`;
      if (v === "emitted") return `sent out of ${out(a)}.`;
      break;
  }
  return `${v}.`;
}

/** The trace in one line: sent, dropped and where, or where a dry run would have sent it. */
export function traceHeadline(
  result: Pick<InjectResult, "frameBytes" | "emitted" | "steps">,
  port: PortName,
): { text: string; tone: "good" | "bad" | "neutral" } {
  const last = result.steps[result.steps.length - 1];
  const frame = `The ${result.frameBytes}-byte frame`;
  if (!last) return { text: `${frame} was not traced.`, tone: "neutral" };
  if (result.emitted)
    return { text: `${frame} was sent out of ${last.a === -1 ? "the core uplink" : port(last.a)}.`, tone: "good" };
  if (last.stage === "egress" && last.verdict === "drop:dry-run") {
    return {
      text:
        `${frame} would be forwarded out ` +
        `of ${last.a === -1 ? "the core uplink" : port(last.a)}. Nothing was sent: a dry run.`,
      tone: "neutral",
    };
  }
  if (last.verdict.startsWith("drop:"))
    return {
      text:
        `${frame} is dropped at ${(STAGE_NAMES[last.stage] ?? last.stage).toLowerCase()}: ` +
        `${stepWords(last, port).replace(/^dropped: /, "")}`,
      tone: "bad",
    };
  return { text: `${frame} stopped at ${STAGE_NAMES[last.stage] ?? last.stage}.`, tone: "neutral" };
}
