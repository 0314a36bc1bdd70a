/**
 * The Prometheus scrape's metric families, built from one reading of the
 * appliance (`ScrapeState`), the same objects the JSON endpoints return, so a
 * scrape and those endpoints agree number for number at one instant. Names
 * follow the Prometheus conventions: `bng_` prefix, base units (bytes, not
 * bits: promtool's linter insists), `_total` only on counters, and one family
 * per dimension so that `sum()` over a family never double counts.
 */
import type { MetricFamily } from "./exposition.ts";
import type { AddressPoolView, AlarmsResponse, CgnStatus, LicenceMeter, RadiusPoolStatus, SessionSummaryCounts } from "../../simulator/index.ts";

/** Everything a scrape shows, read by the appliance in one call. */
export interface ScrapeState {
  appliance: string;
  profile: string;
  sessions: SessionSummaryCounts;
  /** The newest 10-second sample of each port (the last point of the 1h metrics history). */
  ports: { portId: number; label: string; rxBps: number; txBps: number }[];
  pools: AddressPoolView[];
  cgn: CgnStatus;
  radius: RadiusPoolStatus;
  alarms: AlarmsResponse;
  licence: LicenceMeter;
  lastSeq: number;
}

type Sample = MetricFamily["samples"][number];

const gauge = (name: string, help: string, samples: Sample[]): MetricFamily => ({ name, type: "gauge", help, samples });
const counter = (name: string, help: string, samples: Sample[]): MetricFamily => ({ name, type: "counter", help, samples });
const one = (value: number): Sample[] => [{ value }];
const flag = (value: boolean) => (value ? 1 : 0);
const byKey = (record: Record<string, number>, label: string): Sample[] =>
  Object.entries(record)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => ({ labels: { [label]: key }, value }));

