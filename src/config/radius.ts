/**
 * RADIUS servers in the configuration (`radius.servers`, key `host:port` or `[ipv6]:port` naming the
 * authentication port, children `weight`, `secret`, `transport`, `accountingPort`) and the client's settings
 * (`radius.subscriberPassword`, `radius.requestsPerSecond`, `radius.timeoutSeconds`), as the simulation and the
 * appliance's RADIUS client take them. Hot-applied: the list's order is the order requests walk the servers in;
 * secrets are the appliance's, never the simulation's.
 */
import type { RadiusServerSettings } from "../../simulator/aaa.ts";
import type { ConfigItem, Value } from "./types.ts";
import { parseHostPort } from "./syntax.ts";

/**
 * `simulated`: the model answers; `tcp` (RFC 6613) and `tls` (RFC 6614): a real server over the runtime's TCP sockets.
 */
export const RADIUS_TRANSPORTS = ["simulated", "tcp", "tls"] as const;
export type RadiusTransport = (typeof RADIUS_TRANSPORTS)[number];
/**
 * Accounting ports when none is configured: IANA's radius-acct over TCP (RFC 6613 §2.1); RFC 6614 §2.1 has one port for
 * all.
 */
export const RADIUS_ACCOUNTING_PORT = { tcp: 1813 } as const;
/**
 * Requests per second the real servers are sent at most, unless configured: a few hundred, as a BNG's AAA rate limit.
 */
export const RADIUS_REQUESTS_PER_SECOND = 300;
/** Seconds a real server has to answer (Juniper's and FreeRADIUS's radclient default is 3). */
export const RADIUS_TIMEOUT_SECONDS = 3;

/** A real server as the appliance's RADIUS client connects to it. */
export interface RadiusServerTarget {
  /** `host:port`, as the pool and the API name it. */
  label: string;
  host: string;
  authPort: number;
  acctPort: number;
  transport: Exclude<RadiusTransport, "simulated">;
  secret: string;
}

/** The client's own settings. */
export interface RadiusClientSettings {
  servers: RadiusServerTarget[];
  subscriberPassword: string;
  requestsPerSecond: number;
  timeoutMs: number;
}

const transportOf = (values: Record<string, Value>): RadiusTransport =>
  values.transport === "tcp" || values.transport === "tls" ? values.transport : "simulated";

/** A real server's accounting port: as configured, else RFC 6613's 1813 over TCP, or RFC 6614's one port over TLS. */
function accountingPortOf(values: Record<string, Value>, transport: "tcp" | "tls", authPort: number): number {
  if (typeof values.accountingPort === "number") return values.accountingPort;
  return transport === "tls" ? authPort : RADIUS_ACCOUNTING_PORT.tcp;
}

/** The configured servers, in order (items whose key does not parse are the validator's to refuse). */
export function radiusServersOf(items: readonly ConfigItem[]): RadiusServerSettings[] {
  return items.flatMap(({ key, values }) => {
    const at = parseHostPort(key);
    if (!at) return [];
    const transport = transportOf(values);
    const weight = typeof values.weight === "number" ? values.weight : 1;
    if (transport === "simulated") return [{ host: at.host, port: at.port, weight }];
    return [
      { host: at.host, port: at.port, weight, transport, accountingPort: accountingPortOf(values, transport, at.port) },
    ];
  });
}

/**
 * The real servers and the client's settings, secrets included (read from the object's own store, never the
 * Worker's); null when the pool is simulated.
 */
export function radiusClientOf(
  items: readonly ConfigItem[],
  fields: (path: string) => Value,
): RadiusClientSettings | null {
  const servers = items.flatMap(({ key, values }): RadiusServerTarget[] => {
    const at = parseHostPort(key);
    const transport = transportOf(values);
    if (!at || transport === "simulated" || typeof values.secret !== "string") return [];
    const acctPort = accountingPortOf(values, transport, at.port);
    return [
      { label: `${at.host}:${at.port}`, host: at.host, authPort: at.port, acctPort, transport, secret: values.secret },
    ];
  });
  if (servers.length === 0) return null;
  const rate = fields("radius.requestsPerSecond");
  const timeout = fields("radius.timeoutSeconds");
  const password = fields("radius.subscriberPassword");
  return {
    servers,
    subscriberPassword: typeof password === "string" ? password : "",
    requestsPerSecond: typeof rate === "number" ? rate : RADIUS_REQUESTS_PER_SECOND,
    timeoutMs: (typeof timeout === "number" ? timeout : RADIUS_TIMEOUT_SECONDS) * 1000,
  };
}

/** One server's own rule: a real one needs its shared secret. */
export function radiusServerProblems(values: Record<string, Value>): { child: string; detail: string }[] {
  const transport = transportOf(values);
  if (transport !== "simulated" && values.secret === null) {
    return [
      {
        child: "secret",
        detail: `a ${transport} server needs its shared secret (RFC 2865 §3: every packet is signed with it)`,
      },
    ];
  }
  return [];
}

/**
 * The list's rules: its servers are all simulated or all real (the model answers for the first, the real servers
 * for the second: one pool, one kind), and real ones need `radius.subscriberPassword`. Each problem names a pointer's
 * parts: the item and child, or the field.
 */
export function radiusListProblems(
  items: readonly ConfigItem[],
  password: Value,
  report: (at: { key?: string; child?: string; field?: string }, detail: string) => void,
): void {
  const real = items.filter((item) => transportOf(item.values) !== "simulated");
  if (real.length === 0) return;
  for (const item of items) {
    if (transportOf(item.values) !== "simulated") continue;
    const detail =
      `every server of radius.servers is simulated or every one is ` +
      `real: ${real[0]!.key} is ${transportOf(real[0]!.values)}`;
    report({ key: item.key, child: "transport" }, detail);
  }
  if (password === null)
    report(
      { field: "radius.subscriberPassword" },
      "required once a RADIUS server is real (tcp or tls): the password the simulated subscribers present",
    );
}
