/**
 * The answers of real RADIUS servers, applied at the start of a sub-step (external-aaa.ts has why): first the
 * servers' health as the client last counted it, then each answer in the order it arrived. An Accept brings
 * the session up with the attributes it set; a Reject, or no answer, fails the setup as the simulated pool's
 * refusals do (counted, logged within the budget), and the subscriber dials again later.
 */
import { bringUp, noteAaaRefusal } from "./lifecycle.ts";
import type { Model } from "./model.ts";

/** Applies what the client delivered since the last sub-step: the servers' health, then each answer in order. */
export function applyDelivered(m: Model): void {
  const delivered = m.radius.takeDelivered();
  if (delivered.health) m.radius.observeHealth(delivered.health, m.nowMs);
  for (const outcome of delivered.outcomes) {
    const sub = m.radius.answered(outcome.sessionId);
    // An answer for nothing outstanding (a reboot or a reseed came between): dropped.
    if (sub === undefined) continue;
    m.putOffline(sub, m.nowMs);
    const a = m.subscribers.describe(sub, m.scratch);
    const server =
      outcome.result === "accept" || outcome.result === "access-reject" || outcome.result === "timeout"
        ? m.radius.find(outcome.server)
        : -1;
    if (outcome.result === "accept") {
      bringUp(m, sub, a, server, outcome.sessionId, outcome.attributes);
      continue;
    }
    const reason = outcome.result === "not-sent" ? "timeout" : outcome.result;
    noteAaaRefusal(m, sub, a, reason, server);
  }
  m.store.settleOrder();
}
