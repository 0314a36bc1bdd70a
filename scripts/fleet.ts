/**
 * `npm start`: runs the whole fleet locally, one listener per appliance.
 *
 * The Worker is bundled exactly as `wrangler deploy` would bundle it, then run
 * under Miniflare (not `wrangler dev`, which takes far longer to start): one
 * Worker for the whole fleet, as deployed, with the SQLite-backed `Appliance`
 * Durable Object namespace and one direct socket, so start-up does not grow
 * by a Worker per appliance. With plain HTTP (BNG_HTTP=1) workerd serves each
 * appliance's port itself (scripts/public-sockets.ts): the socket names its
 * appliance (the hostname's job when deployed) and workerd the client's
 * address, with no other process on the request path. Over HTTPS (the
 * default) a Node listener per appliance relays to the Worker's socket
 * (scripts/listeners.ts), with a per-appliance self-signed certificate or the
 * appliance's own, changed while running; it tells the Worker the same two
 * things in headers. BNG_LISTENER picks either explicitly.
 *
 * BNG_SHARDS=N spreads the appliances over N such workerd processes (workerd
 * runs an isolate on one thread): appliance i in process i mod N, each with its
 * own state directory, members of other processes reached over loopback
 * (src/fleet/shards.ts).
 *
 * Environment: BNG_FLEET, BNG_PORT_BASE, BNG_DATA_DIR, BNG_HTTP, BNG_FRESH,
 * BNG_LISTENER, BNG_ADMIN_PASSWORD, BNG_BOOTSTRAP_TOKEN, BNG_SCENARIO, BNG_SHARDS, BNG_INSPECTOR_PORT, BNG_CLOCK, BNG_CLOCK_START (see docs/running.md); BNG_BUNDLE_DIR runs an
 * already-built bundle instead of building (launcher testing, CI).
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { quietLoopbackPort } from "./loopback-ports.ts";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { Log, LogLevel, Miniflare } from "miniflare";
import type { MiniflareOptions, WorkerOptions } from "miniflare";
import { stop as stopEsbuild } from "esbuild";
import { buildBundle, loadBundle } from "./build.ts";
import { UNCHANGED_NOTE } from "./bundle-digest.ts";
import { ensureCertificate, servedCertificate, servedTlsFiles, serveTlsFiles } from "./certificates.ts";
import { LaunchError, loadSettings, WORKER } from "./config.ts";
import type { ApplianceListener, Settings } from "./config.ts";
import { describeListenError, listenFrontend } from "./listeners.ts";
import { socketAddress, type PublicSocket } from "./public-sockets.ts";
import { releaseLogStream } from "./stream-release.ts";
import { WIRING_SECRET } from "./wiring.ts";
import { resolveName } from "./resolver.ts";
import { listenInspectorProxy, type InspectorProxy } from "./inspector-proxy.ts";
import type { Frontend } from "./listeners.ts";
import { watchCertificates, type CertificateChange, type CertificateWatch } from "./certificate-watch.ts";
import { banner } from "./banner.ts";
import { answerMemoryQueries } from "./launcher-memory.ts";
import { clearDurableObjects, durableObjectDir, loadFleetSecret, loadUpgradeSigningKey, shardDir } from "./state.ts";
import { loadScenarioFile, runScenarioOnFleet } from "./scenario.ts";

const scriptsDir = path.dirname(fileURLToPath(import.meta.url));
/** The workerd binary Miniflare would run (the `workerd` package's default export, as Miniflare requires it). */
const workerdBinary = (createRequire(import.meta.url)("workerd") as { default: string }).default;
/** Used only if wrangler.toml has no compatibility_date line. */
const FALLBACK_COMPATIBILITY_DATE = "2026-07-01";
/**
 * Durable Object namespace key, as `wrangler dev` would derive it (worker
 * `bngfleet`, class `Appliance`). Miniflare's default would be
 * `<first appliance>-Appliance`, which changes every object's id, and so
 * orphans all persisted state, whenever the fleet file's first entry changes.
 */
const DURABLE_OBJECT_KEY = "bngfleet-Appliance";

