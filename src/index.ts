/**
 * The Worker: finds the appliance a request addresses, then runs the route
 * table's pipeline, which asks that appliance's Durable Object once per
 * request. Stateless: all state lives in the objects.
 */
import { routes } from "./routes/index.ts";
import { fpAllowlist } from "./routes/fleet.ts";
import { buildRouter } from "./http/pipeline.ts";
import { problemResponse } from "./http/problem.ts";
import { lingerOnUnread } from "./http/body.ts";
import { clientAddress } from "./http/client-address.ts";
import { deploymentOf } from "./fleet/deployment.ts";
import { startupRefusal } from "./auth/bootstrap.ts";
import { withSecurityHeaders } from "./http/headers.ts";
import { isWebUiRequest, webUiResponse } from "./http/web-ui.ts";
import { LIVE_PATH, liveResponse } from "./http/live.ts";
import {
  applianceForHost,
  applianceNamed,
  peerAnswerOf,
  profileRefusal,
  type PeerAnswer,
  type PeerGet,
} from "./fleet/definition.ts";
import { listenerAppliance } from "./fleet/listener.ts";
import { isWired } from "./fleet/wiring.ts";
import { resolveWith } from "./config/destinations.ts";
import { SHARD_RELAY_PATH, otherShard, shardDispatcher } from "./fleet/shards.ts";
import { serveShardRelay } from "./http/shard-relay.ts";
import { serveCertificateFingerprints } from "./http/certificate-fingerprints.ts";
import { CERTIFICATE_FINGERPRINTS_PATH } from "./fleet/certificate-fingerprints.ts";
import type { ApplianceTarget } from "./fleet/context.ts";
import { answersToHost, type ApplianceDefinition } from "../fleet-config/schema.ts";
import type { Env } from "./env.ts";

export { Appliance } from "../durable-objects/appliance.ts";

const router = buildRouter(routes);
/** The fleet proxy's FP allowlist, which the shard relay's serving side applies too. */
const relayable = fpAllowlist(() => routes);

/** Where the ACME CA fetches an HTTP-01 challenge: for any name being validated, a public token. */
const ACME_CHALLENGE_PREFIX = "/.well-known/acme-challenge/";

/** No client address: a fleet call made in-process came over no socket. */
const NO_CLIENT_ADDRESS = () => "unknown";

/**
 * A fleet proxy's GET to a member this process serves, run in-process (secure by the member's listener scheme); 404 for
 * a name the fleet lacks.
 */
function relayInProcess(env: Env, name: string, get: PeerGet): Promise<PeerAnswer> {
  const member = applianceNamed(env, name);
  if (!member)
    return Promise.resolve(
      peerAnswerOf(problemResponse(404, `no appliance '${name}' in this fleet`, new URL(get.target).pathname)),
    );
  return router.relay(get, contextFor(member, env, get.target.startsWith("https:"), NO_CLIENT_ADDRESS));
}

function contextFor(
  definition: ApplianceDefinition,
  env: Env,
  secure: boolean,
  clientIp: () => string,
): ApplianceTarget {
  let toShards: ReturnType<typeof shardDispatcher> | undefined;
  return {
    name: definition.name,
    definition,
    stub: env.Appliance.getByName(definition.name),
    env,
    secure,
    clientIp,
    dispatch: (name, get, timeoutMs) => {
      // A local fleet over several processes: a member another one serves is asked there, never opened here.
      const shard = otherShard(env, name);
      if (shard !== null) return (toShards ??= shardDispatcher(env))(shard, name, get, timeoutMs);
      return relayInProcess(env, name, get);
    },
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    // A fleet peer outside this deployment is judged by what its name resolves to (the local launcher's resolver).
    resolveWith(env);
    const response = await serve(request, env);
    // A body the answer came before is read first: workerd would reset its connection, and the answer with it.
    await lingerOnUnread(request);
    return response;
  },
} satisfies ExportedHandler<Env>;

