/**
 * The Prometheus scrape's metric families, built from one reading of the
 * appliance (`ScrapeState`), the same objects the JSON endpoints return, so a
 * scrape and those endpoints agree number for number at one instant. Names
 * follow the Prometheus conventions: `bng_` prefix, base units (bytes, not
 * bits: promtool's linter insists), `_total` only on counters, and one family
 * per dimension so that `sum()` over a family never double counts.
 */
import type { MetricFamily } from "./exposition.ts";
import { LICENCE_STATES } from "../../simulator/index.ts";
import type {
  AddressPoolView,
  AlarmsResponse,
  CgnStatus,
  L2tpTunnel,
  LicenceMeter,
  RadiusPoolStatus,
  SessionSummaryCounts,
} from "../../simulator/index.ts";
import type { Interface } from "../schemas/system.ts";
import type { BgpSummary, IgpStatus } from "../schemas/routing.ts";
import type { IpsecStatus } from "../schemas/ipsec.ts";
import type { GreCircuitStatus } from "../schemas/gre-circuits.ts";
import type { LicenceStatus } from "../schemas/licensing.ts";
import type { AlertSinkState } from "../schemas/alarms.ts";
import { UpgradeStateEnum, type UpgradeState } from "../schemas/upgrade.ts";

/** What the data plane shows in a scrape, read in one call at one simulated instant. */
export interface DataPlaneScrape {
  appliance: string;
  profile: string;
  sessions: SessionSummaryCounts;
  /** Setups, teardowns and failed setups since the data plane booted. */
  sessionEvents: { setups: number; teardowns: number; failures: number };
  dataPlaneUptimeSeconds: number;
  /** The newest 10-second sample of each port (the last point of the 1h metrics history). */
  ports: { portId: number; label: string; rxBps: number; txBps: number }[];
  /** GET /system/interfaces rows: their counters are the scrape's interface counters. */
  interfaces: Interface[];
  pools: AddressPoolView[];
  cgn: CgnStatus;
  radius: RadiusPoolStatus;
  alarms: AlarmsResponse;
  /** The push sinks' delivery counts and queues (GET /api/v1/alarms/sinks). */
  alertSinks: AlertSinkState[];
  licence: LicenceMeter;
  l2tpTunnels: L2tpTunnel[];
  lastSeq: number;
}

/**
 * Everything a scrape shows: the data plane's reading plus the control
 * plane's (routing, IPsec, GRE, licence, upgrade), gathered by the appliance
 * in one synchronous call so no clock tick falls between them.
 */
export interface ScrapeState extends DataPlaneScrape {
  softwareVersion: string;
  controlPlaneUptimeSeconds: number;
  bgp: BgpSummary;
  igp: IgpStatus;
  ipsec: IpsecStatus;
  gre: GreCircuitStatus[];
  licenceStatus: Pick<LicenceStatus, "state" | "daysRemaining">;
  upgradeState: UpgradeState;
  /** Log entries dropped per syslog destination (durable-objects/syslog.ts). */
  syslogDropped: Record<string, number>;
}

type Sample = MetricFamily["samples"][number];

const RADIUS_RESULTS = ["accept", "reject", "timeout"] as const;
const ALERT_OUTCOMES = ["delivered", "retried", "dropped"] as const;
/** Interface counters: metric name stem, help, and the interface table's counter. */
const INTERFACE_COUNTERS = [
  ["receive_bytes", "Bytes received", "rxBytes"],
  ["transmit_bytes", "Bytes transmitted", "txBytes"],
  ["receive_packets", "Packets received", "rxPackets"],
  ["transmit_packets", "Packets transmitted", "txPackets"],
  ["receive_errors", "Receive errors", "rxErrors"],
  ["transmit_errors", "Transmit errors", "txErrors"],
  ["receive_discards", "Received packets discarded (ingress policing)", "rxDiscards"],
  ["transmit_discards", "Packets discarded before transmission (egress shaping)", "txDiscards"],
] as const satisfies readonly (readonly [string, string, keyof Interface["counters"]])[];

