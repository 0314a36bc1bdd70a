/**
 * The fleet as this Worker sees it: the fleet file (bundled, or `FLEET`),
 * which appliance a request is for, and each appliance's peers with their
 * URLs and credentials resolved.
 */
import bundledFleet from "../../fleet-config/fleet.json";
import {
  FleetFile,
  browserOrigin,
  describeIssues,
  isShippedProfile,
  type ApplianceDefinition,
} from "../../fleet-config/schema.ts";
import { deriveToken } from "../trust/tokens.ts";
import type { Env } from "../env.ts";
import type { ConfiguredPeer } from "../schemas/fleet.ts";

/** A GET the fleet proxy sends a peer: the target URL, the peer credential it presents and what the caller accepts. */
export interface PeerGet {
  target: string;
  credential: string;
  accept: string;
}

/** A peer's answer as the proxy relays it: status, content type and body, nothing else. */
export interface PeerAnswer {
  status: number;
  contentType: string | null;
  /** Text when a member of this Worker answered in-process; a stream from the network. */
  body: string | ReadableStream | null;
}

export const peerAnswerOf = (response: Response): PeerAnswer => ({
  status: response.status,
  contentType: response.headers.get("content-type"),
  body: response.body,
});

/** A peer answer's body as text, read to its end when it came as a stream (null when there is none). */
export const peerAnswerText = async (body: PeerAnswer["body"]): Promise<string | null> =>
  body === null || typeof body === "string" ? body : new Response(body).text();

/**
 * The headers a peer GET carries over the network: the peer credential and the caller's Accept, nothing of the caller's
 * own.
 */
export const peerHeaders = (get: PeerGet): Record<string, string> => ({
  authorization: `Bearer ${get.credential}`,
  accept: get.accept,
});

export interface Peer {
  name: string;
  url: string;
  /** True when the peer is served by this same deployment (same Durable Object namespace). */
  member: boolean;
  /** The read-only token presented to the peer; null when none can be had (no fleet secret). */
  credential: string | null;
  /** How long the proxy waits for an answer. */
  timeoutMs: number;
}

/**
 * The fleet file in force with its appliances by name and by host name: every request looks one up, and a fleet has up
 * to a thousand.
 */
interface Fleet {
  source: string | undefined;
  file: FleetFile;
  byName: Map<string, ApplianceDefinition>;
  byHostname: Map<string, ApplianceDefinition>;
}

let cached: Fleet | undefined;

function fleetOf(env: Env): Fleet {
  if (cached === undefined || cached.source !== env.FLEET) {
    const parsed = FleetFile.safeParse(env.FLEET ? JSON.parse(env.FLEET) : bundledFleet);
    if (!parsed.success) throw new Error(`invalid fleet file: ${describeIssues(parsed.error).join("; ")}`);
    const byName = new Map<string, ApplianceDefinition>();
    const byHostname = new Map<string, ApplianceDefinition>();
    // The first of a name or host name wins, as a search in file order would find it.
    for (const a of parsed.data.appliances) {
      if (!byName.has(a.name)) byName.set(a.name, a);
      if (a.webUi.hostname !== undefined && !byHostname.has(a.webUi.hostname)) byHostname.set(a.webUi.hostname, a);
    }
    cached = { source: env.FLEET, file: parsed.data, byName, byHostname };
  }
  return cached;
}

/** The fleet file in force, parsed once per isolate. */
export function loadFleet(env: Env): FleetFile {
  return fleetOf(env).file;
}

let cachedProfiles: { source: string | undefined; files: Record<string, unknown> } | undefined;

/**
 * The fleet's own profile files (BNG_PROFILES: path as written in the fleet file → its JSON), read once per isolate.
 */
export function userProfiles(env: Env): Record<string, unknown> {
  if (cachedProfiles === undefined || cachedProfiles.source !== env.BNG_PROFILES) {
    const files: unknown = env.BNG_PROFILES ? JSON.parse(env.BNG_PROFILES) : {};
    if (typeof files !== "object" || files === null || Array.isArray(files))
      throw new Error("BNG_PROFILES is not a JSON object of profile files");
    cachedProfiles = { source: env.BNG_PROFILES, files: files as Record<string, unknown> };
  }
  return cachedProfiles.files;
}

/**
 * Why an appliance cannot run in this Worker: its profile file was not handed over in BNG_PROFILES; null when it can.
 */
export function profileRefusal(env: Env, appliance: ApplianceDefinition): string | null {
  if (isShippedProfile(appliance.profile)) return null;
  let files: Record<string, unknown>;
  try {
    files = userProfiles(env);
  } catch {
    return "BNG_PROFILES is not a JSON object of profile files";
  }
  if (Object.hasOwn(files, appliance.profile)) return null;
  return (
    `appliance '${appliance.name}' runs the profile file '${appliance.profile}', ` +
    `which this Worker was not given (BNG_PROFILES; npm start passes the fleet ` +
    `file's own profiles)`
  );
}