/** The answer to one request, from the appliance it addresses. */
async function serve(request: Request, env: Env): Promise<Response> {
  // Each part read once: every read of a native Request's or URL's field crosses into the runtime.
  const url = new URL(request.url);
  const pathname = url.pathname;
  const deployment = deploymentOf(env);
  // Another process of a sharded local fleet relaying fleet-proxy GETs to this one's appliances
  // (src/http/shard-relay.ts).
  if (pathname === SHARD_RELAY_PATH) {
    const relayed = await serveShardRelay(request, env, (name, get) => relayInProcess(env, name, get), relayable);
    if (relayed) return relayed;
  }
  // The local launcher's certificate watch (src/http/certificate-fingerprints.ts).
  if (pathname === CERTIFICATE_FINGERPRINTS_PATH) {
    const fingerprints = await serveCertificateFingerprints(request, env);
    if (fingerprints) return fingerprints;
  }
  // The appliance and the client's address from the launcher's headers only when its wiring sent them (its secret).
  const wired = isWired(request.headers, env);
  const listener = listenerAppliance(request.headers, wired);
  // The local fleet's public sockets serve HTTPS unless BNG_HTTP=1; the relay, where one stands in front,
  // terminates TLS and passes plain HTTP on: a request that came through either is secure by the fleet's scheme.
  const secure = listener !== null ? env.BNG_HTTP !== "1" : url.protocol === "https:";
  // Deployed without an administrator credential, or with a malformed bootstrap token: nothing is served (or seeded).
  const refusal = startupRefusal(env, deployment);
  if (refusal) return withSecurityHeaders(problemResponse(503, refusal, pathname), secure);
  const definition = applianceForHost(env, url.hostname, listener);
  if (!definition)
    return withSecurityHeaders(
      problemResponse(404, `no appliance of this fleet answers to '${listener ?? url.hostname}'`, pathname),
      secure,
    );
  // A local listener answers to its own names only (DNS rebinding, another appliance's host name): 421, as a request
  // that reached the wrong server (RFC 9110 §15.5.20). The ACME CA's challenge fetch names what it validates.
  if (wired && !answersToHost(definition.webUi.hostname, url.hostname) && !pathname.startsWith(ACME_CHALLENGE_PREFIX)) {
    const names = `its own: ${definition.webUi.hostname ?? "none"}, localhost, or an address`;
    const detail =
      `appliance '${definition.name}' does not answer to the host name ` + `'${url.hostname.slice(0, 253)}' (${names})`;
    return withSecurityHeaders(problemResponse(421, detail, pathname), secure);
  }
  // Another process of a sharded local fleet holds this appliance's state: opening it here too would corrupt it.
  if (otherShard(env, definition.name) !== null)
    return withSecurityHeaders(
      problemResponse(421, `appliance '${definition.name}' is served by another process of this fleet`, pathname),
      secure,
    );
  // A fleet file naming a profile file the Worker was not given (deployed without BNG_PROFILES): the appliance cannot
  // start.
  const missing = profileRefusal(env, definition);
  if (missing) return withSecurityHeaders(problemResponse(503, missing, pathname), secure);
  // The web UI's live channel: its object answers 101 with the socket (left as it is), or a refusal.
  if (pathname === LIVE_PATH) {
    const answer = await liveResponse(
      request,
      `${secure ? "https" : "http"}://${url.host}`,
      env.Appliance.getByName(definition.name),
    );
    return answer.status === 101 ? answer : withSecurityHeaders(answer, secure);
  }
  if (isWebUiRequest(request.method, pathname)) return withSecurityHeaders(webUiResponse(pathname), secure);
  // The client address only when an operation asks for it (ADDRESSED_SECTIONS): reading `request.cf` costs the cheapest
  // requests a few per cent.
  return router.fetch(
    request,
    contextFor(definition, env, secure, () => clientAddress(request, deployment, wired)),
    url,
  );
}
