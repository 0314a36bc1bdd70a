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
import { scenarioRoutes } from "./scenario.ts";

export const routes: Route[] = [
  ...loginRoutes,
  ...tokenRoutes,
  ...userRoutes,
  ...providerRoutes,
  ...fleetRoutes,
  ...systemRoutes,
  ...sessionRoutes,
  ...scenarioRoutes,
  ...referenceRoutes(() => routes),
];
