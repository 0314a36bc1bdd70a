/**
 * The fleet proxy: GET `/api/v1/fleet/{appliance}/{path}` relays a peer's
 * answer verbatim (status, body, content type), authenticated with the peer
 * credential from `webUi.peers`, never the caller's. Peers served by this
 * same deployment are reached in-process (a Worker cannot fetch its own
 * hostname, and it spares a TLS hop); others over HTTPS with a deadline.
 */
import { StatusError } from "../http/problem.ts";
import type { ApplianceContext } from "./context.ts";
import { resolvePeer } from "./definition.ts";

/** Peer-relative paths the proxy refuses: other appliances' credentials and fleets are not relayed; the log stream is local only (spec). */
const REFUSED = [/^fleet(\/|$)/, /^auth(\/|$)/, /^logs\/stream$/];

/**
 * Decodes the peer-relative path once and resolves `.` and `..` itself, so
 * that `%2e%2e`, `.%2e`, backslashes and encoded slashes are judged as the
 * peer would read them; returns the normalised segments.
 */
export function normalisePeerPath(raw: string): string[] {
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
  const joined = segments.join("/");
  if (REFUSED.some((pattern) => pattern.test(joined.toLowerCase()))) {
    throw new StatusError(403, `the fleet proxy does not relay '${joined}': fleet/ and auth/ paths and the log stream are local to each appliance`);
  }
  return segments;
}

/** Relays one GET to a peer. */
export async function relayToPeer(appliance: ApplianceContext, request: Request, peerName: string, rawPath: string): Promise<Response> {
  const configured = (await appliance.stub.fleetPeers()).find((p) => p.name === peerName);
  const peer = configured && resolvePeer(appliance.env, configured);
  if (!peer) throw new StatusError(404, `'${peerName}' is not a peer of ${appliance.name} (see GET /api/v1/fleet/appliances)`);
  const segments = normalisePeerPath(rawPath);
  if (!peer.credential) throw new StatusError(502, `no credential is configured for peer '${peerName}'`);

  const search = new URL(request.url).search;
  const target = `${peer.url.replace(/\/$/, "")}/api/v1/${segments.map(encodeURIComponent).join("/")}${search}`;
  const outbound = new Request(target, {
    method: "GET",
    headers: { authorization: `Bearer ${peer.credential}`, accept: request.headers.get("accept") ?? "*/*" },
    redirect: "manual",
  });

  let response: Response;
  if (peer.member) {
    response = await appliance.dispatch(peer.name, outbound);
  } else {
    const timeout = peer.timeoutMs;
    try {
      response = await fetch(outbound, { signal: AbortSignal.timeout(timeout) });
    } catch (error) {
      const name = (error as Error).name;
      if (name === "TimeoutError" || name === "AbortError") {
        throw new StatusError(504, `peer '${peerName}' did not answer within ${timeout} ms`);
      }
      throw new StatusError(502, `peer '${peerName}' is unreachable: ${(error as Error).message}`);
    }
  }
  // Verbatim: status, body and content type; the peer's other headers (cookies, Location) stay behind.
  const headers = new Headers({ "x-bng-fleet-appliance": peer.name });
  const contentType = response.headers.get("content-type");
  if (contentType) headers.set("content-type", contentType);
  return new Response(response.body, { status: response.status, headers });
}
