/**
 * Metrics, the wire contract: the history (appliance-wide and per-port series over time), the Prometheus scrape's media
 * type, and the operations.
 */
import { z } from "zod";
import { operation } from "./contract.ts";

const int32 = z.int32();
const series = z.array(int32);

export const MetricsHistory = z
  .object({
    intervalSeconds: int32.meta({ description: "spacing of the points: 10 s for 1h, 60 s for 6h, 240 s for 24h" }),
    times: z
      .array(z.string())
      .meta({ description: "date-time of each point, oldest first; every other array aligns to it" }),
    totalSessions: series.meta({ description: "sessions at the point's instant" }),
    byEncap: z
      .object({ ipoe: series, pppoeLocal: series, pppoeLac: series, l2tp: series })
      .meta({ description: "sums to totalSessions point by point" }),
    sessionsUp: series.meta({ description: "sessions established during the interval" }),
    sessionsDown: series.meta({ description: "sessions torn down during the interval" }),
    ports: z.array(
      z
        .object({ portId: z.int(), label: z.string(), rxBps: z.array(z.number()), txBps: z.array(z.number()) })
        .meta({ id: "PortMetrics", description: "rates in bits/second, averaged over each interval" }),
    ),
  })
  .meta({ id: "MetricsHistory" });
export type MetricsHistory = z.output<typeof MetricsHistory>;

/** The Prometheus text exposition format's media type (version 0.0.4). */
export const EXPOSITION_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const HistoryQuery = z.object({
  // Not an enum: the spec says any other value falls back to 1h, so nothing here may refuse it.
  range: z
    .string()
    .optional()
    .meta({ description: "`1h` (default), `6h` or `24h`; any other value falls back to `1h`" }),
});

/** The section's operations (the scrape counts among the System operations, as the spec lists it). */
export const metrics = {
  history: operation({
    method: "GET",
    path: "/api/v1/metrics/history",
    section: "Metrics",
    summary: "Session counts, setups and teardowns, and port rates over the last 1, 6 or 24 hours",
    description:
      "In memory only: up to 24 hours at 10-second resolution, restarting with the " +
      "control plane (and with a reseed). " +
      ("6h and 24h are downsampled to 60 s and 240 s: session counts take each " +
        "interval's last sample, rates its average, setups and teardowns its sum."),
    fp: true,
    query: HistoryQuery,
    response: { description: "Metrics history", schema: MetricsHistory },
    examples: {
      query: { range: "1h" },
      response: {
        intervalSeconds: 10,
        times: ["2026-11-26T20:35:00.000Z", "2026-11-26T20:35:10.000Z"],
        totalSessions: [1983, 1999],
        byEncap: { ipoe: [1077, 1086], pppoeLocal: [617, 621], pppoeLac: [197, 199], l2tp: [92, 93] },
        sessionsUp: [1983, 17],
        sessionsDown: [0, 1],
        ports: [
          { portId: 1, label: "xe-0/0/0 OLT-north", rxBps: [369675562, 371812849], txBps: [3301648026, 3319147134] },
          { portId: 2, label: "xe-0/0/1 OLT-south", rxBps: [379724535, 380714613], txBps: [3376174973, 3383202627] },
        ],
      },
    },
  }),
  scrape: operation({
    method: "GET",
    path: "/api/v1/metrics",
    // The spec counts one Metrics operation (the history) and lists the scrape with the System operations.
    section: "System",
    summary: "Prometheus scrape (bearer token only)",
    description:
      "Prometheus text exposition 0.0.4, read at one instant from the same state as " +
      "the JSON endpoints: sessions (`bng_sessions*`, from the session summary; " +
      "`bng_session_setups_total`, `_teardowns_total`, `_setup_failures_total` as GET /system/status counts them), " +
      ("interface counters " +
        "(`bng_interface_{receive,transmit}_{bytes,packets,errors,discards}_total`, GET " +
        "/system/interfaces, for `rate()`) and `bng_interface_up`, ") +
      ("port rates (`bng_port_*_bytes_per_second`, the metrics history's newest point " +
        "in bytes), address pools (`bng_address_pool_*`), CGN (`bng_cgn_*`, with " +
        "`bng_cgn_port_block_allocations_total`), ") +
      "RADIUS servers (`bng_radius_*`; `bng_radius_requests_total` by `result`: accept, reject, timeout; " +
      "`bng_radius_accounting_requests_total` by `type`: start, interim, stop), " +
      "active alarms by severity (`bng_alarms_*`), " +
      ("the licence meter, state set and days remaining (`bng_licence_*`), BGP sessions " +
        "and prefixes per neighbor (`bng_bgp_*`), IGP adjacencies " +
        "(`bng_igp_adjacency_up`), ") +
      ("IPsec peers and child SAs (`bng_ipsec_*`), L2TP tunnels and their sessions " +
        "(`bng_l2tp_*`), GRE circuits (`bng_gre_*`), the upgrade state set " +
        "(`bng_upgrade_state`), ") +
      "control- and data-plane uptime (`bng_*_plane_uptime_seconds`) and the log sequence (`bng_log_entries_total`). " +
      "A session cookie is refused: scrapers use a named token, typically `read-only`.",
    credentials: "bearer",
    response: { description: "the scrape", contentType: EXPOSITION_CONTENT_TYPE },
    examples: {
      response:
        "# HELP bng_appliance_info The appliance, its profile and software version; " +
        "always 1\n# TYPE bng_appliance_info " +
        'gauge\nbng_appliance_info{appliance="edge-1",profile="small",software_version="bngfleet ' +
        '0.1.0"} 1\n# HELP bng_sessions Live subscriber sessions ' +
        "(SessionSummaryCounts.total)\n# TYPE bng_sessions gauge\nbng_sessions 1999\n# " +
        "HELP bng_sessions_by_encap Live sessions by encapsulation\n# TYPE bng_sess",
    },
  }),
};
