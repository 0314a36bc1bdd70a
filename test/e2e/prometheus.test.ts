/**
 * The fleet under a real Prometheus (Debian's `prometheus`, on loopback):
 * every appliance is scraped (`up` 1), rate() over the interface byte
 * counters shows traffic, and every panel of the committed Grafana dashboard
 * (grafana/bngfleet.json) returns data when Prometheus evaluates its PromQL.
 * Prometheus runs from the committed scrape example (grafana/prometheus.yml)
 * with only the ports, the token file and the interval changed.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePortBase, fetchJson, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { requirePrometheus, startPrometheus, type RunningPrometheus } from "./prometheus-server.ts";
import { newToken } from "../../src/trust/tokens.ts";

const PORT_BASE = await freePortBase(3);
const PORTS = [PORT_BASE, PORT_BASE + 1, PORT_BASE + 2];
const INSTANCES = PORTS.map((p) => `127.0.0.1:${p}`);
/** Prometheus's web address: it binds a port the OS picks and names it in its "Listening on" log line. */
let PROMETHEUS = "";
const BOOTSTRAP = newToken();

let fleet: RunningFleet;
let prometheus: RunningPrometheus | undefined;

const api = (port: number, path: string, body?: unknown) =>
  fetchJson(`https://127.0.0.1:${port}${path}`, {
    insecure: true,
    headers: { authorization: `Bearer ${BOOTSTRAP}` },
    ...(body === undefined ? {} : { body }),
  });

type Vector = { metric: Record<string, string>; value: [number, string] }[];
async function query(promql: string): Promise<Vector> {
  const response = await fetch(`http://${PROMETHEUS}/api/v1/query?query=${encodeURIComponent(promql)}`);
  const body = (await response.json()) as {
    status: string;
    error?: string;
    data: { resultType: string; result: Vector };
  };
  expect(body.status, `${promql}: ${body.error}`).toBe("success");
  return body.data.result;
}