const gauge = (name: string, help: string, samples: Sample[]): MetricFamily => ({ name, type: "gauge", help, samples });
const counter = (name: string, help: string, samples: Sample[]): MetricFamily => ({
  name,
  type: "counter",
  help,
  samples,
});
const one = (value: number): Sample[] => [{ value }];
const flag = (value: boolean) => (value ? 1 : 0);
const byKey = (record: Record<string, number>, label: string): Sample[] =>
  Object.entries(record)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => ({ labels: { [label]: key }, value }));

/** The metric families of one scrape. */
export function scrapeFamilies(s: ScrapeState): MetricFamily[] {
  const port = (p: { portId: number; label: string }) => ({ port_id: String(p.portId), port_label: p.label });
  const pool = (p: AddressPoolView) => ({ pool: p.name, family: p.family, vrf: p.vrf ?? "default" });
  const poolGauge = (suffix: string, help: string, value: (p: AddressPoolView) => number) =>
    gauge(
      `bng_address_pool_${suffix}`,
      help,
      s.pools.map((p) => ({ labels: pool(p), value: value(p) })),
    );
  const group = (name: string, help: string, value: (g: CgnStatus["groups"][number]) => number) =>
    gauge(
      `bng_cgn_group_${name}`,
      help,
      s.cgn.groups.map((g) => ({ labels: { group: g.name }, value: value(g) })),
    );
  const server = (r: RadiusPoolStatus["servers"][number]) => ({ server: `${r.host}:${r.port}` });
  const meter = { meter: s.licence.meter };
  const iface = (i: Interface) => ({ interface: i.name, ...(i.portId === null ? {} : { port_id: String(i.portId) }) });
  const bgpRow = (p: ScrapeState["bgp"]["peers"][number]) => ({ peer: p.peer, vrf: p.vrf, afi_safi: p.afiSafi });
  // The summary has a row per peer per address family; the session is one per peer and VRF.
  const bgpSessions = [...new Map(s.bgp.peers.map((p) => [`${p.vrf}|${p.peer}`, p])).values()];
  const tunnel = (t: L2tpTunnel) => ({
    tunnel_id: String(t.localTunnelId),
    direction: t.direction,
    peer: t.peerHostname ?? t.peerIp ?? "",
  });
  const circuit = (c: ScrapeState["gre"][number]) => ({ circuit: c.id, vrf: c.vrf });

  return [
    gauge("bng_appliance_info", "The appliance, its profile and software version; always 1", [
      { labels: { appliance: s.appliance, profile: s.profile, software_version: s.softwareVersion }, value: 1 },
    ]),

    // Sessions (GET /api/v1/sessions/summary)
    gauge("bng_sessions", "Live subscriber sessions (SessionSummaryCounts.total)", one(s.sessions.total)),
    gauge("bng_sessions_by_encap", "Live sessions by encapsulation", byKey(s.sessions.byEncap, "encap")),
    gauge("bng_sessions_by_type", "Live sessions by type", byKey(s.sessions.byType, "type")),
    gauge("bng_sessions_by_vrf", "Live sessions by VRF; the global table is default", byKey(s.sessions.byVrf, "vrf")),
    gauge(
      "bng_sessions_by_port",
      "Live sessions by subscriber-facing port; LNS-terminated sessions excluded",
      s.sessions.byPort.map((p) => ({ labels: port(p), value: p.count })),
    ),
    gauge("bng_sessions_walled_garden", "Live sessions held in the walled garden", one(s.sessions.walledGarden)),
    counter(
      "bng_session_setups_total",
      "Sessions established since the data plane booted (GET /system/status sessions.setupsSinceBoot)",
      one(s.sessionEvents.setups),
    ),
    counter(
      "bng_session_teardowns_total",
      "Sessions torn down since the data plane booted (sessions.teardownsSinceBoot)",
      one(s.sessionEvents.teardowns),
    ),
    counter(
      "bng_session_setup_failures_total",
      "Session setups that failed since the data plane booted (sessions.setupFailuresSinceBoot)",
      one(s.sessionEvents.failures),
    ),

    // Interfaces (GET /api/v1/system/interfaces): counters since countersSinceUtc; rate() turns them into traffic
    ...INTERFACE_COUNTERS.map(([name, help, key]) =>
      counter(
        `bng_interface_${name}_total`,
        `${help} (GET /system/interfaces counters.${key})`,
        s.interfaces.map((i) => ({ labels: iface(i), value: i.counters[key] })),
      ),
    ),
    gauge(
      "bng_interface_up",
      "1 while the interface is operationally up (operState)",
      s.interfaces.map((i) => ({ labels: iface(i), value: flag(i.operState === "up") })),
    ),

    // Ports (GET /api/v1/metrics/history, newest point)
    gauge(
      "bng_port_receive_bytes_per_second",
      "Port receive rate over the last 10-second interval (metrics history rxBps / 8)",
      s.ports.map((p) => ({ labels: port(p), value: p.rxBps / 8 })),
    ),
    gauge(
      "bng_port_transmit_bytes_per_second",
      "Port transmit rate over the last 10-second interval (metrics history txBps / 8)",
      s.ports.map((p) => ({ labels: port(p), value: p.txBps / 8 })),
    ),

    // Address pools (GET /api/v1/address-pools)
    poolGauge("size_blocks", "Allocatable blocks of the pool, exclusions not counted", (p) => p.size),
    poolGauge("used_blocks", "Blocks held: committed, on offer, quarantined or reserved", (p) => p.used),
    poolGauge("free_blocks", "Blocks available", (p) => p.free),
    poolGauge("offered_blocks", "Blocks on offer (part of used)", (p) => p.offered),
    poolGauge("quarantined_blocks", "Blocks quarantined after a DHCP decline (part of used)", (p) => p.quarantined),
    counter(
      "bng_address_pool_allocation_failures_total",
      "Allocations refused because the pool had no free block",
      s.pools.map((p) => ({ labels: pool(p), value: p.allocationFailures })),
    ),

    // CGN (GET /api/v1/cgn/status)
    gauge("bng_cgn_running", "1 when CGN is running", one(flag(s.cgn.running))),
    gauge("bng_cgn_max_bindings", "Configured cap on CGN bindings", one(s.cgn.maxBindings)),
    gauge("bng_cgn_active_bindings", "Active CGN bindings", one(s.cgn.activeBindings)),
    gauge(
      "bng_cgn_auto_learned_bindings",
      "Active auto-learned (anonymous) CGN bindings",
      one(s.cgn.autoLearnedBindings),
    ),
    group("active_bindings", "Active CGN bindings of the group", (g) => g.activeBindings),
    group("size_chunks", "Port blocks of the group (totalChunks)", (g) => g.utilisation.totalChunks),
    group("used_chunks", "Port blocks held by bindings or reserved", (g) => g.utilisation.usedChunks),
    group("free_chunks", "Port blocks available", (g) => g.utilisation.freeChunks),
    group("quarantined_chunks", "Released port blocks resting before reuse", (g) => g.utilisation.quarantinedChunks),
    counter(
      "bng_cgn_port_block_allocations_total",
      "Port blocks handed to bindings since the data plane booted (CgnGroup.portBlockAllocations)",
      s.cgn.groups.map((g) => ({ labels: { group: g.name }, value: g.portBlockAllocations })),
    ),
    counter(
      "bng_cgn_autolearn_misses_total",
      "Auto-learned sources that could not get a binding",
      one(s.cgn.nativeCounters.autolearnMisses),
    ),
    counter("bng_cgn_no_mapping_total", "Flows that found no port mapping", one(s.cgn.nativeCounters.noMapping)),
    counter(
      "bng_cgn_extension_wanted_total",
      "Port-block extensions wanted but refused (paired pooling)",
      one(s.cgn.nativeCounters.extensionWanted),
    ),
    counter(
      "bng_cgn_event_ring_drops_total",
      "Compliance events dropped by the native event ring",
      one(s.cgn.nativeCounters.eventRingDrops),
    ),
    counter(
      "bng_cgn_events_lost_total",
      "Compliance events lost per logger driver",
      byKey(s.cgn.eventsLostByDriver ?? {}, "driver"),
    ),

    // RADIUS (GET /api/v1/radius/servers)
    gauge("bng_radius_live_servers", "RADIUS servers not marked dead", one(s.radius.liveServers)),
    counter(
      "bng_radius_requests_total",
      "Access-Requests sent to the server by result: accept, reject, or timeout " +
        "(lost); the sum over result is requestsSent",
      s.radius.servers.flatMap((r) =>
        RADIUS_RESULTS.map((result) => ({ labels: { ...server(r), result }, value: r.requestsByResult[result] })),
      ),
    ),
    gauge(
      "bng_radius_consecutive_failures",
      "Requests lost in a row by the server",
      s.radius.servers.map((r) => ({ labels: server(r), value: r.consecutiveFailures })),
    ),
    gauge(
      "bng_radius_server_dead",
      "1 while the server is marked dead",
      s.radius.servers.map((r) => ({ labels: server(r), value: flag(r.isDead) })),
    ),
    counter(
      "bng_radius_accounting_requests_total",
      "Accounting-Requests sent to the server by Acct-Status-Type: start, interim, stop (RadiusServer.accounting)",
      s.radius.servers.flatMap((r) => {
        const t = r.accounting.requestsByType;
        const by = { start: t.start, interim: t.interimUpdate, stop: t.stop };
        return Object.entries(by).map(([type, value]) => ({ labels: { ...server(r), type }, value }));
      }),
    ),
    counter(
      "bng_radius_accounting_responses_total",
      "Accounting-Responses the server sent back",
      s.radius.servers.map((r) => ({ labels: server(r), value: r.accounting.responses })),
    ),
    gauge("bng_radius_accounting_queued", "Accounting records waiting for a server", one(s.radius.accounting.queued)),
    counter("bng_radius_accounting_dropped_total", "Accounting records dropped", one(s.radius.accounting.dropped)),

    // Alarms (GET /api/v1/alarms)
    gauge("bng_alarms_active", "Active alarms by severity", byKey(s.alarms.countBySeverity, "severity")),
    counter("bng_alarms_raised_total", "Alarms raised", one(s.alarms.stats.raised)),
    counter(
      "bng_alarms_cleared_total",
      "Alarms cleared, by their condition or an operator",
      one(s.alarms.stats.cleared),
    ),
    counter(
      "bng_alert_notifications_total",
      "Alert notifications per push sink by outcome: delivered, retried (a failed attempt tried again), " +
        "dropped (queue full, 30 minutes old, or refused for good)",
      s.alertSinks.flatMap((k) =>
        ALERT_OUTCOMES.map((outcome) => ({ labels: { sink: k.name, outcome }, value: k[outcome] })),
      ),
    ),
    gauge(
      "bng_alert_sink_queued",
      "Alert notifications waiting for the push sink (GET /api/v1/alarms/sinks queued)",
      s.alertSinks.map((k) => ({ labels: { sink: k.name }, value: k.queued })),
    ),

    // Licence and logs
    gauge("bng_licence_meter_current", "Licence meter now (currentCount)", [
      { labels: meter, value: s.licence.currentCount },
    ]),
    gauge("bng_licence_meter_peak", "Licence meter peak (peakCount)", [{ labels: meter, value: s.licence.peakCount }]),
    gauge("bng_licence_meter_max", "Licence band maximum (bandMax)", [{ labels: meter, value: s.licence.bandMax }]),
    counter("bng_log_entries_total", "Log entries written; equals LogTail.lastSeq", one(s.lastSeq)),
    counter(
      "bng_syslog_dropped_total",
      "Log entries not shipped to a syslog destination: its queue was full (receiver down or slow)",
      byKey(s.syslogDropped, "destination"),
    ),
    gauge(
      "bng_licence_state",
      "Licence state as a state set: 1 for the current state (GET /licensing state)",
      LICENCE_STATES.map((state) => ({ labels: { state }, value: flag(s.licenceStatus.state === state) })),
    ),
    gauge(
      "bng_licence_days_remaining",
      "Days until the licence expires, or until the grace period ends in Grace (GET " +
        "/licensing daysRemaining); absent in dev mode",
      s.licenceStatus.daysRemaining === null ? [] : one(s.licenceStatus.daysRemaining),
    ),

    // Control plane, software and upgrade (GET /system/status, GET /system/upgrade)
    gauge(
      "bng_control_plane_uptime_seconds",
      "Seconds since the control plane started (controlPlane.uptimeSeconds)",
      one(s.controlPlaneUptimeSeconds),
    ),
    gauge(
      "bng_data_plane_uptime_seconds",
      "Simulated seconds since the data plane booted (dataPlane.uptimeSeconds)",
      one(s.dataPlaneUptimeSeconds),
    ),
    gauge(
      "bng_upgrade_state",
      "Software upgrade state as a state set: 1 for the current state",
      UpgradeStateEnum.options.map((state) => ({ labels: { state }, value: flag(s.upgradeState === state) })),
    ),

    // Routing (GET /api/v1/routing/bgp/summary, /routing/igp)
    gauge(
      "bng_routing_daemon_up",
      "1 while the routing daemon answers (BgpSummary.reachable or IgpStatus.reachable)",
      one(flag(s.bgp.reachable || s.igp.reachable)),
    ),
    gauge(
      "bng_bgp_session_up",
      "1 while the BGP session is Established",
      bgpSessions.map((p) => ({
        labels: { peer: p.peer, vrf: p.vrf, remote_as: String(p.remoteAs) },
        value: flag(p.state === "Established"),
      })),
    ),
    gauge(
      "bng_bgp_prefixes_received",
      "Routes the peer sent in the family, before the inbound policy (prefixesReceived)",
      s.bgp.peers.map((p) => ({ labels: bgpRow(p), value: p.prefixesReceived })),
    ),
    gauge(
      "bng_bgp_prefixes_sent",
      "Routes sent to the peer in the family (prefixesSent)",
      s.bgp.peers.map((p) => ({ labels: bgpRow(p), value: p.prefixesSent })),
    ),
    gauge(
      "bng_igp_adjacency_up",
      "1 while the IGP adjacency is in its final state (OSPF Full, IS-IS Up)",
      s.igp.adjacencies.map((a) => ({
        labels: { protocol: s.igp.protocol, interface: a.interface, neighbor_id: a.neighborId },
        value: flag(a.state === "Full" || a.state === "Up"),
      })),
    ),

    // IPsec (GET /api/v1/ipsec)
    gauge(
      "bng_ipsec_daemon_up",
      "1 while the IPsec daemon answers (IpsecStatus.reachable)",
      one(flag(s.ipsec.reachable)),
    ),
    gauge(
      "bng_ipsec_peer_established",
      "1 while the peer's IKE SA is ESTABLISHED",
      s.ipsec.peers.map((p) => ({ labels: { peer: p.name }, value: flag(p.state === "ESTABLISHED") })),
    ),
    gauge(
      "bng_ipsec_child_sas",
      "Installed child SAs of the peer",
      s.ipsec.peers.map((p) => ({ labels: { peer: p.name }, value: p.children.length })),
    ),

    // L2TP (GET /api/v1/l2tp/tunnels)
    gauge(
      "bng_l2tp_tunnel_established",
      "1 while the L2TP tunnel is established",
      s.l2tpTunnels.map((t) => ({ labels: tunnel(t), value: flag(t.state === "established") })),
    ),
    gauge(
      "bng_l2tp_tunnel_sessions",
      "Sessions carried by the L2TP tunnel",
      s.l2tpTunnels.map((t) => ({ labels: tunnel(t), value: t.sessions })),
    ),

    // GRE circuits (GET /api/v1/gre-circuits/status)
    gauge(
      "bng_gre_circuit_up",
      "1 while the circuit is up: tunnel up and, with BGP, the session Established (circuitState)",
      s.gre.map((c) => ({ labels: circuit(c), value: flag(c.circuitState === "up") })),
    ),
    gauge(
      "bng_gre_tunnel_up",
      "1 while the GRE tunnel itself is up (tunnelState)",
      s.gre.map((c) => ({ labels: circuit(c), value: flag(c.tunnelState === "up") })),
    ),
    gauge(
      "bng_gre_bgp_established",
      "1 while the circuit's BGP session is Established; 0 when BGP is disabled for it",
      s.gre.map((c) => ({ labels: circuit(c), value: flag(c.bgpState === "Established") })),
    ),
  ];
}
