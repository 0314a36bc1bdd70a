/**
 * The Worker: finds the appliance a request addresses, then runs the route
 * table's pipeline against that appliance's Durable Object. Stateless: all
 * state lives in the objects.
 */
import { routes } from "./routes/index.ts";
import { buildRouter } from "./http/pipeline.ts";
import { problemResponse } from "./http/problem.ts";
import { isWebUiRequest, webUiResponse } from "./http/web-ui.ts";
import { applianceForHost, applianceNamed } from "./fleet/definition.ts";
import type { ApplianceContext } from "./fleet/context.ts";
import type { ApplianceDefinition } from "../fleet-config/schema.ts";
import type { Env } from "./env.ts";

export { Appliance } from "../durable-objects/appliance.ts";

const router = buildRouter(routes);

function contextFor(definition: ApplianceDefinition, request: Request, env: Env): ApplianceContext {
  return {
    name: definition.name,
    definition,
    stub: env.Appliance.getByName(definition.name),
    env,
    secure: (env.BNG_PUBLIC_ORIGIN ?? request.url).startsWith("https:"),
    clientIp: request.headers.get("cf-connecting-ip") ?? "unknown",
    dispatch: (name, peerRequest) => {
      const peer = applianceNamed(env, name);
      if (!peer) return Promise.resolve(problemResponse(404, `no appliance '${name}' in this fleet`, new URL(peerRequest.url).pathname));
      return router.fetch(peerRequest, contextFor(peer, peerRequest, env));
    },
  };
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    const definition = applianceForHost(env, url.hostname);
    if (!definition) return problemResponse(404, `no appliance of this fleet answers to '${url.hostname}'`, url.pathname);
    if (isWebUiRequest(request, url)) return webUiResponse(url);
    return router.fetch(request, contextFor(definition, request, env));
  },
} satisfies ExportedHandler<Env>;
