/**
 * The fleet proxy: GET `/api/v1/fleet/{appliance}/{path}` relays a peer's
 * answer verbatim (status, body, content type), authenticated with the peer
 * credential from `webUi.peers`, never the caller's. Peers served by this
 * same deployment are reached in-process (a Worker cannot fetch its own
 * hostname, and it spares a TLS hop); others over HTTPS with a deadline,
 * through the appliance's one destination policy (src/config/destinations.ts:
 * https, or http only to an allowlisted internal address; no redirect
 * followed), since the request carries the peer credential.
 */
import { StatusError } from "../http/problem.ts";
import { DestinationRefused, outboundFetch } from "../config/destinations.ts";
import { answerWith, securedHeaders } from "../http/headers.ts";
import type { ApplianceTarget } from "./context.ts";
import { peerAnswerOf, peerHeaders, resolvePeer, selfAsPeer, type PeerAnswer } from "./definition.ts";
import type { ConfiguredPeer } from "../schemas/fleet.ts";

/**
 * Which peer paths the proxy relays: a test of `/api/v1/<path>` (still
 * percent-encoded) against the GET operations the route table marks FP. An
 * allowlist, so a new route is local until someone decides otherwise.
 */
export type Relayable = (apiPath: string) => boolean;

/**
 * Decodes the peer-relative path once and resolves `.` and `..` itself, so
 * that `%2e%2e`, `.%2e`, backslashes and encoded slashes are judged as the
 * peer would read them; returns the normalised segments.
 */
export function normalisePeerPath(raw: string, relayable: Relayable): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new StatusError(400, "the peer path is not valid percent-encoding");
  }
  const segments: string[] = [];
  for (const segment of decoded.replace(/\\/g, "/").split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.length === 0) throw new StatusError(400, "the peer path may not leave /api/v1/");
      segments.pop();
    } else {
      segments.push(segment);
    }
  }
  if (segments.length === 0) throw new StatusError(404, "no peer path given");
  if (!relayable(`/api/v1/${segments.map(encodeURIComponent).join("/")}`)) {
    throw new StatusError(
      403,
      `the fleet proxy relays only the GET operations marked x-fleet-proxy in the ` +
        `OpenAPI document; '${segments.join("/").slice(0, 200)}' is not one (fleet/, ` +
        `auth/, the log stream, the metrics scrape and the like are local to each appliance)`,
    );
  }
  return segments;
}

/**
 * The media types a peer's answer may have to be relayed: what the API's
 * operations produce. Anything else (HTML above all) would be served on this
 * appliance's origin, where a peer's script could read its readers' data.
 */
const RELAYED_TYPES = new Set(["application/json", "application/problem+json", "text/plain", "text/event-stream"]);

/** `type/subtype`, lower case, without parameters. */
const mediaType = (contentType: string): string => contentType.split(";")[0]!.trim().toLowerCase();

/** Where a relayed GET goes: the peer as the proxy reaches it, and the target URL. */
export interface RelayPlan {
  peer: { name: string; member: boolean; credential: string; timeoutMs: number };
  target: string;
  /** `alarms.webhookAllowlist` when planned: the destination policy's internal addresses. */
  allowlist: readonly string[];
}

/** Peers' URLs' origins, parsed once each (a fleet's worth; cleared when full). */
const origins = new Map<string, string>();
const ORIGINS_MAX = 4096;

function originOf(url: string): string {
  let origin = origins.get(url);
  if (origin === undefined) {
    origin = new URL(url).origin;
    if (origins.size >= ORIGINS_MAX) origins.clear();
    origins.set(url, origin);
  }
  return origin;
}

/**
 * What the addressed appliance knows of a relay: the peer as its running `webUi.peers` names it (null if none), and its
 * destination policy's allowlist.
 */
export interface RelayFacts {
  configured: ConfiguredPeer | null;
  allowlist: readonly string[];
}

/**
 * Plans one GET to a peer from what the addressed appliance knows of it: the configured peer (or this appliance itself,
 * read through its own proxy as every row of GET /fleet/appliances can be), the path judged, the query kept.
 */
