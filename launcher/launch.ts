/**
 * Runs a whole fleet locally, one listener per appliance: what `bngfleet start` (and so `npm start` and
 * startFleet()) does once its settings are resolved.
 *
 * The Worker bundle (built exactly as `wrangler deploy` builds it: the package's prebuilt one, or the repository's,
 * built on demand) runs under Miniflare (not `wrangler dev`, which takes far longer to start): one Worker for the
 * whole fleet, as deployed, with the SQLite-backed `Appliance` Durable Object namespace and one direct socket, so
 * start-up does not grow by a Worker per appliance. With plain HTTP workerd serves each appliance's port itself
 * (launcher/public-sockets.ts): the socket names its appliance (the hostname's job when deployed) and workerd the
 * client's address, with no other process on the request path. Over HTTPS (the default) a Node listener per
 * appliance relays to the Worker's socket (launcher/listeners.ts), with a per-appliance self-signed certificate or
 * the appliance's own, changed while running; it tells the Worker the same two things in headers. `listener` picks
 * either explicitly.
 *
 * `shards` spreads the appliances over N such workerd processes (workerd runs an isolate on one thread): appliance
 * i in process i mod N, each with its own state directory, members of other processes reached over loopback
 * (src/fleet/shards.ts).
 */
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { createRequire } from "node:module";
import { Writable } from "node:stream";
import type { Miniflare, MiniflareOptions, WorkerOptions } from "miniflare";
import { bundleModules, type BundleModule } from "./bundle.ts";
import { ensureCertificate, servedCertificate, servedTlsFiles, serveTlsFiles } from "./certificates.ts";
import { LaunchError, WORKER } from "./config.ts";
import { browserOrigin } from "../fleet-config/schema.ts";
import type { ApplianceListener, Settings } from "./config.ts";
import { describeListenError, listenFrontend } from "./listeners.ts";
import type { Frontend } from "./listeners.ts";
import { quietLoopbackPort } from "./loopback-ports.ts";
import { socketAddress, type PublicSocket } from "./public-sockets.ts";
import { modulesByReference } from "./module-sources.ts";
import { WIRING_SECRET } from "./wiring.ts";
import { resolveName } from "./resolver.ts";
import { releaseLogStream } from "./stream-release.ts";
import { listenInspectorProxy, type InspectorProxy } from "./inspector-proxy.ts";
import { watchCertificates, type CertificateChange, type CertificateWatch } from "./certificate-watch.ts";
import {
  clearDurableObjects,
  durableObjectDir,
  loadBootstrapToken,
  loadFleetSecret,
  loadUpgradeSigningKey,
  shardDir,
} from "./state.ts";
import { loadScenarioFile, runScenarioOnFleet } from "./scenario.ts";
import { untilAnswering } from "./readiness.ts";

/** Used only if wrangler.toml has no compatibility_date line. */
const FALLBACK_COMPATIBILITY_DATE = "2026-07-01";
/**
 * Durable Object namespace key, as `wrangler dev` would derive it (worker
 * `bngfleet`, class `Appliance`). Miniflare's default would be
 * `<first appliance>-Appliance`, which changes every object's id, and so
 * orphans all persisted state, whenever the fleet file's first entry changes.
 */
const DURABLE_OBJECT_KEY = "bngfleet-Appliance";

/**
 * Where the Worker's code comes from: a folder holding a `wrangler deploy --dry-run` bundle (the package ships one;
 * BNG_BUNDLE_DIR names another), and, in the repository, how to build it first if its sources changed.
 */
export type WorkerSource = {
  dir: string;
  /** Builds the bundle into `dir` (skipping the work when nothing it is made from changed); aborted by `signal`. */
  build?: (signal: AbortSignal, say: Say) => Promise<void>;
  /** The files beside the bundle that the public sockets need: launcher/workerd.sh and the configuration rewriter. */
  workerdWrapper: { script: string; rewriter: string };
  /** wrangler.toml, whose compatibility date and flags the local runtime takes, as a deploy does. */
  wranglerToml: string;
};

