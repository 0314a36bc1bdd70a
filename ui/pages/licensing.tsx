/**
 * Licensing: the licence's state in colour, the session meter against its
 * band as a share with a bar, the dates, what the appliance would report;
 * activation, renewal and an offline lease.
 */
import { contract } from "bngfleet:contract";
import type { Answer } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { count, utc } from "../format.ts";
import { Loaded } from "../components/problem.tsx";
import { JsonView, Scalar } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Facts, Fold } from "../components/card.tsx";
import { LicenceFile } from "./licence-file.tsx";
import type { PageContext } from "./context.ts";

const when = (iso: string | null) => (iso ? utc(iso) : "—");

/** The sessions in use against the band's limit, and the peak. */
function SessionCount({ of: l }: { of: Answer<typeof contract.licensing.status> }) {
  return (
    <p>
      Sessions: <strong data-testid="licence-current">{count(l.currentCount)}</strong> of {count(l.bandMax)}{" "}
      <Scalar value={l.bandMax ? (l.currentCount / l.bandMax) * 100 : 0} name="usedPercent" /> · peak{" "}
      {count(l.peakCount)}
    </p>
  );
}

export function Licensing({ ctx }: { ctx: PageContext }) {
  const status = useCall(contract.licensing.status, {}, { base: ctx.base, refreshMs: 15_000 });
  const telemetry = useCall(
    can(contract.licensing.telemetry) ? contract.licensing.telemetry : null,
    {},
    { base: ctx.base },
  );
  return (
    <>
      <h1>Licensing</h1>
      <Loaded resource={status}>
        {(l) => (
          <Card id="licence" title="Licence">
            <Facts
              label="Licence"
              items={[
                ["State", <Scalar value={l.state} name="state" />],
                ["Mode", l.mode],
                ["Band", l.bandName],
                ["Licence ID", l.licenceId ?? "—"],
                ["Instance ID", l.instanceId ?? "—"],
              ]}
            />
            <SessionCount of={l} />
            <Facts
              label="Licence dates"
              items={[
                ["Expires", when(l.expiresAtUtc)],
                ["Days remaining", l.daysRemaining === null ? "—" : String(l.daysRemaining)],
                ["Contract ends", when(l.contractEndUtc)],
                ["Last renewal", when(l.lastRenewalUtc)],
              ]}
            />
            {l.adminFreezeActive && (
              <p class="problem">The licence has lapsed: configuration commits are refused until it is renewed.</p>
            )}
          </Card>
        )}
      </Loaded>
      {telemetry.data && (
        <Card id="telemetry" title="What the appliance reports" aside={`delivery: ${telemetry.data.delivery}`}>
          <JsonView value={telemetry.data} />
        </Card>
      )}
      {!ctx.peer && (
        <section class="actions" aria-label="Changes">
          <ActionForm operation={contract.licensing.renew} title="Renew now" onDone={status.reload} />
          <div>
            {can(contract.licensing.activate) && (
              <Fold title="Activate with a token">
                <ActionForm operation={contract.licensing.activate} title="Activate" onDone={status.reload} />
              </Fold>
            )}
            <LicenceFile />
          </div>
        </section>
      )}
    </>
  );
}
