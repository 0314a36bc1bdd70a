/**
 * The Worker's bindings. Everything but `Appliance` is optional text; `npm start` sets them for its one Worker (see
 * docs/running.md).
 */
import type { Outcome } from "./schemas/outcome.ts";
import type { PortAnswer, PortCall } from "./schemas/operation.ts";
import type { ScenarioRunResult } from "./schemas/scenario.ts";

/**
 * What a Worker and the local launcher may call on an appliance's object: its RPC surface, declared here beside the
 * binding so the Worker types its stubs without importing the object (durable-objects/appliance.ts implements it).
 */
export interface ApplianceRpc extends Rpc.DurableObjectBranded {
  /** A request's one call: authorizes the caller for the operation, then runs its port (src/http/port.ts). */
  call(call: PortCall): Promise<PortAnswer>;
  /**
   * The configured web UI certificate and key, for the local launcher's TLS listeners; null while the factory one
   * serves.
   */
  webUiCertificate(): { certificatePem: string; privateKeyPem: string } | null;
  /**
   * Runs a scenario file given to the local launcher, its `upgrade` actions' packages signed with the development
   * key.
   */
  runLauncherScenario(
    raw: unknown,
    packages?: Readonly<Record<string, Uint8Array>>,
  ): Promise<Outcome<{ result: ScenarioRunResult }>>;
  /** Frees a log stream's place the moment the listener sees its client leave. */
  releaseLogStream(handle: string): void;
}

export interface Env {
  /** The one SQLite-backed Durable Object namespace: one object per appliance, addressed by name. */
  Appliance: DurableObjectNamespace<ApplianceRpc>;
  /** A fleet file (JSON) replacing the bundled fleet-config/fleet.json. */
  FLEET?: string;
  /**
   * The fleet file's own profile files, as a JSON object from the path written in the fleet file to the file's content
   * (set by `npm start`).
   */
  BNG_PROFILES?: string;
  BNG_PORT_BASE?: string;
  /**
   * `1`: served by the local launcher (`npm start`), whose listeners pass the client's address in `X-BNG-Peer-Address`;
   * unset = deployed (src/http/client-address.ts).
   */
  BNG_LOCAL_FLEET?: string;
  /**
   * The local launcher's per-launch secret: its relay and public sockets send it in X-BNG-Wiring, and only then are
   * X-BNG-Appliance and X-BNG-Peer-Address honoured (src/fleet/wiring.ts).
   */
  BNG_WIRING_SECRET?: string;
  BNG_HTTP?: string;
  /**
   * A local fleet over several workerd processes (BNG_SHARDS): a JSON object from each appliance another process serves
   * to that process's loopback origin (src/fleet/shards.ts).
   */
  BNG_SHARD_PEERS?: string;
  /**
   * Password of the bootstrap `admin` account when an appliance's identity store is first created
   * (src/auth/bootstrap.ts: required when deployed, unless a bootstrap token is set).
   */
  BNG_ADMIN_PASSWORD?: string;
  /** A `bngtok_…` plaintext every appliance accepts as the super-user token `bootstrap`. */
  BNG_BOOTSTRAP_TOKEN?: string;
  /** `manual`: the simulation clock moves only through scenario actions (tests); otherwise every 10 s. */
  BNG_CLOCK?: string;
  /**
   * An ISO 8601 instant a fresh appliance's simulated clock starts at (its time of day shapes traffic and churn); unset
   * = the wall clock.
   */
  BNG_CLOCK_START?: string;
  /**
   * The appliance that answers a hostname naming none of the fleet's (`npm run dev` sets `edge-1` for 127.0.0.1); unset
   * = 404.
   */
  BNG_DEFAULT_APPLIANCE?: string;
  /**
   * The local launcher's resolver (launcher/resolver.ts): the outbound policy judges a name by what it resolves to
   * (src/config/destinations.ts); none deployed.
   */
  BNG_RESOLVER?: Fetcher;
  /** Shared by the fleet; the peer credentials are derived from it. */
  BNG_FLEET_SECRET?: string;
  /**
   * The vendor's Ed25519 public key (SPKI PEM) software packages must be signed with (src/trust/package-signature.ts);
   * unset, none is staged.
   */
  BNG_UPGRADE_PUBLIC_KEY?: string;
}