/** The workerd processes (one unless BNG_SHARDS), each with its appliances and their listeners. */
interface Shard {
  mf: Miniflare;
  /** workerd's own public sockets again, with other TLS files: its process restarts (BNG_LISTENER=workerd over HTTPS). */
  restart(sockets: ShardSocket[]): Promise<void>;
  sockets: ShardSocket[];
  appliances: ApplianceListener[];
  frontends: Frontend[];
  factoryPairs: { key: string; cert: string }[];
}
/** A public socket workerd serves itself: where, for which appliance, and its TLS files over HTTPS. */
type ShardSocket = { host: string; port: number; appliance: string; tls?: { keyFile: string; certFile: string } };
const shards: Shard[] = [];
const certificateWatches: CertificateWatch[] = [];
const frontends: Frontend[] = [];
const inspectors: InspectorProxy[] = [];
const buildAbort = new AbortController();
let stopping = false;

/** Stops everything this launcher started, then exits 0; a second signal forces exit. */
async function shutdown(signal: string): Promise<void> {
  if (stopping) {
    console.error(`\n${signal} again: exiting without waiting for shutdown`);
    process.exit(1);
  }
  stopping = true;
  console.log(`\n${signal}: stopping the fleet…`);
  buildAbort.abort();
  await Promise.allSettled(certificateWatches.map((w) => w.stop()));
  await Promise.allSettled([...frontends, ...inspectors].map((f) => f.close()));
  const disposed = await Promise.allSettled(shards.map((shard) => shard.mf.dispose()));
  for (const result of disposed) if (result.status === "rejected") console.error(`Miniflare did not stop cleanly: ${(result.reason as Error).message}`);
  exitSoon(0);
}

/**
 * Exits once pending work drains, or after a grace period. Not process.exit()
 * right away: dispose() deletes Miniflare's temporary directory without
 * waiting for it, and exiting at once leaves one miniflare-* dir in /tmp per run.
 */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}

/** Reads compatibility_date and a one-line compatibility_flags array from wrangler.toml, so local runs match deploys. */
async function compatibility(projectDir: string): Promise<{ date: string; flags: string[] }> {
  // A full TOML parser is not a dependency; these two keys are simple scalars/arrays.
  const toml = await readFile(path.join(projectDir, "wrangler.toml"), "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? FALLBACK_COMPATIBILITY_DATE;
  const flagList = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  const flags = [...flagList.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  return { date, flags };
}

/**
 * Loopback ports free now, for the shards' sockets: each process must know the others' before any starts. Below the
 * ephemeral range (scripts/loopback-ports.ts): a released ephemeral port was taken by a client's connection before
 * workerd could bind it, on a machine busy with a soak.
 */
async function freeLoopbackPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await quietLoopbackPort(ports));
  return [...ports];
}

/** The fleet Worker's text bindings; unset options are omitted rather than passed as "". */
function bindingsFor(settings: Settings, fleetSecret: string, upgradePublicKey: string): Record<string, string> {
  const bindings: Record<string, string> = {
    FLEET: JSON.stringify(settings.fleet),
    BNG_PORT_BASE: String(settings.portBase),
    BNG_FLEET_SECRET: fleetSecret,
    // The data dir's development vendor key: packages `npm run upgrade-package` signs are the ones that stage.
    BNG_UPGRADE_PUBLIC_KEY: upgradePublicKey,
    // The Worker runs behind our listeners: it takes the client's address and the
    // appliance from the headers they set, never from CF-Connecting-IP or the
    // hostname (src/http/client-address.ts, src/fleet/listener.ts). BNG_HTTP
    // tells it the listeners' scheme, as it sees plain http:// behind them.
    BNG_LOCAL_FLEET: "1",
    BNG_WIRING_SECRET: WIRING_SECRET,
  };
  if (Object.keys(settings.profiles).length > 0) bindings.BNG_PROFILES = JSON.stringify(settings.profiles);
  if (settings.http) bindings.BNG_HTTP = "1";
  if (settings.adminPassword !== undefined) bindings.BNG_ADMIN_PASSWORD = settings.adminPassword;
  if (settings.bootstrapToken !== undefined) bindings.BNG_BOOTSTRAP_TOKEN = settings.bootstrapToken;
  if (settings.manualClock) bindings.BNG_CLOCK = "manual";
  if (settings.clockStart !== undefined) bindings.BNG_CLOCK_START = settings.clockStart;
  return bindings;
}

/** Fails fast, naming the appliance, when its public port is taken (workerd would say only "address in use"). */
async function checkPortFree(a: ApplianceListener): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const server = createServer();
    server.once("error", (error) => reject(describeListenError(error, a.name, a.address, a.port)));
    server.listen(a.port, a.address, () => server.close(() => resolve()));
  });
}

