/**
 * The fleet file: which appliances exist, how each listens, its seed and
 * profile, and the peers it reads through the fleet proxy (`webUi.peers`).
 * Shared by the launcher (launcher/launch.ts) and the Worker, so both accept
 * exactly the same files.
 */
import { z } from "zod";

/** Appliance and peer names are DNS labels: they appear in hostnames and in `/fleet/{appliance}/…`. */
export const ApplianceName = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,62}$/, "a lower-case DNS label (letters, digits, '-')");

export const PeerDefinition = z.strictObject({
  name: ApplianceName.describe("the `{appliance}` key of the fleet proxy"),
  url: z
    .url({ protocol: /^https?$/ })
    // An origin only: a path or query would let the fleet proxy read any page of that host.
    .refine(
      (text) => /^https?:\/\/[^/?#@]+\/?$/i.test(text),
      "an http or https origin: scheme, host and port, no path, query or user",
    )
    .optional()
    .describe("peer origin (`https://host:port`); defaults to the listener of the fleet member of that name"),
  credential: z
    .string()
    .regex(/^bngtok_[A-Za-z0-9]{36}$/, "a bngtok_ token")
    .optional()
    .describe("read-only token this appliance presents to the peer; defaults to one derived from the fleet secret"),
  timeoutMs: z
    .int()
    .min(100)
    .max(60_000)
    .default(10_000)
    .describe("how long the fleet proxy waits for this peer before answering 504"),
});

/** The simulation profiles shipped in fleet-config/profiles/ (a new profile file is added here too). */
export const PROFILE_NAMES = ["small", "default", "large", "xlarge"] as const;

/**
 * A profile file of the user's own: a path ending in `.json`, relative to the fleet file. The launcher reads
 * and validates it with the shipped profiles' schema (simulator/profile.ts) and hands it to the Worker
 * (`BNG_PROFILES`), which cannot read files.
 */
const PROFILE_HINT =
  `a shipped profile (${PROFILE_NAMES.join(", ")}) or the path of a profile file ` +
  `ending in .json, relative to the fleet file`;

export const ProfileFile = z
  .string()
  .regex(/^[^\0]+\.json$/i, PROFILE_HINT)
  .max(1024);

export const ApplianceDefinition = z.strictObject({
  name: ApplianceName,
  seed: z
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .describe("seed of the data-plane simulation"),
  // Both sides name what is accepted: zod reports the union's error for a non-string, the closer option's otherwise.
  profile: z
    .union([z.enum(PROFILE_NAMES), ProfileFile], { error: PROFILE_HINT })
    .describe(
      "a shipped profile (a file name under fleet-config/profiles/, without .json), or " +
        "the path of a profile file of your own, relative to the fleet file",
    ),
  webUi: z.strictObject({
    listener: z.strictObject({
      address: z.ipv4(),
      port: z.int().min(1).max(65535),
    }),
    hostname: z
      .string()
      .regex(/^[a-z0-9.-]+$/)
      .optional()
      .describe("the name this appliance answers to when deployed (webUi.hostname)"),
    peers: z.array(PeerDefinition).default([]),
  }),
  captureMirrorAllowlist: z
    .array(z.string().regex(/^[0-9a-fA-F:.]+(\/\d{1,3})?$/, "an address or prefix"))
    .default([])
    .describe("collectors a packet capture may mirror to; empty = any"),
});

export const FleetFile = z
  .strictObject({
    portBase: z
      .int()
      .min(1)
      .max(65535)
      .default(8443)
      .describe("the port the listeners below are written against; BNG_PORT_BASE moves them all by the same offset"),
    appliances: z.array(ApplianceDefinition).min(1),
  })
  .superRefine((fleet, ctx) => {
    const names = fleet.appliances.map((a) => a.name);
    fleet.appliances.forEach((appliance, i) => {
      if (names.indexOf(appliance.name) !== i) {
        ctx.addIssue({
          code: "custom",
          path: ["appliances", i, "name"],
          message: `duplicate appliance name '${appliance.name}'`,
        });
      }
      appliance.webUi.peers.forEach((peer, j) => {
        const path = ["appliances", i, "webUi", "peers", j];
        if (peer.name === appliance.name) {
          ctx.addIssue({ code: "custom", path: [...path, "name"], message: "an appliance is not its own peer" });
        } else if (!names.includes(peer.name) && !peer.url) {
          ctx.addIssue({
            code: "custom",
            path: [...path, "url"],
            message: `'${peer.name}' is not in this fleet, so its url is required`,
          });
        }
        if (!names.includes(peer.name) && !peer.credential) {
          ctx.addIssue({
            code: "custom",
            path: [...path, "credential"],
            message: `'${peer.name}' is not in this fleet, so its credential is required`,
          });
        }
      });
    });
  });

export type FleetFile = z.infer<typeof FleetFile>;
export type ApplianceDefinition = z.infer<typeof ApplianceDefinition>;
export type PeerDefinition = z.infer<typeof PeerDefinition>;

/** Whether an appliance's `profile` names a shipped profile rather than a file of the user's. */
export const isShippedProfile = (profile: string): profile is (typeof PROFILE_NAMES)[number] =>
  (PROFILE_NAMES as readonly string[]).includes(profile);

/** Formats a zod failure as one line per field, each naming the field's path. */
export function describeIssues(error: z.ZodError, prefix = ""): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join(".");
    return `${prefix}${path || "(root)"}: ${issue.message}`;
  });
}

