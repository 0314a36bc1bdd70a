/**
 * The header strip every page carries: the appliance and its software, the
 * active alarms as a badge coloured by the worst severity (a link to the
 * alarm list), a pending restart (a link to the configuration history that
 * caused it), the licence state, and an upgrade in progress. All of it is one
 * read, GET /system/status, whose members equal the sections they summarise.
 */
import { ALARM_SEVERITIES } from "../../simulator/vocabulary.ts";
import { applianceStatus } from "../live.ts";
import { tone } from "../format.ts";

export function StatusStrip({ appliance }: { appliance: string }) {
  const s = applianceStatus.value;
  const counts = s?.alarms.countBySeverity ?? {};
  const worst = ALARM_SEVERITIES.find((sev) => (counts[sev] ?? 0) > 0) ?? null;
  const total = s?.alarms.count ?? 0;
  return (
    <div class="strip" aria-label="Appliance status">
      <span class="brand">{appliance}</span>
      {s && <span class="muted-light">{s.softwareVersion}</span>}
      {s && (
        <a
          class={`badge ${total === 0 ? "sev-none" : `sev-${worst}`}`}
          href="/alarms"
          data-testid="alarm-badge"
          aria-label={total === 0 ? "No alarms active" : `${total} alarm${total === 1 ? "" : "s"}, the worst ${worst}`}
        >
          {total === 0 ? "No alarms" : `${total} alarm${total === 1 ? "" : "s"}`}
        </a>
      )}
      {s?.configuration.pendingRestart && (
        <a
          class="badge sev-minor"
          href="/config"
          data-testid="pending-restart"
          title={`Committed versions ${s.configuration.pendingRestartVersions.join(", ")} apply at the next restart`}
        >
          Restart pending
        </a>
      )}
      {s?.licence.state && (
        <span class={`badge licence tone-${tone("state", s.licence.state) ?? "none"}`} data-testid="licence-state">
          Licence {s.licence.state}
        </span>
      )}
      {s && s.upgrade.state !== "idle" && (
        <a class="badge sev-warning" href="/upgrade">
          Upgrade {s.upgrade.state}
        </a>
      )}
    </div>
  );
}