/** A fleet that answers: where each appliance is, the super-user token, and how to stop it all. */
export interface RunningFleet {
  /** Each appliance: its API origin (`url`, an address any client resolves) and its web UI for a browser (`webUi`). */
  appliances: { name: string; url: string; webUi: string }[];
  /** The bootstrap token every appliance accepts as the super-user token `bootstrap`. */
  token: string;
  /** Where the token was made and is kept, when the launcher made it (undefined when it was given). */
  tokenFile: string | undefined;
  dataDir: string;
  /** Ends every process and listener this launch started; resolves once they are gone. Safe to call twice. */
  stop(): Promise<void>;
}

/** Lines for a person watching the start (progress, generated files); the CLI prints them. */
export type Say = (line: string) => void;

/**
 * Miniflare, loaded when a fleet starts (not for `bngfleet --help`) and by require(): its 4 MB CommonJS entry,
 * imported as ESM, is first parsed whole by Node's module-syntax detection, about 0.1 s of a start's CPU here.
 */
const miniflare = (): typeof import("miniflare") =>
  createRequire(import.meta.url)("miniflare") as typeof import("miniflare");

/**
 * Where Miniflare's log (the Workers' console output among it) and workerd's own output go: Miniflare's defaults
 * (stdout and stderr), or everything on stderr, for a caller whose stdout is a pipeline's (`bngfleet start --json`).
 */
export type RuntimeOutput = "default" | "stderr";

/** The workerd processes (one unless `shards`), each with its appliances and their listeners. */
interface Shard {
  mf: Miniflare;
  /** workerd's own public sockets again, with other TLS files: its process restarts (--listener workerd over HTTPS). */
  restart(sockets: ShardSocket[]): Promise<void>;
  sockets: ShardSocket[];
  appliances: ApplianceListener[];
  frontends: Frontend[];
  factoryPairs: { key: string; cert: string }[];
}
/** A public socket workerd serves itself: where, for which appliance, and its TLS files over HTTPS. */
type ShardSocket = { host: string; port: number; appliance: string; tls?: { keyFile: string; certFile: string } };

/**
 * Starts the fleet `settings` describe and resolves once every appliance answers `GET /api/v1/system/health` on its
 * public port. Rejects with a LaunchError the user can act on (a busy port, a refused scenario…) after stopping
 * whatever it had started; `signal` interrupts a start the same way.
 */
export async function launch(
  settings: Settings,
  options: { worker: WorkerSource; say: Say; signal?: AbortSignal; runtimeOutput?: RuntimeOutput },
): Promise<RunningFleet> {
  const resources = new Resources();
  const abort = new AbortController();
  const onAbort = () => abort.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) abort.abort();
  try {
    const running = await start(settings, options, abort.signal, resources);
    return { ...running, stop: () => resources.stop() };
  } catch (error) {
    abort.abort();
    // What failed is what the caller hears; a stop that then fails too adds nothing to it.
    await resources.stop().catch(() => {});
    throw abort.signal.aborted && !(error instanceof LaunchError) ? new LaunchError("Start interrupted") : error;
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** Everything a launch holds open, stopped in the order that lets each part finish cleanly. */
class Resources {
  shards: Shard[] = [];
  certificateWatches: CertificateWatch[] = [];
  frontends: Frontend[] = [];
  inspectors: InspectorProxy[] = [];
  #stopped: Promise<void> | undefined;

  stop(): Promise<void> {
    this.#stopped ??= (async () => {
      await Promise.allSettled(this.certificateWatches.map((w) => w.stop()));
      await Promise.allSettled([...this.frontends, ...this.inspectors].map((f) => f.close()));
      const disposed = await Promise.allSettled(this.shards.map((shard) => shard.mf.dispose()));
      for (const result of disposed) {
        if (result.status === "rejected")
          throw new LaunchError(`Miniflare did not stop cleanly: ${(result.reason as Error).message}`);
      }
    })();
    return this.#stopped;
  }
}

/** Fails a start that was interrupted while it waited. */
function checkNotAborted(signal: AbortSignal): void {
  if (signal.aborted) throw new LaunchError("Start interrupted");
}