/** How this deployment shifts and serves the fleet file's listeners (BNG_PORT_BASE, BNG_HTTP). */
export const listenerOptions = (env: Env) => ({
  portBase: env.BNG_PORT_BASE ? Number(env.BNG_PORT_BASE) : undefined,
  http: env.BNG_HTTP === "1",
});

/**
 * The appliance a request is for: the one named by the local fleet's listener
 * it came in on (src/fleet/listener.ts), else the one whose `webUi.hostname`
 * is the request's host, else the one named by the host's first DNS label,
 * else `BNG_DEFAULT_APPLIANCE`.
 */
export function applianceForHost(
  env: Env,
  hostname: string,
  listener: string | null = null,
): ApplianceDefinition | undefined {
  const fleet = fleetOf(env);
  if (listener !== null) return fleet.byName.get(listener);
  const host = hostname.toLowerCase();
  const named = fleet.byHostname.get(host) ?? fleet.byName.get(host.split(".")[0]!);
  // A host that names no appliance (127.0.0.1 under `wrangler dev`, a workers.dev name) is the default one's, if set.
  return named ?? (env.BNG_DEFAULT_APPLIANCE ? fleet.byName.get(env.BNG_DEFAULT_APPLIANCE) : undefined);
}

/** The appliance of a given name. */
export function applianceNamed(env: Env, name: string): ApplianceDefinition | undefined {
  return fleetOf(env).byName.get(name);
}

const peerLabel = (from: string, to: string) => `peer:${from}>${to}`;

/** The peers of an appliance (`webUi.peers`), with URLs and credentials resolved. */
export async function peersOf(env: Env, appliance: ApplianceDefinition): Promise<Peer[]> {
  const fleet = fleetOf(env);
  return Promise.all(
    appliance.webUi.peers.map(async (peer) => {
      const member = fleet.byName.get(peer.name);
      const derived =
        member && env.BNG_FLEET_SECRET
          ? await deriveToken(env.BNG_FLEET_SECRET, peerLabel(appliance.name, peer.name))
          : null;
      return {
        name: peer.name,
        url: peer.url ?? (member ? browserOrigin(fleet.file, member, listenerOptions(env)) : ""),
        member: member !== undefined && peer.url === undefined,
        credential: peer.credential ?? derived,
        timeoutMs: peer.timeoutMs,
      };
    }),
  );
}

/**
 * A configured peer (`webUi.peers` in the running configuration) as the proxy
 * reaches it: a member of this deployment's fleet is served in-process at its
 * current listener (so BNG_PORT_BASE moves it), linked at its own `*.localhost`
 * name where it has one (browserOrigin: no appliance's session cookie reaches
 * another), anything else over the network.
 */
export function resolvePeer(env: Env, peer: ConfiguredPeer): Peer {
  const fleet = fleetOf(env);
  const member = fleet.byName.get(peer.name);
  return member
    ? { ...peer, url: browserOrigin(fleet.file, member, listenerOptions(env)), member: true }
    : { ...peer, member: false };
}

/**
 * This appliance as its own fleet proxy reaches it (`/fleet/<its name>/…`): a member asked in-process with a credential
 * of
 * its own, so a script looping over `GET /fleet/appliances` reads every row, this one included. Null without a fleet
 * secret.
 */
export async function selfAsPeer(env: Env, name: string): Promise<Peer | null> {
  const fleet = fleetOf(env);
  const self = fleet.byName.get(name);
  const credential = await selfCredential(env, name);
  if (!self || !credential) return null;
  return {
    name,
    url: browserOrigin(fleet.file, self, listenerOptions(env)),
    member: true,
    credential,
    timeoutMs: SELF_TIMEOUT_MS,
  };
}

/** The credential an appliance presents to itself through its own proxy (null without a fleet secret). */
const selfCredential = (env: Env, name: string): Promise<string> | null =>
  env.BNG_FLEET_SECRET ? deriveToken(env.BNG_FLEET_SECRET, peerLabel(name, name)) : null;

/**
 * A read of this appliance through its own proxy is one more call into the same object: the default peer timeout is
 * plenty.
 */
const SELF_TIMEOUT_MS = 10_000;

/**
 * The credentials fleet members present to this appliance (itself too, for its own proxy): each a read-only token named
 * `fleet:<member>`.
 */
export async function inboundPeerCredentials(
  env: Env,
  name: string,
): Promise<{ tokenName: string; credential: string }[]> {
  const inbound = [];
  const own = await selfCredential(env, name);
  if (own) inbound.push({ tokenName: `fleet:${name}`, credential: own });
  for (const other of loadFleet(env).appliances) {
    const entry = other.webUi.peers.find((p) => p.name === name);
    if (!entry || other.name === name) continue;
    const credential =
      entry.credential ??
      (env.BNG_FLEET_SECRET ? await deriveToken(env.BNG_FLEET_SECRET, peerLabel(other.name, name)) : null);
    if (credential) inbound.push({ tokenName: `fleet:${other.name}`, credential });
  }
  return inbound;
}