/** How the listeners are reached: BNG_PORT_BASE moves every port by one offset; BNG_HTTP=1 serves plain HTTP. */
export interface ListenerOptions {
  portBase?: number | undefined;
  http?: boolean | undefined;
}

/** The origin an appliance listens on, e.g. `https://127.0.0.1:8443`: what an API client (Node, Python) uses. */
export function listenerOrigin(
  fleet: FleetFile,
  appliance: ApplianceDefinition,
  options: ListenerOptions = {},
): string {
  const { address, port } = appliance.webUi.listener;
  const shifted = port - fleet.portBase + (options.portBase ?? fleet.portBase);
  return `${options.http ? "http" : "https"}://${address.includes(":") ? `[${address}]` : address}:${shifted}`;
}

/** `localhost` and the names under it, which browsers and curl resolve to loopback themselves (RFC 6761 §6.3). */
export const isLocalhostName = (name: string): boolean => name === "localhost" || name.endsWith(".localhost");

/** Listener addresses a `*.localhost` name reaches: IPv4 loopback, or every address. */
const LOCALHOST_REACHES = new Set(["127.0.0.1", "0.0.0.0", "::"]);

/**
 * Where a person's browser reaches an appliance (issue #47): at its own `*.localhost` host name (its
 * `webUi.hostname`, `edge-1.bng.localhost` in the shipped fleet) when it has one and listens where that name
 * reaches, else at its listener's address. A browser keeps a cookie per host, not per port (RFC 6265 §8.5), so
 * appliances served at 127.0.0.1 on their ports all receive each other's session cookie; each at a host name of
 * its own, none does. Node's and Python's resolvers do not resolve `*.localhost`: API clients use listenerOrigin.
 */
export function browserOrigin(fleet: FleetFile, appliance: ApplianceDefinition, options: ListenerOptions = {}): string {
  const { hostname, listener } = appliance.webUi;
  const origin = new URL(listenerOrigin(fleet, appliance, options));
  const named = hostname !== undefined && isLocalhostName(hostname) && LOCALHOST_REACHES.has(listener.address);
  if (named) origin.hostname = hostname;
  return origin.origin;
}

/**
 * Whether a request's host name (`Host` without its port) is one an appliance's local listener answers to: an
 * address (no DNS name stands behind it to rebind), `localhost`, or the appliance's own `webUi.hostname` (given as
 * `hostname`). Any other
 * name reached the listener through a resolver someone else controls (DNS rebinding: a page of `evil.example`
 * resolved to 127.0.0.1 drives the appliance as its own origin) or is another appliance's: 421 (issue #47).
 */
export function answersToHost(hostname: string | undefined, host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  if (name.startsWith("[") || /^\d+\.\d+\.\d+\.\d+$/.test(name)) return true;
  return name === "localhost" || name === hostname?.toLowerCase();
}