/** Brings the fleet up and prints the banner. */
async function main(): Promise<void> {
  answerMemoryQueries();
  const settings = await loadSettings();
  // Read by Miniflare each time it writes workerd's configuration (scripts/config.ts, `v8Flags`).
  process.env.MINIFLARE_WORKERD_V8_FLAGS = settings.v8Flags;
  const { appliances, dataDir, http } = settings;
  const scenarioPath = process.env.BNG_SCENARIO ? path.resolve(process.env.BNG_SCENARIO) : null;
  const scenario = scenarioPath ? await loadScenarioFile(scenarioPath) : null;

  if (settings.fresh) {
    await clearDurableObjects(dataDir);
    console.log(`BNG_FRESH: cleared Durable Object state in ${durableObjectDir(dataDir)}`);
  }
  const { secret: fleetSecret, created: secretCreated } = await loadFleetSecret(dataDir);
  if (secretCreated) console.log(`Generated a fleet secret in ${path.join(dataDir, "fleet-secret")}`);
  const upgradeKey = await loadUpgradeSigningKey(dataDir);
  if (upgradeKey.created) console.log(`Generated an upgrade signing key in ${upgradeKey.file} (npm run upgrade-package signs with it)`);

  // The wrangler build runs in a child process, so start it now and do the
  // certificate and port work while it runs.
  const bundleDir = process.env.BNG_BUNDLE_DIR
    ? path.resolve(process.env.BNG_BUNDLE_DIR)
    : path.join(settings.projectDir, ".bngfleet", "build");
  // Once built, esbuild's service process (the web UI's build, in this process) is stopped: it would otherwise ping
  // the launcher every second for the fleet's life, and nothing else here uses it. (Not in buildUi itself: under
  // vitest the same service transforms the tests.)
  const built = process.env.BNG_BUNDLE_DIR
    ? Promise.resolve()
    : buildBundle(settings.projectDir, bundleDir, buildAbort.signal)
      .then((outcome) => {
        if (outcome === "unchanged") console.log(`${UNCHANGED_NOTE} since ${path.relative(process.cwd(), bundleDir) || "."} was built; not built again`);
      })
      .finally(stopEsbuild);
  // Without this, a rejection while we are still busy below would count as unhandled.
  built.catch(() => {});

  // Process k's workerd inspector port, known once it is up; its proxy is bound before (a busy port fails fast).
  const runtimeInspectorPorts = Array.from({ length: settings.shards }, () => {
    let resolve!: (port: number) => void;
    // The executor runs at once, so `resolve` is set by the time the object is made.
    return { promise: new Promise<number>((r) => (resolve = r)), resolve };
  });
  // The self-signed pairs, served whenever an appliance has no configured certificate (HTTPS only): appliance i's at i.
  const factoryPairs: ({ key: string; cert: string } | null)[] = [];
  const certDir = path.join(dataDir, "certs");
  try {
    const pairs = http
      ? appliances.map(() => null)
      : await Promise.all(appliances.map((a) => ensureCertificate(certDir, { name: a.name, address: a.address, hostname: a.hostname })));
    pairs.forEach((pair, i) => {
      factoryPairs.push(pair);
      if (pair?.created) console.log(`Generated a TLS certificate for ${appliances[i]!.name} (${pair.reason}) in ${certDir}`);
    });
    // Bind the public ports now: a busy port fails fast, and (for the relay) nothing can
    // grab a port between our check and Miniflare coming up.
    for (const [i, a] of appliances.entries()) {
      const pair = pairs[i];
      if (settings.listener === "workerd") await checkPortFree(a);
      else frontends.push(await listenFrontend({ name: a.name, address: a.address, port: a.port, hostname: a.hostname, ...(pair ? { key: pair.key, cert: pair.cert } : {}) }));
    }
    // BNG_INSPECTOR_PORT: our proxy on each process's port, in front of workerd's inspector on a random loopback port.
    if (settings.inspectorPort !== undefined) {
      for (let k = 0; k < settings.shards; k++) inspectors.push(await listenInspectorProxy(settings.inspectorPort + k, runtimeInspectorPorts[k]!.promise));
    }
  } catch (error) {
    buildAbort.abort();
    throw error;
  }

  await built;
  const modules = await loadBundle(bundleDir);
  const compat = await compatibility(settings.projectDir);

  // Shard k serves appliances k, k + n, …: its own workerd and state directory. Several must know each other's
  // sockets from the start (the fleet proxy between them). One process with public sockets of its own needs a
  // fixed one too: Miniflare names every direct socket alike, and on a restart would give an any-port socket
  // the port it last saw under that name, perhaps a public one.
  const n = settings.shards;
  const ports = n === 1 && settings.listener === "relay" ? [0] : await freeLoopbackPorts(n);
  for (let k = 0; k < n; k++) {
    const members = appliances.flatMap((a, i) => (i % n === k ? [i] : []));
    const elsewhere = Object.fromEntries(appliances.flatMap((a, i) => (i % n === k ? [] : [[a.name, `http://127.0.0.1:${ports[i % n]}`]])));
    const bindings = bindingsFor(settings, fleetSecret, upgradeKey.publicPem);
    if (n > 1) bindings.BNG_SHARD_PEERS = JSON.stringify(elsewhere);
    const sockets: ShardSocket[] = settings.listener === "relay" ? [] : await Promise.all(members.map(async (i) => {
      const a = appliances[i]!;
      return { host: a.address, port: a.port, appliance: a.name, ...(http ? {} : { tls: await servedTlsFiles(certDir, a.name) }) };
    }));
    const started = startShard({ modules, bundleDir, compat, bindings, persist: shardDir(dataDir, k, n), port: ports[k]!, inspector: settings.inspectorPort !== undefined, sockets });
    shards.push({
      ...started,
      sockets,
      appliances: members.map((i) => appliances[i]!),
      frontends: settings.listener === "workerd" ? [] : members.map((i) => frontends[i]!),
      factoryPairs: members.flatMap((i) => factoryPairs[i] ?? []),
    });
  }

  for (const [k, shard] of shards.entries()) {
    await shard.mf.ready;
    if (settings.inspectorPort !== undefined) runtimeInspectorPorts[k]!.resolve(Number((await shard.mf.getInspectorURL()).port));
    const direct = await shard.mf.unsafeGetDirectURL(WORKER);
    if (!http) {
      // Certificates first, targets after: no client reaches an appliance (and no
      // shutdown can start) while a call through Miniflare's proxy is in flight.
      // The appliance's configured certificate (uploaded, or issued by ACME) replaces the
      // self-signed one; the watch then follows changes: the relay without a restart, workerd's own
      // sockets by restarting their process (it reads a keypair only at start).
      const serve = settings.listener === "relay"
        ? (changes: CertificateChange[]) => changes.forEach(({ index, pair }) => shard.frontends[index]!.useCertificate(pair.key, pair.cert))
        : async (changes: CertificateChange[]) => {
          for (const { index, pair, configured } of changes) await serveTlsFiles(certDir, shard.appliances[index]!.name, configured ? pair : null);
          console.log(`Restarting workerd (${shard.appliances.map((a) => a.name).join(", ")}): its sockets read a certificate only at start`);
          await shard.restart(await Promise.all(shard.sockets.map(async (socket) => ({ ...socket, tls: await servedTlsFiles(certDir, socket.appliance) }))));
        };
      const serving = settings.listener === "relay" ? undefined : await Promise.all(shard.appliances.map((a) => servedCertificate(certDir, a.name)));
      serving?.forEach((cert, i) => cert !== null && console.log(`${shard.appliances[i]!.name} serves its configured certificate`));
      // Its loopback socket: the relay's alone (any port), or the first of several, whose port is fixed (Miniflare names them alike).
      const loopback = ports[k] === 0 ? direct.origin : `http://127.0.0.1:${ports[k]}`;
      certificateWatches.push(await watchCertificates(shard.mf, WORKER, shard.appliances, serve, shard.factoryPairs, { origin: loopback, fleetSecret }, serving));
    }
    for (const [i, frontend] of shard.frontends.entries()) {
      frontend.releaseStreamsWith((handle) => releaseLogStream(shard.mf, WORKER, shard.appliances[i]!.name, handle));
      frontend.setTarget(direct.hostname, Number(direct.port));
    }
  }

  if (scenario && scenarioPath && !stopping) {
    for (const shard of shards) await runScenarioOnFleet(shard.mf, WORKER, shard.appliances.map((a) => a.name), scenario, path.relative(process.cwd(), scenarioPath));
  }
  if (stopping) return;
  console.log(banner(settings, performance.now() / 1000));
}