async function start(
  settings: Settings,
  { worker, say, runtimeOutput = "default" }: { worker: WorkerSource; say: Say; runtimeOutput?: RuntimeOutput },
  signal: AbortSignal,
  resources: Resources,
) {
  // Read by Miniflare each time it writes workerd's configuration (launcher/config.ts, `v8Flags`).
  process.env.MINIFLARE_WORKERD_V8_FLAGS = settings.v8Flags;
  const { appliances, dataDir, http } = settings;
  const scenario = settings.scenario ? await loadScenarioFile(settings.scenario.path, settings.scenario.label) : null;

  if (settings.fresh) {
    await clearDurableObjects(dataDir);
    say(`Fresh start: cleared Durable Object state in ${durableObjectDir(dataDir)}`);
  }
  const { secret: fleetSecret, created: secretCreated } = await loadFleetSecret(dataDir);
  if (secretCreated) say(`Generated a fleet secret in ${path.join(dataDir, "fleet-secret")}`);
  const upgradeKey = await loadUpgradeSigningKey(dataDir);
  if (upgradeKey.created)
    say(`Generated an upgrade signing key in ${upgradeKey.file} (bngfleet upgrade-package signs with it)`);
  const made = settings.bootstrapToken === undefined ? await loadBootstrapToken(dataDir) : undefined;
  if (made?.created) say(`Generated a bootstrap token in ${made.file}`);
  const token = settings.bootstrapToken ?? made!.token;

  // A build runs in a child process, so start it now and do the certificate and port work while it runs.
  const built = worker.build ? worker.build(signal, say) : Promise.resolve();
  // Without this, a rejection while we are still busy below would count as unhandled.
  built.catch(() => {});

  // Process k's workerd inspector port, known once it is up; its proxy is bound before (a busy port fails fast).
  const runtimeInspectorPorts = Array.from({ length: settings.shards }, () => {
    let resolve!: (port: number) => void;
    // The executor runs at once, so `resolve` is set by the time the object is made.
    return { promise: new Promise<number>((r) => (resolve = r)), resolve };
  });
  // The self-signed pairs, served whenever an appliance has no configured certificate (HTTPS only): appliance i's at i.
  const certDir = path.join(dataDir, "certs");
  const pairs = http
    ? appliances.map(() => null)
    : await Promise.all(
        appliances.map((a) => ensureCertificate(certDir, { name: a.name, address: a.address, hostname: a.hostname })),
      );
  pairs.forEach((pair, i) => {
    if (pair?.created) say(`Generated a TLS certificate for ${appliances[i]!.name} (${pair.reason}) in ${certDir}`);
  });
  // Bind the public ports now: a busy port fails fast, and (for the relay) nothing can
  // grab a port between our check and Miniflare coming up.
  for (const [i, a] of appliances.entries()) {
    checkNotAborted(signal);
    const pair = pairs[i];
    if (settings.listener === "workerd") await checkPortFree(a);
    else
      resources.frontends.push(
        await listenFrontend({
          name: a.name,
          address: a.address,
          port: a.port,
          hostname: a.hostname,
          ...(pair ? { key: pair.key, cert: pair.cert } : {}),
        }),
      );
  }
  // Our proxy on each process's inspector port, in front of workerd's inspector on a random loopback port.
  if (settings.inspectorPort !== undefined) {
    for (let k = 0; k < settings.shards; k++)
      resources.inspectors.push(
        await listenInspectorProxy(settings.inspectorPort + k, runtimeInspectorPorts[k]!.promise),
      );
  }

  await built;
  checkNotAborted(signal);
  const modules = await bundleModules(worker.dir);
  const compat = await compatibility(worker.wranglerToml);

  // Shard k serves appliances k, k + n, …: its own workerd and state directory. Several must know each other's
  // sockets from the start (the fleet proxy between them). One process with public sockets of its own needs a
  // fixed one too: Miniflare names every direct socket alike, and on a restart would give an any-port socket
  // the port it last saw under that name, perhaps a public one.
  const n = settings.shards;
  say(
    `Starting workerd${n > 1 ? ` (${n} processes)` : ""} for ${appliances.length} ` +
      `appliance${appliances.length === 1 ? "" : "s"}…`,
  );
  const ports = n === 1 && settings.listener === "relay" ? [0] : await freeLoopbackPorts(n);
  for (let k = 0; k < n; k++) {
    const members = appliances.flatMap((a, i) => (i % n === k ? [i] : []));
    const elsewhere = Object.fromEntries(
      appliances.flatMap((a, i) => (i % n === k ? [] : [[a.name, `http://127.0.0.1:${ports[i % n]}`]])),
    );
    const bindings = bindingsFor(settings, fleetSecret, upgradeKey.publicPem, token);
    if (n > 1) bindings.BNG_SHARD_PEERS = JSON.stringify(elsewhere);
    const sockets: ShardSocket[] =
      settings.listener === "relay"
        ? []
        : await Promise.all(
            members.map(async (i) => {
              const a = appliances[i]!;
              return {
                host: a.address,
                port: a.port,
                appliance: a.name,
                ...(http ? {} : { tls: await servedTlsFiles(certDir, a.name) }),
              };
            }),
          );
    const started = startShard({
      modules,
      bundleDir: worker.dir,
      wrapper: worker.workerdWrapper,
      compat,
      bindings,
      persist: shardDir(dataDir, k, n),
      port: ports[k]!,
      inspector: settings.inspectorPort !== undefined,
      sockets,
      output: runtimeOutput,
    });
    resources.shards.push({
      ...started,
      sockets,
      appliances: members.map((i) => appliances[i]!),
      frontends: settings.listener === "workerd" ? [] : members.map((i) => resources.frontends[i]!),
      factoryPairs: members.flatMap((i) => pairs[i] ?? []),
    });
  }

  for (const [k, shard] of resources.shards.entries()) {
    await shard.mf.ready;
    checkNotAborted(signal);
    if (settings.inspectorPort !== undefined)
      runtimeInspectorPorts[k]!.resolve(Number((await shard.mf.getInspectorURL()).port));
    const direct = await shard.mf.unsafeGetDirectURL(WORKER);
    if (!http) {
      // Certificates first, targets after: no client reaches an appliance (and no
      // shutdown can start) while a call through Miniflare's proxy is in flight.
      // The appliance's configured certificate (uploaded, or issued by ACME) replaces the
      // self-signed one; the watch then follows changes: the relay without a restart, workerd's own
      // sockets by restarting their process (it reads a keypair only at start).
      const serve =
        settings.listener === "relay"
          ? (changes: CertificateChange[]) =>
              changes.forEach(({ index, pair }) => shard.frontends[index]!.useCertificate(pair.key, pair.cert))
          : async (changes: CertificateChange[]) => {
              for (const { index, pair, configured } of changes)
                await serveTlsFiles(certDir, shard.appliances[index]!.name, configured ? pair : null);
              say(
                `Restarting workerd (${shard.appliances.map((a) => a.name).join(", ")}): its ` +
                  `sockets read a certificate only at start`,
              );
              await shard.restart(
                await Promise.all(
                  shard.sockets.map(async (socket) => ({
                    ...socket,
                    tls: await servedTlsFiles(certDir, socket.appliance),
                  })),
                ),
              );
            };
      const serving =
        settings.listener === "relay"
          ? undefined
          : await Promise.all(shard.appliances.map((a) => servedCertificate(certDir, a.name)));
      serving?.forEach(
        (cert, i) => cert !== null && say(`${shard.appliances[i]!.name} serves its configured certificate`),
      );
      // Its loopback socket: the relay's alone (any port), or the first of several, whose port is fixed (Miniflare
      // names them alike).
      const loopback = ports[k] === 0 ? direct.origin : `http://127.0.0.1:${ports[k]}`;
      resources.certificateWatches.push(
        await watchCertificates(
          shard.mf,
          WORKER,
          shard.appliances,
          serve,
          shard.factoryPairs,
          { origin: loopback, fleetSecret },
          serving,
          say,
        ),
      );
    }
    for (const [i, frontend] of shard.frontends.entries()) {
      frontend.releaseStreamsWith((handle) => releaseLogStream(shard.mf, WORKER, shard.appliances[i]!.name, handle));
      frontend.setTarget(direct.hostname, Number(direct.port));
    }
  }

  if (scenario && settings.scenario) {
    const label = path.relative(process.cwd(), settings.scenario.path);
    for (const shard of resources.shards) {
      checkNotAborted(signal);
      for (const line of await runScenarioOnFleet(
        shard.mf,
        WORKER,
        shard.appliances.map((a) => a.name),
        scenario,
        label,
        dataDir,
      ))
        say(line);
    }
  }
  // Ready means answering: each appliance's object opened and its health read through its own public port.
  say(`Waiting for every appliance to answer…`);
  await untilAnswering(
    appliances.map((a) => a.origin),
    signal,
    (answering) => say(`  ${answering} of ${appliances.length} answering`),
  );
  return {
    appliances: appliances.map((a, i) => ({
      name: a.name,
      url: a.origin,
      // At its own *.localhost name where it has one, so a browser keeps each appliance's session cookie apart.
      webUi: `${browserOrigin(settings.fleet, settings.fleet.appliances[i]!, { portBase: settings.portBase, http })}/`,
    })),
    token,
    tokenFile: made?.file,
    dataDir,
  };
}

