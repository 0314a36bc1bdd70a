/**
 * The Worker's bindings. Everything but `Appliance` is optional text; `npm start` sets them for its one Worker (see
 * docs/running.md).
 */
import type { Appliance } from "../durable-objects/appliance.ts";

export interface Env {
  /** The one SQLite-backed Durable Object namespace: one object per appliance, addressed by name. */
  Appliance: DurableObjectNamespace<Appliance>;
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
