/** The route table: every operation, section by section. The router, the OpenAPI document and the authorization tests read it. */
import type { Route } from "../http/route.ts";
import { providerRoutes } from "./auth/providers.ts";
import { sessionRoutes } from "./auth/session.ts";
import { tokenRoutes } from "./auth/tokens.ts";
import { userRoutes } from "./auth/users.ts";
import { fleetRoutes } from "./fleet.ts";
import { referenceRoutes } from "./reference.ts";
import { systemRoutes } from "./system.ts";

export const routes: Route[] = [
  ...sessionRoutes,
  ...tokenRoutes,
  ...userRoutes,
  ...providerRoutes,
  ...fleetRoutes,
  ...systemRoutes,
  ...referenceRoutes(() => routes),
];
