/**
 * The route table: every operation of the contract, in the contract's order (src/schemas/index.ts), each served by
 * the handler written for it below or, having none, by the appliance's port of its name (durable-objects/ports/). The
 * router, the OpenAPI document and the authorization tests read it.
 */
import { routeTable, type Route } from "../http/route.ts";
import { contract } from "../schemas/index.ts";
import { providerRoutes } from "./auth/providers.ts";
import { loginRoutes } from "./auth/session.ts";
import { tokenRoutes } from "./auth/tokens.ts";
import { oidcRoutes } from "./auth/oidc.ts";
import { passkeyRoutes } from "./auth/passkeys.ts";
import { browserSessionRoutes } from "./auth/browser-sessions.ts";
import { userRoutes } from "./auth/users.ts";
import { fleetRoutes } from "./fleet.ts";
import { referenceRoutes } from "./reference.ts";
import { systemRoutes } from "./system.ts";
import { sessionRoutes } from "./sessions.ts";
import { cgnRoutes } from "./cgn.ts";
import { cgnConfigRoutes } from "./cgn-config.ts";
import { logRoutes } from "./logs.ts";
import { metricsRoutes } from "./metrics.ts";
import { configRoutes } from "./config.ts";
import { acmeRoutes } from "./acme.ts";
import { vrfRoutes } from "./vrfs.ts";
import { sourceVrfRuleRoutes } from "./source-vrf-rules.ts";
import { greCircuitRoutes } from "./gre-circuits.ts";
import { localSubscriberRoutes } from "./local-subscribers.ts";
import { routingRoutes } from "./routing.ts";
import { routingConfigRoutes } from "./routing-config.ts";
import { upgradeRoutes } from "./upgrade.ts";

/** The operations whose answer the Worker shapes (an ETag, a cookie, a stream, a page of JSON text, a redirect…). */
const handlers: Route[] = [
  ...loginRoutes,
  ...tokenRoutes,
  ...oidcRoutes,
  ...passkeyRoutes,
  ...browserSessionRoutes,
  ...userRoutes,
  ...providerRoutes,
  ...fleetRoutes(() => routes),
  ...systemRoutes,
  ...sessionRoutes,
  ...cgnRoutes,
  ...cgnConfigRoutes,
  ...metricsRoutes,
  ...logRoutes,
  ...configRoutes,
  ...acmeRoutes,
  ...vrfRoutes,
  ...sourceVrfRuleRoutes,
  ...greCircuitRoutes,
  ...localSubscriberRoutes,
  ...routingRoutes,
  ...routingConfigRoutes,
  ...upgradeRoutes,
  ...referenceRoutes(() => routes),
];

export const routes: Route[] = routeTable(contract, handlers);