/**
 * Reads compatibility_date and a one-line compatibility_flags array from wrangler.toml, so local runs match deploys.
 */
async function compatibility(wranglerToml: string): Promise<{ date: string; flags: string[] }> {
  // A full TOML parser is not a dependency; these two keys are simple scalars/arrays.
  const toml = await readFile(wranglerToml, "utf8");
  const date = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? FALLBACK_COMPATIBILITY_DATE;
  const flagList = /^compatibility_flags\s*=\s*\[([^\]]*)\]/m.exec(toml)?.[1] ?? "";
  const flags = [...flagList.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
  return { date, flags };
}

/**
 * Loopback ports free now, for the shards' sockets: each process must know the others' before any starts. Below the
 * ephemeral range (launcher/loopback-ports.ts): a released ephemeral port was taken by a client's connection before
 * workerd could bind it, on a machine busy with a soak.
 */
async function freeLoopbackPorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await quietLoopbackPort(ports));
  return [...ports];
}

/** The fleet Worker's text bindings; unset options are omitted rather than passed as "". */
function bindingsFor(
  settings: Settings,
  fleetSecret: string,
  upgradePublicKey: string,
  bootstrapToken: string,
): Record<string, string> {
  const bindings: Record<string, string> = {
    FLEET: JSON.stringify(settings.fleet),
    BNG_PORT_BASE: String(settings.portBase),
    BNG_FLEET_SECRET: fleetSecret,
    // The data dir's development vendor key: packages `bngfleet upgrade-package` signs are the ones that stage.
    BNG_UPGRADE_PUBLIC_KEY: upgradePublicKey,
    // Accepted by every appliance as the super-user token `bootstrap` (stored hashed).
    BNG_BOOTSTRAP_TOKEN: bootstrapToken,
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

/** The workerd binary Miniflare runs: the one its own `workerd` dependency provides. */
function workerdBinary(): string {
  const fromMiniflare = createRequire(createRequire(import.meta.url).resolve("miniflare"));
  return (fromMiniflare("workerd") as { default: string }).default;
}

/**
 * One workerd process running the fleet Worker, its objects persisted under `persist`, its socket on loopback `port`
 * (0: any).
 */
function startShard(options: {
  modules: BundleModule[];
  bundleDir: string;
  wrapper: WorkerSource["workerdWrapper"];
  compat: { date: string; flags: string[] };
  bindings: Record<string, string>;
  persist: string;
  port: number;
  /** workerd's V8 inspector on a random loopback port, for our proxy alone (launcher/inspector-proxy.ts). */
  inspector: boolean;
  /** The appliances whose public port workerd serves itself (--listener workerd); none behind the relay. */
  sockets: ShardSocket[];
  output: RuntimeOutput;
}): { mf: Miniflare; restart(sockets: ShardSocket[]): Promise<void> } {
  const { Log, LogLevel, Miniflare } = miniflare();
  // The sources go into workerd's configuration by the rewrite, not through Miniflare (launcher/module-sources.ts).
  const byReference = modulesByReference(options.modules, options.bundleDir);
  const miniflareOptions = (sockets: ShardSocket[]): MiniflareOptions => {
    const worker: WorkerOptions = {
      name: WORKER,
      modules: byReference.modules,
      modulesRoot: options.bundleDir,
      compatibilityDate: options.compat.date,
      compatibilityFlags: options.compat.flags,
      bindings: options.bindings,
      serviceBindings: { BNG_RESOLVER: resolveName },
      // No eviction: an appliance's 10 s alarm keeps a deployed object alive (Cloudflare evicts after about a minute
      // idle), but workerd evicts after 10 s, so every appliance was reopened, its snapshot restored, at each alarm.
      durableObjects: {
        Appliance: {
          className: "Appliance",
          useSQLite: true,
          unsafeUniqueKey: DURABLE_OBJECT_KEY,
          unsafePreventEviction: true,
        },
      },
      // A loopback port for the relay and the other shards, and each public socket workerd serves itself.
      unsafeDirectSockets: [
        { host: "127.0.0.1", port: options.port },
        ...sockets.map(({ host, port }) => ({ host, port })),
      ],
    };
    // Miniflare writes those public sockets as it writes every direct socket, and each module's source as a
    // placeholder; launcher/workerd.sh rewrites both (launcher/workerd-config.ts) on the configuration's way to
    // workerd. Miniflare reads the path at each start.
    const publicSockets: PublicSocket[] = sockets.map((s) => ({
      address: socketAddress(s.host, s.port),
      appliance: s.appliance,
      ...(s.tls ? { tls: s.tls } : {}),
    }));
    process.env.MINIFLARE_WORKERD_PATH = options.wrapper.script;
    return {
      workers: [worker],
      durableObjectsPersist: options.persist,
      // INFO keeps workerd's warnings and the Workers' console output visible
      // without Miniflare's debug chatter.
      log: options.output === "stderr" ? new (stderrLog(Log))(LogLevel.INFO) : new Log(LogLevel.INFO),
      ...(options.output === "stderr" ? { handleRuntimeStdio: toStderr } : {}),
      // No "Ready on <entry URL>" line: that entry socket is not an appliance.
      logRequests: false,
      // Do not try to download the Request.cf data: there is no network, and the
      // attempt costs a 3 s timeout and a warning on every start.
      cf: false,
      // workerd's V8 inspector on a port the OS picks (port 0), reached only through our proxy.
      ...(options.inspector ? { inspectorPort: 0 } : {}),
      unsafeRuntimeEnv: {
        BNG_MODULE_FILES: JSON.stringify(byReference.files),
        BNG_PUBLIC_SOCKETS: JSON.stringify(publicSockets),
        BNG_WORKERD_CONFIG_SCRIPT: options.wrapper.rewriter,
        BNG_NODE: process.execPath,
        BNG_WORKERD: workerdBinary(),
        BNG_WIRING_SECRET: WIRING_SECRET,
      },
    };
  };

  const signalListeners = { SIGINT: process.listeners("SIGINT"), SIGTERM: process.listeners("SIGTERM") };
  const mf = new Miniflare(miniflareOptions(options.sockets));
  // Miniflare's exit hook handles SIGINT/SIGTERM by killing workerd and
  // exiting 130/143 on the spot, before our TLS servers close or dispose()
  // runs. Remove its signal listeners (its "exit" hook stays as a safety net):
  // the launcher's owner (the CLI) stops the fleet on those signals itself.
  for (const name of ["SIGINT", "SIGTERM"] as const) {
    for (const listener of process.listeners(name)) {
      if (!signalListeners[name].includes(listener)) process.removeListener(name, listener);
    }
  }
  return { mf, restart: (sockets) => mf.setOptions(miniflareOptions(sockets)) };
}

/** Miniflare's log class writing to stderr. */
const stderrLog = (Log: typeof import("miniflare").Log) =>
  class StderrLog extends Log {
    override log(message: string): void {
      process.stderr.write(message + "\n");
    }
  };

/** workerd's own output on stderr. */
function toStderr(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream): void {
  const sink = () =>
    new Writable({ write: (chunk, _encoding, done) => void process.stderr.write(chunk, () => done()) });
  stdout.pipe(sink());
  stderr.pipe(sink());
}
