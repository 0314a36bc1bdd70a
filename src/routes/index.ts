/** The route table: every operation, section by section. The router, the OpenAPI document and the authorization tests read it. */
import type { Route } from "../http/route.ts";
import { providerRoutes } from "./auth/providers.ts";
import { loginRoutes } from "./auth/session.ts";
import { tokenRoutes } from "./auth/tokens.ts";
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
import { vrfRoutes } from "./vrfs.ts";
import { sourceVrfRuleRoutes } from "./source-vrf-rules.ts";
import { greCircuitRoutes } from "./gre-circuits.ts";
import { localSubscriberRoutes } from "./local-subscribers.ts";
import { diagnosticsRoutes } from "./diagnostics.ts";
import { upgradeRoutes } from "./upgrade.ts";

export const routes: Route[] = [
  ...loginRoutes,
  ...tokenRoutes,
  ...userRoutes,
  ...providerRoutes,
  ...fleetRoutes,
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
  ...vrfRoutes,
  ...sourceVrfRuleRoutes,
  ...greCircuitRoutes,
  ...localSubscriberRoutes,
  ...diagnosticsRoutes,
  ...upgradeRoutes,
  ...scenarioRoutes,
  ...referenceRoutes(() => routes),
];