/** One workerd process running the fleet Worker, its objects persisted under `persist`, its socket on loopback `port` (0: any). */
function startShard(options: {
  modules: Awaited<ReturnType<typeof loadBundle>>;
  bundleDir: string;
  compat: { date: string; flags: string[] };
  bindings: Record<string, string>;
  persist: string;
  port: number;
  /** workerd's V8 inspector on a random loopback port, for our proxy alone (scripts/inspector-proxy.ts). */
  inspector: boolean;
  /** The appliances whose public port workerd serves itself (BNG_LISTENER=workerd); none behind the relay. */
  sockets: ShardSocket[];
}): { mf: Miniflare; restart(sockets: ShardSocket[]): Promise<void> } {
  const miniflareOptions = (sockets: ShardSocket[]): MiniflareOptions => {
    const worker: WorkerOptions = {
      name: WORKER,
      modules: options.modules,
      modulesRoot: options.bundleDir,
      compatibilityDate: options.compat.date,
      compatibilityFlags: options.compat.flags,
      bindings: options.bindings,
      serviceBindings: { BNG_RESOLVER: resolveName },
      // No eviction: an appliance's 10 s alarm keeps a deployed object alive (Cloudflare evicts after about a minute
      // idle), but workerd evicts after 10 s, so every appliance was reopened, its snapshot restored, at each alarm.
      durableObjects: { Appliance: { className: "Appliance", useSQLite: true, unsafeUniqueKey: DURABLE_OBJECT_KEY, unsafePreventEviction: true } },
      // A loopback port for the relay and the other shards, and each public socket workerd serves itself.
      unsafeDirectSockets: [{ host: "127.0.0.1", port: options.port }, ...sockets.map(({ host, port }) => ({ host, port }))],
    };
    // Miniflare writes those public sockets as it writes every direct socket; scripts/workerd.sh rewrites them
    // (scripts/public-sockets.ts) on the configuration's way to workerd. Miniflare reads the path at each start.
    const publicSockets: PublicSocket[] = sockets.map((s) => ({ address: socketAddress(s.host, s.port), appliance: s.appliance, ...(s.tls ? { tls: s.tls } : {}) }));
    if (publicSockets.length > 0) process.env.MINIFLARE_WORKERD_PATH = path.join(scriptsDir, "workerd.sh");
    return {
      workers: [worker],
      durableObjectsPersist: options.persist,
      // INFO keeps workerd's warnings and the Workers' console output visible
      // without Miniflare's debug chatter.
      log: new Log(LogLevel.INFO),
      // No "Ready on <entry URL>" line: that entry socket is not an appliance.
      logRequests: false,
      // Do not try to download the Request.cf data: there is no network, and the
      // attempt costs a 3 s timeout and a warning on every start.
      cf: false,
      // BNG_INSPECTOR_PORT: workerd's V8 inspector on a port the OS picks (port 0), reached only through our proxy.
      ...(options.inspector ? { inspectorPort: 0 } : {}),
      ...(publicSockets.length === 0 ? {} : {
        unsafeRuntimeEnv: {
          BNG_PUBLIC_SOCKETS: JSON.stringify(publicSockets),
          BNG_PUBLIC_SOCKETS_SCRIPT: path.join(scriptsDir, "public-sockets.ts"),
          BNG_NODE: process.execPath,
          BNG_WORKERD: workerdBinary,
          BNG_WIRING_SECRET: WIRING_SECRET,
        },
      }),
    };
  };

  const signalListeners = { SIGINT: process.listeners("SIGINT"), SIGTERM: process.listeners("SIGTERM") };
  const mf = new Miniflare(miniflareOptions(options.sockets));
  // Miniflare's exit hook handles SIGINT/SIGTERM by killing workerd and
  // exiting 130/143 on the spot, before our TLS servers close or dispose()
  // runs. Remove its signal listeners (its "exit" hook stays as a safety net).
  for (const name of ["SIGINT", "SIGTERM"] as const) {
    for (const listener of process.listeners(name)) {
      if (!signalListeners[name].includes(listener)) process.removeListener(name, listener);
    }
  }
  return { mf, restart: (sockets) => mf.setOptions(miniflareOptions(sockets)) };
}

process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

main().catch(async (error: unknown) => {
  // An interrupted start-up fails in whatever step it was in; shutdown() owns the exit then.
  if (stopping) return;
  stopping = true;
  if (error instanceof LaunchError) console.error(`bngfleet: ${error.message}`);
  else console.error("bngfleet: start-up failed:", error);
  await Promise.allSettled(certificateWatches.map((w) => w.stop()));
  await Promise.allSettled([...frontends, ...inspectors].map((f) => f.close()));
  await Promise.allSettled(shards.map((shard) => shard.mf.dispose()));
  exitSoon(1);
});
