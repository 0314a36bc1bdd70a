/**
 * Real AAA at the model's edge (issue 49). With real servers (tcp, tls) the model cannot know an answer while a
 * step runs, so a RADIUS subscriber's setup is split where a BNG's is: the model asks (an Access-Request,
 * `askServer`: the session id is reserved, the subscriber waits, neither online nor drawn again), the appliance's
 * RADIUS client sends it and delivers the outcome with the servers' health (RadiusPool `deliver`), and the next
 * sub-step applies what was delivered, in arrival order (aaa-answers.ts): an Accept brings the session up with
 * the attributes it set, a Reject or no answer fails the setup as the simulated pool's would.
 *
 * So the model is a function of its seed and of these inputs; the inputs come from a real server, and a run
 * with one is not reproducible from its seed alone (docs/radius.md).
 */
import type { Model } from "./model.ts";
import type { AccessRequestRecord } from "./radius-records.ts";
import { ENCAP_IPOE, ENCAP_L2TP, formatMac, type SubscriberAttrs } from "./subscribers.ts";

/**
 * Asks the real servers for a subscriber: its Access-Request goes to the listener (the appliance's client) and
 * the subscriber waits. False when the client holds as many requests as it can send in time: the subscriber is
 * not asked now and stays offline (its CPE tries again), as a BNG drops discovery it cannot authorise.
 */
export function askServer(m: Model, sub: number, a: SubscriberAttrs): boolean {
  if (m.radius.outstanding().length >= m.radius.maxOutstanding) return false;
  const sessionId = m.nextSessionId++;
  m.radius.ask(sessionId, sub);
  m.takeOffline(sub);
  m.accessListener?.(accessRequestOf(m, sub, a, sessionId));
  return true;
}

/** The Access-Request of a subscriber (what a real BNG knows of it: line, MAC, login). */
export function accessRequestOf(m: Model, sub: number, a: SubscriberAttrs, sessionId: number): AccessRequestRecord {
  return {
    sessionId,
    username: m.subscribers.username(sub, a.realm),
    method: a.encap === ENCAP_IPOE ? "pap" : "chap",
    nasPortId: nasPortIdOf(m, a.port, a.svlan, a.cvlan),
    // An LNS knows no MAC (session-queries.ts macOf): it hears the subscriber through the tunnel.
    callingStationId: a.encap === ENCAP_L2TP ? "" : formatMac(a.macHi, a.macLo),
    ppp: a.encap !== ENCAP_IPOE,
    virtualPort: a.encap === ENCAP_L2TP,
  };
}

/** NAS-Port-Id: the access interface and the session's S-VLAN and C-VLAN; `lns` for an L2TP session (no port). */
export function nasPortIdOf(m: Model, port: number, svlan: number, cvlan: number): string {
  const p = port >= 0 ? m.profile.ports[port] : undefined;
  // The interface is the port label's first word (`xe-0/0/0 OLT-north`), as Juniper writes NAS-Port-Id.
  return p ? `${p.label.split(" ")[0]}:${svlan}-${cvlan}` : "lns";
}

/** Asks again for every request outstanding (the client restarted with the appliance: nothing of them was kept). */
export function outstandingRequests(m: Model): AccessRequestRecord[] {
  return m.radius
    .outstanding()
    .map(([sessionId, sub]) => accessRequestOf(m, sub, m.subscribers.describe(sub, m.scratch), sessionId));
}