/** The metric families of one scrape. */
export function scrapeFamilies(s: ScrapeState, softwareVersion: string): MetricFamily[] {
  const port = (p: { portId: number; label: string }) => ({ port_id: String(p.portId), port_label: p.label });
  const pool = (p: AddressPoolView) => ({ pool: p.name, family: p.family, vrf: p.vrf ?? "default" });
  const poolGauge = (suffix: string, help: string, value: (p: AddressPoolView) => number) =>
    gauge(`bng_address_pool_${suffix}`, help, s.pools.map((p) => ({ labels: pool(p), value: value(p) })));
  const group = (name: string, help: string, value: (g: CgnStatus["groups"][number]) => number) =>
    gauge(`bng_cgn_group_${name}`, help, s.cgn.groups.map((g) => ({ labels: { group: g.name }, value: value(g) })));
  const server = (r: RadiusPoolStatus["servers"][number]) => ({ server: `${r.host}:${r.port}` });
  const meter = { meter: s.licence.meter };

  return [
    gauge("bng_appliance_info", "The appliance, its profile and software version; always 1", [
      { labels: { appliance: s.appliance, profile: s.profile, software_version: softwareVersion }, value: 1 },
    ]),

    // Sessions (GET /api/v1/sessions/summary)
    gauge("bng_sessions", "Live subscriber sessions (SessionSummaryCounts.total)", one(s.sessions.total)),
    gauge("bng_sessions_by_encap", "Live sessions by encapsulation", byKey(s.sessions.byEncap, "encap")),
    gauge("bng_sessions_by_type", "Live sessions by type", byKey(s.sessions.byType, "type")),
    gauge("bng_sessions_by_vrf", "Live sessions by VRF; the global table is default", byKey(s.sessions.byVrf, "vrf")),
    gauge("bng_sessions_by_port", "Live sessions by subscriber-facing port; LNS-terminated sessions excluded", s.sessions.byPort.map((p) => ({ labels: port(p), value: p.count }))),
    gauge("bng_sessions_walled_garden", "Live sessions held in the walled garden", one(s.sessions.walledGarden)),

    // Ports (GET /api/v1/metrics/history, newest point)
    gauge("bng_port_receive_bytes_per_second", "Port receive rate over the last 10-second interval (metrics history rxBps / 8)", s.ports.map((p) => ({ labels: port(p), value: p.rxBps / 8 }))),
    gauge("bng_port_transmit_bytes_per_second", "Port transmit rate over the last 10-second interval (metrics history txBps / 8)", s.ports.map((p) => ({ labels: port(p), value: p.txBps / 8 }))),

    // Address pools (GET /api/v1/address-pools)
    poolGauge("size_blocks", "Allocatable blocks of the pool, exclusions not counted", (p) => p.size),
    poolGauge("used_blocks", "Blocks held: committed, on offer, quarantined or reserved", (p) => p.used),
    poolGauge("free_blocks", "Blocks available", (p) => p.free),
    poolGauge("offered_blocks", "Blocks on offer (part of used)", (p) => p.offered),
    poolGauge("quarantined_blocks", "Blocks quarantined after a DHCP decline (part of used)", (p) => p.quarantined),
    counter("bng_address_pool_allocation_failures_total", "Allocations refused because the pool had no free block", s.pools.map((p) => ({ labels: pool(p), value: p.allocationFailures }))),

    // CGN (GET /api/v1/cgn/status)
    gauge("bng_cgn_running", "1 when CGN is running", one(flag(s.cgn.running))),
    gauge("bng_cgn_max_bindings", "Configured cap on CGN bindings", one(s.cgn.maxBindings)),
    gauge("bng_cgn_active_bindings", "Active CGN bindings", one(s.cgn.activeBindings)),
    gauge("bng_cgn_auto_learned_bindings", "Active auto-learned (anonymous) CGN bindings", one(s.cgn.autoLearnedBindings)),
    group("active_bindings", "Active CGN bindings of the group", (g) => g.activeBindings),
    group("size_chunks", "Port blocks of the group (totalChunks)", (g) => g.utilisation.totalChunks),
    group("used_chunks", "Port blocks held by bindings or reserved", (g) => g.utilisation.usedChunks),
    group("free_chunks", "Port blocks available", (g) => g.utilisation.freeChunks),
    group("quarantined_chunks", "Released port blocks resting before reuse", (g) => g.utilisation.quarantinedChunks),
    counter("bng_cgn_autolearn_misses_total", "Auto-learned sources that could not get a binding", one(s.cgn.nativeCounters.autolearnMisses)),
    counter("bng_cgn_no_mapping_total", "Flows that found no port mapping", one(s.cgn.nativeCounters.noMapping)),
    counter("bng_cgn_extension_wanted_total", "Port-block extensions wanted but refused (paired pooling)", one(s.cgn.nativeCounters.extensionWanted)),
    counter("bng_cgn_event_ring_drops_total", "Compliance events dropped by the native event ring", one(s.cgn.nativeCounters.eventRingDrops)),
    counter("bng_cgn_events_lost_total", "Compliance events lost per logger driver", byKey(s.cgn.eventsLostByDriver ?? {}, "driver")),

    // RADIUS (GET /api/v1/radius/servers)
    gauge("bng_radius_live_servers", "RADIUS servers not marked dead", one(s.radius.liveServers)),
    counter("bng_radius_requests_total", "Access-Requests sent to the server", s.radius.servers.map((r) => ({ labels: server(r), value: r.requestsSent }))),
    gauge("bng_radius_consecutive_failures", "Requests lost in a row by the server", s.radius.servers.map((r) => ({ labels: server(r), value: r.consecutiveFailures }))),
    gauge("bng_radius_server_dead", "1 while the server is marked dead", s.radius.servers.map((r) => ({ labels: server(r), value: flag(r.isDead) }))),

    // Alarms (GET /api/v1/alarms)
    gauge("bng_alarms_active", "Active alarms by severity", byKey(s.alarms.countBySeverity, "severity")),
    counter("bng_alarms_raised_total", "Alarms raised", one(s.alarms.stats.raised)),
    counter("bng_alarms_cleared_total", "Alarms cleared, by their condition or an operator", one(s.alarms.stats.cleared)),

    // Licence and logs
    gauge("bng_licence_meter_current", "Licence meter now (currentCount)", [{ labels: meter, value: s.licence.currentCount }]),
    gauge("bng_licence_meter_peak", "Licence meter peak (peakCount)", [{ labels: meter, value: s.licence.peakCount }]),
    gauge("bng_licence_meter_max", "Licence band maximum (bandMax)", [{ labels: meter, value: s.licence.bandMax }]),
    counter("bng_log_entries_total", "Log entries written; equals LogTail.lastSeq", one(s.lastSeq)),
  ];
}