export async function planRelay(
  appliance: ApplianceTarget,
  known: RelayFacts,
  peerName: string,
  rawPath: string,
  search: string,
  relayable: Relayable,
): Promise<RelayPlan> {
  const { configured } = known;
  const peer = configured
    ? resolvePeer(appliance.env, configured)
    : peerName === appliance.name
      ? await selfAsPeer(appliance.env, appliance.name)
      : null;
  if (!peer)
    throw new StatusError(404, `'${peerName}' is not a peer of ${appliance.name} (see GET /api/v1/fleet/appliances)`);
  const segments = normalisePeerPath(rawPath, relayable);
  if (!peer.credential) throw new StatusError(502, `no credential is configured for peer '${peerName}'`);
  // The origin alone, even from a stored URL written before peers were origins only.
  const target = `${originOf(peer.url)}/api/v1/${segments.map(encodeURIComponent).join("/")}${search}`;
  return {
    peer: { name: peer.name, member: peer.member, credential: peer.credential, timeoutMs: peer.timeoutMs },
    target,
    allowlist: known.allowlist,
  };
}

/**
 * Asks a peer one planned GET, from the Worker (`accept` as the caller sent it): a peer is another object, so the
 * addressed one is not asked again. Its answer as the proxy relays it, or a StatusError (502, 504) saying why not.
 */
export async function askPeer(appliance: ApplianceTarget, plan: RelayPlan, accept: string): Promise<PeerAnswer> {
  const { peer, target } = plan;
  const peerName = peer.name;
  const timeout = peer.timeoutMs;
  const get = { target, credential: peer.credential, accept };

  let answer: PeerAnswer;
  try {
    // A member is served by this deployment (in-process, or by another process of a sharded local fleet); any other
    // peer over HTTPS.
    answer = peer.member
      ? await appliance.dispatch(peer.name, get, timeout)
      : peerAnswerOf(
          await outboundFetch(target, "peer", plan.allowlist, {
            headers: peerHeaders(get),
            signal: AbortSignal.timeout(timeout),
          }),
        );
  } catch (error) {
    // Nothing was sent, the credential included: the stored URL no longer passes the policy.
    if (error instanceof DestinationRefused)
      throw new StatusError(502, `peer '${peerName}' is not an allowed destination: ${error.message}`);
    const name = (error as Error).name;
    if (name === "TimeoutError" || name === "AbortError") {
      throw new StatusError(504, `peer '${peerName}' did not answer within ${timeout} ms`);
    }
    throw new StatusError(502, `peer '${peerName}' is unreachable: ${(error as Error).message}`);
  }
  const { contentType, body } = answer;
  if (contentType && !RELAYED_TYPES.has(mediaType(contentType))) {
    if (body instanceof ReadableStream) await body.cancel();
    throw new StatusError(
      502,
      `peer '${peerName}' answered ` +
        `with ${JSON.stringify(mediaType(contentType).slice(0, 80))}; the fleet proxy ` +
        `relays only ${[...RELAYED_TYPES].join(", ")}`,
    );
  }
  return answer;
}

/**
 * A relayed answer's headers by scheme, peer and content type, made once (`securedHeaders`): a proxied read
 * comes again and again with the same three. Bounded, cleared when full: a peer could vary its content type.
 */
const relayedHeaders = new Map<string, Headers>();
const RELAYED_HEADERS_MAX = 4096;

function relayHeaders(secure: boolean, peer: string, contentType: string | null): Headers {
  const key = `${secure ? "https" : "http"} ${peer} ${contentType ?? ""}`;
  let headers = relayedHeaders.get(key);
  if (headers === undefined) {
    // nosniff and a sandbox CSP: should a browser open the answer, it is inert data, never a page of this origin.
    const record: Record<string, string> = { "x-bng-fleet-appliance": peer, "content-security-policy": "sandbox" };
    if (contentType) record["content-type"] = contentType;
    if (relayedHeaders.size >= RELAYED_HEADERS_MAX) relayedHeaders.clear();
    relayedHeaders.set(key, (headers = securedHeaders(record, secure)));
  }
  return headers;
}

/** Relays one planned GET to a peer: its status, body and content type, verbatim. */
export async function relayToPeer(appliance: ApplianceTarget, plan: RelayPlan, accept: string): Promise<Response> {
  const { status, contentType, body } = await askPeer(appliance, plan, accept);
  // Verbatim: status, body and content type; the peer's other headers (cookies, Location) stay behind.
  const headers = relayHeaders(appliance.secure, plan.peer.name, contentType);
  if (!contentType) {
    // A redirect or an empty answer: the status alone.
    if (body instanceof ReadableStream) await body.cancel();
    return answerWith(null, status, headers);
  }
  return answerWith(body, status, headers);
}
