/**
 * The appliance's ports: the domain half of each operation, named as the
 * operation is in the contract (`ports.sessions.disconnect` serves
 * `contract.sessions.disconnect`), each section's in the file of its name. A
 * request makes exactly one port call (`Appliance.call`), which authorizes
 * the caller for that operation and then runs it against the core. Ports
 * answer domain values or outcomes (a refusal is data, mapped to a status by
 * the Worker), never HTTP. A port declared with `serves` answers its
 * operation whole, and the Worker has no handler for it (src/routes/index.ts).
 *
 * Every port takes the `Caller` first; the Worker's typed client
 * (src/http/port.ts) leaves it out, as the object supplies it.
 */
import { authorizeOperation } from "../../src/auth/authorize.ts";
import type { Operation } from "../../src/schemas/contract.ts";
import { contract } from "../../src/schemas/index.ts";
import type { Caller, PortAnswer, PortCall } from "../../src/schemas/operation.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortTable } from "./port-table.ts";
import { addressPoolPorts } from "./address-pools.ts";
import { acmePorts } from "./acme.ts";
import { alarmPorts } from "./alarms.ts";
import { browserSessionPorts } from "./auth/browser-sessions.ts";
import { oidcSignInPorts } from "./auth/oidc.ts";
import { passkeyPorts } from "./auth/passkeys.ts";
import { providerPorts } from "./auth/providers.ts";
import { authSessionPorts } from "./auth/session.ts";
import { tokenPorts } from "./auth/tokens.ts";
import { userPorts } from "./auth/users.ts";
import { capturePorts } from "./captures.ts";
import { cgnConfigPorts } from "./cgn-config.ts";
import { cgnPorts } from "./cgn.ts";
import { configPorts } from "./config.ts";
import { diagnosticsPorts } from "./diagnostics.ts";
import { fleetPorts } from "./fleet.ts";
import { greCircuitPorts } from "./gre-circuits.ts";
import { ipsecPorts } from "./ipsec.ts";
import { l2tpPorts } from "./l2tp.ts";
import { licensingPorts } from "./licensing.ts";
import { localSubscriberPorts } from "./local-subscribers.ts";
import { logPorts } from "./logs.ts";
import { metricsPorts } from "./metrics.ts";
import { radiusPorts } from "./radius.ts";
import { routingConfigPorts } from "./routing-config.ts";
import { routingPorts } from "./routing.ts";
import { scenarioPorts } from "./scenario.ts";
import { sessionPorts } from "./sessions.ts";
import { sourceVrfRulePorts } from "./source-vrf-rules.ts";
import { systemPorts } from "./system.ts";
import { upgradePorts } from "./upgrade.ts";
import { vrfPorts } from "./vrfs.ts";

/** The ports over one appliance's core, by section. */
export function portsOf(core: ApplianceCore) {
  return {
    authSession: authSessionPorts(core),
    tokens: tokenPorts(core),
    oidcSignIn: oidcSignInPorts(core),
    passkeys: passkeyPorts(core),
    browserSessions: browserSessionPorts(core),
    users: userPorts(core),
    providers: providerPorts(core),
    fleet: fleetPorts(core),
    system: systemPorts(core),
    sessions: sessionPorts(core),
    captures: capturePorts(core),
    addressPools: addressPoolPorts(core),
    cgn: cgnPorts(core),
    cgnConfig: cgnConfigPorts(core),
    radius: radiusPorts(core),
    metrics: metricsPorts(core),
    logs: logPorts(core),
    alarms: alarmPorts(core),
    config: configPorts(core),
    acme: acmePorts(core),
    vrfs: vrfPorts(core),
    sourceVrfRules: sourceVrfRulePorts(core),
    greCircuits: greCircuitPorts(core),
    localSubscribers: localSubscriberPorts(core),
    diagnostics: diagnosticsPorts(core),
    l2tp: l2tpPorts(core),
    licensing: licensingPorts(core),
    routing: routingPorts(core),
    routingConfig: routingConfigPorts(core),
    ipsec: ipsecPorts(core),
    upgrade: upgradePorts(core),
    scenario: scenarioPorts(core),
    // The OpenAPI document and its viewer: the Worker answers them alone.
    reference: {},
  } satisfies PortTable;
}

export type AppliancePorts = ReturnType<typeof portsOf>;

/** An own member of a table that came over the wire by name (never `constructor`, `__proto__` and the like). */
const member = <T>(table: unknown, name: string): T | undefined =>
  table !== null && typeof table === "object" && Object.hasOwn(table, name)
    ? (table as Record<string, T>)[name]
    : undefined;

/**
 * Authorizes the caller for the operation the call names, then runs that operation's port as the caller (nothing when
 * `args` is null).
 */
export async function answerPortCall(core: ApplianceCore, ports: AppliancePorts, call: PortCall): Promise<PortAnswer> {
  const operation = member<Operation>(member(contract, call.section), call.operation);
  if (!operation)
    return { ok: false, reason: "not-found", detail: `no operation ${call.section}.${call.operation}`.slice(0, 200) };
  const authorized = authorizeOperation(operation, call, (credential) =>
    core.identity().authenticate(credential.via, credential.sha256),
  );
  if (!authorized.ok) return authorized;
  if (call.args === null) return { ok: true, value: undefined };
  const port = member<(caller: Caller, ...args: unknown[]) => unknown>(member(ports, call.section), call.operation);
  if (!port)
    return {
      ok: false,
      reason: "not-found",
      detail: `operation ${call.section}.${call.operation} has neither a handler in the Worker nor a port`,
    };
  const caller: Caller = {
    principal: authorized.principal,
    credential: call.credential,
    clientIp: call.clientIp,
    secure: call.secure,
    ifMatch: call.ifMatch,
  };
  return { ok: true, value: await port(caller, ...call.args) };
}