/**
 * Polls until `check` passes (Prometheus scrapes every 2 s, the fleet's clock ticks every 10 s), then returns its last
 * answer.
 */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, seconds = 90): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (check(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

beforeAll(async () => {
  requirePrometheus();
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-prometheus-"));
  // The shipped three-appliance fleet file, on this test's ports.
  fleet = await launchFleet(
    { BNG_PORT_BASE: String(PORT_BASE), BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" },
    PORTS,
  );
  // Half an hour of simulated time: subscribers are up and sending.
  for (const port of PORTS)
    expect((await api(port, "/twin/v1/scenario", { action: "advance-clock", seconds: 1800 })).status).toBe(200);

  // The shipped file as written, but for its paths and ports: each appliance's own read-only token (a token
  // is valid only where it was made), in the file the configuration names for it.
  let config = (await readFile("grafana/prometheus.yml", "utf8")).replace(
    "scrape_interval: 15s",
    "scrape_interval: 2s",
  );
  for (const [i, name] of ["edge-1", "edge-2", "edge-3"].entries()) {
    const made = await api(PORTS[i]!, "/api/v1/auth/tokens", { name: "prometheus", role: "read-only" });
    expect(made.status).toBe(200);
    const tokenFile = path.join(dir, `bngfleet-${name}.token`);
    await writeFile(tokenFile, made.json<{ token: string }>().token);
    const shipped = `/etc/prometheus/bngfleet-${name}.token`;
    expect(config).toContain(shipped);
    config = config.replace(shipped, tokenFile).replace(`"127.0.0.1:${8443 + i}"`, JSON.stringify(INSTANCES[i]));
  }
  expect(config.match(/credentials_file/g)).toHaveLength(3);
  const configFile = path.join(dir, "prometheus.yml");
  await writeFile(configFile, config);
  const check = spawnSync("promtool", ["check", "config", configFile], { encoding: "utf8" });
  expect(check.status, check.stdout + check.stderr).toBe(0);

  prometheus = await startPrometheus([`--config.file=${configFile}`, `--storage.tsdb.path=${path.join(dir, "tsdb")}`]);
  PROMETHEUS = prometheus.address;
}, 180_000);

afterAll(async () => {
  await prometheus?.stop();
  if (fleet) expect(await fleet.stop()).toBe(0);
}, 60_000);

describe("a real Prometheus scraping the fleet", () => {
  it("has up = 1 for every appliance", async () => {
    const up = await eventually(
      () => query('up{job="bngfleet"}'),
      (v) => v.length === 3 && v.every((s) => s.value[1] === "1"),
    );
    expect(Object.fromEntries(up.map((s) => [s.metric.instance, s.value[1]]))).toEqual(
      Object.fromEntries(INSTANCES.map((i) => [i, "1"])),
    );
  }, 120_000);

  it("sees subscriber traffic on every appliance through rate() over the interface byte counters", async () => {
    const promql = 'sum by (instance) (rate(bng_interface_receive_bytes_total{port_id!=""}[30s]))';
    const rates = await eventually(
      () => query(promql),
      (v) => v.length === 3 && v.every((s) => Number(s.value[1]) > 0),
    );
    expect(rates.map((s) => s.metric.instance).sort()).toEqual(INSTANCES);
    for (const s of rates) expect(Number(s.value[1]), s.metric.instance).toBeGreaterThan(0);
  }, 120_000);

  it("sees the byte counters advance between the model's 10 s steps: irate() over 2 s " +
    "scrapes never drops to zero under traffic", async () => {
    // A counter that moved only at each 10 s step would read flat at four of every five 2 s scrapes (irate 0)
    // and jump at the fifth; one that advances at any read instant reads about the port's rate at each.
    const promql = 'sum by (instance) (irate(bng_interface_receive_bytes_total{port_id!=""}[5s]))';
    const sampled = await eventually(
      async () => {
        const end = Date.now() / 1000;
        const response = await fetch(
          `http://${PROMETHEUS}/api/v1/query_range?query=${encodeURIComponent(promql)}` +
            `&start=${end - 30}&end=${end}&step=2`,
        );
        return (
          (await response.json()) as {
            data: { result: { metric: Record<string, string>; values: [number, string][] }[] };
          }
        ).data.result;
      },
      (series) => series.length === 3 && series.every((s) => s.values.length >= 12),
    );
    expect(sampled).toHaveLength(3);
    for (const s of sampled) {
      const values = s.values.map(([, v]) => Number(v));
      expect(values.length, s.metric.instance).toBeGreaterThanOrEqual(12);
      expect(Math.min(...values), `${s.metric.instance}: ${values.join(" ")}`).toBeGreaterThan(0);
      // The ports' rates are 30 s averages, a third redrawn each step: neighbouring reads stay within a factor of
      // three.
      expect(Math.max(...values) / Math.min(...values), `${s.metric.instance}: ${values.join(" ")}`).toBeLessThan(3);
    }
  }, 120_000);
});

type Panel = { type: string; title: string; targets?: { expr: string }[] };
type Dashboard = { panels: Panel[]; templating: { list: { name: string; type: string; definition?: string }[] } };

describe("the Grafana dashboard (grafana/bngfleet.json)", () => {
  it("lists every appliance in its appliance variable", async () => {
    const dashboard = JSON.parse(await readFile("grafana/bngfleet.json", "utf8")) as Dashboard;
    const variable = dashboard.templating.list.find((v) => v.name === "instance")!;
    expect(variable.definition).toBe("label_values(bng_appliance_info, instance)");
    const response = await fetch(`http://${PROMETHEUS}/api/v1/label/instance/values?match[]=bng_appliance_info`);
    expect(((await response.json()) as { data: string[] }).data.sort()).toEqual(INSTANCES);
  });

  it("gets data for every panel's every query: the overview for the fleet, the " +
    "appliance view for each appliance", async () => {
    const dashboard = JSON.parse(await readFile("grafana/bngfleet.json", "utf8")) as Dashboard;
    const queries = dashboard.panels
      .filter((p) => p.type !== "row")
      .flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));
    expect(queries.length).toBeGreaterThan(15);
    // Grafana's $__rate_interval is at least four scrape intervals; a minute holds several 10 s clock ticks here.
    const expand = (expr: string, instance: string) =>
      expr.replaceAll("$__rate_interval", "1m").replaceAll("$instance", instance.replaceAll(".", "\\\\."));
    const evaluations = queries.flatMap((q) =>
      q.expr.includes("$instance")
        ? INSTANCES.map((i) => ({ ...q, instance: i, promql: expand(q.expr, i) }))
        : [{ ...q, instance: "fleet", promql: expand(q.expr, "") }],
    );
    const empty = await eventually(
      async () => {
        const missing: string[] = [];
        for (const e of evaluations)
          if ((await query(e.promql)).length === 0) missing.push(`${e.panel} (${e.instance}): ${e.promql}`);
        return missing;
      },
      (missing) => missing.length === 0,
    );
    expect(empty).toEqual([]);
  }, 150_000);
});

describe("the served OpenAPI document", () => {
  it("is the document `npm run lint:openapi` lints", async () => {
    const served = await api(PORT_BASE, "/api/v1/openapi/v1.json");
    expect(served.status).toBe(200);
    const dumped = spawnSync(process.execPath, ["scripts/openapi.ts"], { encoding: "utf8", maxBuffer: 64 << 20 });
    expect(dumped.status, dumped.stderr).toBe(0);
    expect(served.json()).toEqual(JSON.parse(dumped.stdout));
  });
});
