/**
 * IPoE leases as a DHCP client keeps them (RFC 2131 §4.4.5): granted for
 * `ipoeLeaseSeconds`, renewed at T1 (half the lease, with ±5 % of fuzz so
 * clients do not renew in step), retried while renewing at half the time left
 * to T2 (7/8 of the lease), then rebinding at half the time left to expiry,
 * never sooner than 60 s apart; a lease nobody renewed expires, and only then
 * does the BNG end the session. A request or its ACK is lost with
 * `renewFailureProbability`; a client that is away (its CPE off or its line
 * down: lifetimes.ts) sends nothing. The session table files each client's
 * next act (`leaseMs`) by the sub-step it falls due in; `leaseEnd` is the
 * expiry, the detail's `leaseExpiresUtc`.
 */
import type { Model } from "./model.ts";
import { hashUnit } from "./random.ts";

/** T2 as a share of the lease (RFC 2131 §4.4.5: 0.875 × duration_of_lease). */
export const T2_SHARE = 0.875;
/** The RFC's floor between two retransmissions while renewing or rebinding. */
export const RETRY_FLOOR_MS = 60_000;
const S_FUZZ = 50;

/** Grants (or renews) a slot's lease at the model's instant: expiry a lease from now, the next renewal at T1. */
export function grantLease(m: Model, slot: number): void {
  const lease = m.profile.leases.ipoeLeaseSeconds * 1000;
  const now = m.nowMs;
  const fuzz = 0.95 + 0.1 * hashUnit(m.seed ^ (m.store.id[slot] ?? 0), Math.floor(now / 1000), S_FUZZ);
  m.store.leaseEnd[slot] = Math.ceil((now + lease) / 1000);
  m.store.setLease(slot, now + Math.round(lease * 0.5 * fuzz));
}

/** Runs the clients' acts due now; returns the slots whose lease expired (to be ended by the caller, in slot order). */
export function runLeases(m: Model): number[] {
  const s = m.store;
  const now = m.nowMs;
  const lease = m.profile.leases.ipoeLeaseSeconds * 1000;
  const loss = m.profile.leases.renewFailureProbability;
  const expired: number[] = [];
  for (const slot of s.dueLeases(now)) {
    const expiry = (s.leaseEnd[slot] ?? 0) * 1000;
    if (now >= expiry) {
      expired.push(slot);
      continue;
    }
    const present = (s.quietUntil[slot] ?? 0) * 1000 <= now;
    if (present && !m.rng.chance(loss)) {
      grantLease(m, slot);
      continue;
    }
    // No ACK: retransmit at half the time left to T2 (renewing), then to expiry (rebinding), 60 s apart at least.
    const t2 = expiry - lease * (1 - T2_SHARE);
    const until = now < t2 ? t2 : expiry;
    s.setLease(slot, Math.min(until, now + Math.max(RETRY_FLOOR_MS, (until - now) / 2)));
  }
  return expired;
}
