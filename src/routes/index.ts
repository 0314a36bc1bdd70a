/**
 * The route table: every operation, section by section. The router, the OpenAPI document and the authorization tests
 * read it.
 */
import type { Route } from "../http/route.ts";
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
import { addressPoolRoutes } from "./address-pools.ts";
import { alarmRoutes } from "./alarms.ts";
import { captureRoutes } from "./captures.ts";
import { cgnRoutes } from "./cgn.ts";
import { cgnConfigRoutes } from "./cgn-config.ts";
import { logRoutes } from "./logs.ts";
import { metricsRoutes } from "./metrics.ts";
import { radiusRoutes } from "./radius.ts";
import { scenarioRoutes } from "./scenario.ts";
import { configRoutes } from "./config.ts";
import { acmeRoutes } from "./acme.ts";
import { vrfRoutes } from "./vrfs.ts";
import { sourceVrfRuleRoutes } from "./source-vrf-rules.ts";
import { greCircuitRoutes } from "./gre-circuits.ts";
import { localSubscriberRoutes } from "./local-subscribers.ts";
import { diagnosticsRoutes } from "./diagnostics.ts";
import { l2tpRoutes } from "./l2tp.ts";
import { licensingRoutes } from "./licensing.ts";
import { routingRoutes } from "./routing.ts";
import { routingConfigRoutes } from "./routing-config.ts";
import { ipsecRoutes } from "./ipsec.ts";
import { upgradeRoutes } from "./upgrade.ts";

export const routes: Route[] = [
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
  ...captureRoutes,
  ...addressPoolRoutes,
  ...cgnRoutes,
  ...cgnConfigRoutes,
  ...radiusRoutes,
  ...metricsRoutes,
  ...logRoutes,
  ...alarmRoutes,
  ...configRoutes,
  ...acmeRoutes,
  ...vrfRoutes,
  ...sourceVrfRuleRoutes,
  ...greCircuitRoutes,
  ...localSubscriberRoutes,
  ...diagnosticsRoutes,
  ...l2tpRoutes,
  ...licensingRoutes,
  ...routingRoutes,
  ...routingConfigRoutes,
  ...ipsecRoutes,
  ...upgradeRoutes,
  ...scenarioRoutes,
  ...referenceRoutes(() => routes),
];
