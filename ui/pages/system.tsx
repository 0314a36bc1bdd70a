/**
 * The system page: the appliance's state in parts (GET /system/status), its
 * interfaces with each data-plane port's load as a share of its speed, and
 * the hardware inventory with the optics' readings against their thresholds.
 * Numbers are the API's; only their arrangement is this page's.
 */
import { contract } from "bngfleet:contract";
import { useCall, useStatus } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { JsonView, RecordTable } from "../components/json-view.tsx";
import { utc } from "../format.ts";
import type { PageContext } from "./context.ts";
import type { Answer } from "../api.ts";

type Optic = Answer<typeof contract.system.inventory>["lineCards"][number]["ports"][number]["optic"];

/** A port's busier direction as a share of its speed (full duplex: each direction has the whole speed). */
const utilisation = (rxBps: number, txBps: number, speedMbps: number | null) =>
  speedMbps ? Math.min(100, (Math.max(rxBps, txBps) / (speedMbps * 1e6)) * 100) : null;

/** Where a reading sits against its thresholds. */
function against(value: number, t: Optic["dom"]["thresholds"]["temperatureCelsius"]): string {
  if (value <= t.lowAlarm || value >= t.highAlarm) return "alarm";
  if (value <= t.lowWarning || value >= t.highWarning) return "warning";
  return "ok";
}

function opticRow(port: { portId: number; name: string; label: string }, optic: Optic) {
  const dom = optic.dom;
  const worstRx = Math.min(...dom.lanes.map((l) => l.rxPowerDbm));
  return {
    // The port as every page names it (`xe-0/0/0 OLT-north`).
    port: port.label || port.name,
    type: `${optic.formFactor} ${optic.type}`,
    wavelengthNm: optic.wavelengthNm,
    vendor: `${optic.vendor} ${optic.partNumber}`,
    serialNumber: optic.serialNumber,
    temperature: `${dom.temperatureCelsius.toFixed(1)} °C`,
    temperatureState: against(dom.temperatureCelsius, dom.thresholds.temperatureCelsius),
    rxPower: `${worstRx.toFixed(2)} dBm${dom.lanes.length > 1 ? ` (worst of ${dom.lanes.length} lanes)` : ""}`,
    rxPowerState: against(worstRx, dom.thresholds.rxPowerDbm),
  };
}

export function SystemPage({ ctx }: { ctx: PageContext }) {
  const status = useStatus(ctx.base, 10_000);
  const interfaces = useCall(contract.system.interfaces, {}, { base: ctx.base, refreshMs: 10_000, live: true });
  const inventory = useCall(contract.system.inventory, {}, { base: ctx.base, refreshMs: 60_000 });
  return (
    <>
      <h1>System</h1>
      <section class="card" aria-labelledby="status-h">
        <h2 id="status-h">Status</h2>
        <Loaded resource={status}>{(s) => <JsonView value={s} />}</Loaded>
      </section>
      <section class="card" aria-labelledby="interfaces-h">
        <h2 id="interfaces-h">Interfaces</h2>
        <Loaded resource={interfaces}>
          {(t) => (
            <>
              <p class="muted">
                As of {utc(t.asOfUtc)}. Utilisation is the busier direction's share of the port's speed.
              </p>
              <RecordTable
                caption="Interfaces"
                rows={t.interfaces.map((i) => ({
                  interface: i.name,
                  description: i.description,
                  adminState: i.adminState,
                  operState: i.operState,
                  speedMbps: i.speedMbps,
                  rxBps: i.rxBps,
                  txBps: i.txBps,
                  utilisationPercent: utilisation(i.rxBps, i.txBps, i.speedMbps),
                  sessions: i.sessions,
                  mtu: i.mtu,
                  rxBytes: i.counters.rxBytes,
                  txBytes: i.counters.txBytes,
                  errors: i.counters.rxErrors + i.counters.txErrors,
                  discards: i.counters.rxDiscards + i.counters.txDiscards,
                }))}
              />
              <p class="muted">Counters since {utc(t.interfaces[0]?.countersSinceUtc ?? t.asOfUtc)}.</p>
              {t.tunnels.length > 0 && <RecordTable caption="GRE tunnel interfaces" rows={t.tunnels} />}
            </>
          )}
        </Loaded>
      </section>
      <section class="card" aria-labelledby="inventory-h">
        <h2 id="inventory-h">Hardware</h2>
        <Loaded resource={inventory}>
          {(inv) => (
            <>
              <JsonView value={inv.chassis} />
              <h3>Line cards</h3>
              <RecordTable
                caption="Line cards"
                rows={inv.lineCards.map((c) => ({
                  slot: c.slot,
                  model: c.model,
                  serialNumber: c.serialNumber,
                  state: c.state,
                  ports: c.ports.map((p) => p.name).join(", "),
                }))}
              />
              <h3>Optics</h3>
              <RecordTable
                caption="Optics"
                rows={inv.lineCards.flatMap((c) => c.ports.map((p) => opticRow(p, p.optic)))}
              />
              <div class="grid">
                <div>
                  <h3>Power supplies</h3>
                  <RecordTable caption="Power supplies" rows={inv.psus} />
                </div>
                <div>
                  <h3>Fans</h3>
                  <RecordTable caption="Fans" rows={inv.fans} />
                </div>
              </div>
              <h3>Temperatures</h3>
              <RecordTable
                caption="Temperatures"
                rows={inv.temperatures.map((t) => ({
                  sensor: t.sensor,
                  reading: `${t.celsius.toFixed(1)} °C`,
                  state: t.celsius >= t.criticalCelsius ? "critical" : t.celsius >= t.warningCelsius ? "warning" : "ok",
                  warning: `${t.warningCelsius} °C`,
                  critical: `${t.criticalCelsius} °C`,
                }))}
              />
            </>
          )}
        </Loaded>
      </section>
    </>
  );
}
