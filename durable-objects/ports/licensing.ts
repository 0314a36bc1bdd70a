/**
 * Licensing: the licence status, activation (online), offline leases, renewal and the telemetry preview. Tokens and
 * leases are verified offline (src/trust/licence.ts); no answer ever carries a token or a lease signature.
 */
import { licensing } from "../../src/schemas/licensing.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { serves } from "./serves.ts";

export function licensingPorts(core: Pick<ApplianceCore, "licensing">) {
  const licence = () => core.licensing();
  return {
    status: serves(licensing.status, () => licence().status()),
    activate: serves(licensing.activate, async (caller, { body }) => {
      const done = await licence().activate(body.token, body.licenceId ?? null, actor(caller));
      return done.ok ? { activated: done.activated, instanceId: done.instanceId } : done;
    }),
    loadOffline: serves(licensing.loadOffline, async (caller, { body }) => {
      const done = await licence().loadOffline(body, actor(caller));
      return done.ok ? { applied: done.applied, state: done.state } : done;
    }),
    renew: serves(licensing.renew, async (caller) => {
      const done = await licence().renew(actor(caller));
      if (!done.ok) return done;
      const { renewed, state, expiresAtUtc, lastRenewalUtc } = done;
      return { renewed, state, expiresAtUtc, lastRenewalUtc };
    }),
    telemetry: serves(licensing.telemetry, () => licence().telemetry()),
  } satisfies PortsOf<"licensing">;
}
