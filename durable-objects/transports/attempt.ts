/**
 * Bounded retries for the socket sinks (SMTP, MQTT): a delivery is tried up
 * to ATTEMPT_DELAYS_MS.length + 1 times, waiting longer before each retry; a
 * permanent refusal (a 5xx SMTP reply, a broker refusing the credential, a
 * destination the policy refuses) is not tried again.
 */

/** One try's outcome; `cause` is for the appliance's console only, never the log ring; `refused`: the destination policy refused it, nothing was sent. */
export type Attempt = { ok: true } | { ok: false; permanent: boolean; refused?: true; cause: string };

/** The waits before the second and third attempt. */
export const ATTEMPT_DELAYS_MS = [1_000, 4_000] as const;

/** Tries `once` until it succeeds, fails permanently or the attempts run out; the last outcome and how many tries it took. */
export async function withRetries(once: () => Promise<Attempt>, delays: readonly number[] = ATTEMPT_DELAYS_MS): Promise<Attempt & { attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const outcome = await once();
    if (outcome.ok || outcome.permanent || attempt > delays.length) return { ...outcome, attempts: attempt };
    await new Promise((resolve) => setTimeout(resolve, delays[attempt - 1]));
  }
}
