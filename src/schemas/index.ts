/**
 * The wire contract's entry: every section's operations, by section. The
 * route table implements each of them (test/worker/openapi.test.ts checks
 * the two agree), and the web UI's typed client reaches the API through
 * them (scripts/build-ui.ts hands the browser their methods, paths and
 * floors; ui/api.ts, `call`).
 */
import { acme } from "./acme.ts";
import { addressPools } from "./address-pools.ts";
import { alarms } from "./alarms.ts";
import { browserSessions } from "./auth/browser-sessions.ts";
import { oidcSignIn } from "./auth/oidc.ts";
import { passkeys } from "./auth/passkeys.ts";
import { providers } from "./auth/providers.ts";
import { authSession } from "./auth/session.ts";
import { tokens } from "./auth/tokens.ts";
import { users } from "./auth/users.ts";
import { captures } from "./captures.ts";
import { cgnConfig } from "./cgn-config.ts";
import { cgn } from "./cgn.ts";
import { config } from "./config.ts";
import { diagnostics } from "./diagnostics.ts";
import { fleet } from "./fleet.ts";
import { greCircuits } from "./gre-circuits.ts";
import { ipsec } from "./ipsec.ts";
import { l2tp } from "./l2tp.ts";
import { licensing } from "./licensing.ts";
import { localSubscribers } from "./local-subscribers.ts";
import { logs } from "./logs.ts";
import { metrics } from "./metrics.ts";
import { radius } from "./radius.ts";
import { reference } from "./reference.ts";
import { routingConfig } from "./routing-config.ts";
import { routing } from "./routing.ts";
import { scenario } from "./scenario.ts";
import { sessions } from "./sessions.ts";
import { sourceVrfRules } from "./source-vrf-rules.ts";
import { system } from "./system.ts";
import { upgrade } from "./upgrade.ts";
import { vrfs } from "./vrfs.ts";

export const contract = {
  authSession,
  tokens,
  oidcSignIn,
  passkeys,
  browserSessions,
  users,
  providers,
  fleet,
  system,
  sessions,
  captures,
  addressPools,
  cgn,
  cgnConfig,
  radius,
  metrics,
  logs,
  alarms,
  config,
  acme,
  vrfs,
  sourceVrfRules,
  greCircuits,
  localSubscribers,
  diagnostics,
  l2tp,
  licensing,
  routing,
  routingConfig,
  ipsec,
  upgrade,
  scenario,
  reference,
};
