/**
 * The profile: everything that shapes one simulated appliance (subscriber
 * base, encapsulations, ports, plans, VRFs, AAA, pools, CGN, churn, traffic).
 * This zod schema is the single source of validation and of the types.
 */
import { z } from "zod";
import { poolIssues } from "./pool-rules.ts";
import { parseIpv4, parsePrefix, prefixSpan, type Prefix } from "./prefix.ts";

/** The four encapsulations of the spec's SessionSummary `encap`. */
export const ENCAPS = ["ipoe", "pppoe-local", "pppoe-lac", "l2tp"] as const;
export type Encap = (typeof ENCAPS)[number];

export { MAX_STATIC_OFFSET } from "./pool-rules.ts";

/**
 * The largest subscriber base a profile may have: the shipped `xlarge`'s, the
 * largest this product holds (docs/running.md, Memory: one such appliance takes most of
 * a deployed object's 128 MB heap). The model allocates per subscriber, so an
 * unbounded base (2e9) would be an allocation of gigabytes.
 */
export const MAX_SUBSCRIBERS = 272_000;

const Name = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, "a name of letters, digits, '.', '_', '-'");
const Weight = z.number().min(0);
const Probability = z.number().min(0).max(1);
const Share = z.number().min(0).max(1);
const HourlyCurve = z.array(z.number().min(0)).length(24).describe("24 multipliers, local hours 00-23");
const PrefixText = z
  .string()
  .refine((t) => parsePrefix(t) !== null, "a prefix with host bits zero, e.g. 100.64.0.0/10");
const Ipv4PrefixText = PrefixText.refine((t) => parsePrefix(t)?.family === 4, "an IPv4 prefix");
const HostText = z.string().regex(/^[A-Za-z0-9.:-]+$/);

const Port = z.strictObject({
  portId: z.int().min(0).max(255),
  label: z.string().min(1),
  weight: Weight.describe("share of non-LNS subscribers on this port"),
  vlans: z.strictObject({
    svlanFirst: z.int().min(1).max(4094),
    svlanCount: z.int().min(1).max(4094),
    cvlanFirst: z.int().min(1).max(4094),
    cvlanCount: z.int().min(1).max(4094),
  }),
});

const Realm = z.strictObject({
  domain: z.string().regex(/^[a-z0-9.-]+$/),
  weight: Weight,
  encaps: z.array(z.enum(ENCAPS)).min(1).describe("encapsulations whose subscribers may belong to this realm"),
  vrf: Name.describe("VRF the realm's sessions are placed in; 'default' = global table"),
});

const Plan = z.strictObject({
  name: Name,
  downloadKbps: z.int().positive(),
  uploadKbps: z.int().positive(),
  weight: Weight,
});

const RadiusServer = z.strictObject({
  host: HostText,
  port: z.int().min(1).max(65535).default(1812),
  weight: z.int().min(1).max(1000),
  failureProbability: Probability.describe("chance that one request times out"),
});

const Pool = z.strictObject({
  name: Name,
  family: z.enum(["ipv4", "ipv6-wan", "ipv6-pd"]),
  vrf: Name.nullable().describe("null = default table"),
  delegationLength: z.int().min(1).max(128),
  description: z.string().default(""),
  subnets: z.array(z.strictObject({ prefix: PrefixText, announce: z.boolean() })).min(1),
  exclude: z.array(PrefixText).default([]),
  static: z.array(z.strictObject({ prefix: PrefixText, username: z.string().min(1) })).default([]),
});

const CgnGroup = z.strictObject({
  name: Name,
  description: z.string().default(""),
  insideVrfs: z.array(Name).min(1).describe("subscriber VRFs whose IPv4 pools this group translates"),
  outsideVrf: Name,
  publicSubnets: z.array(Ipv4PrefixText).min(1),
  chunkSize: z.int().min(64).max(32768),
  portCap: z.int().min(64).max(64512),
  setupsPerSec: z.int().positive(),
  bindingTimeoutSeconds: z.int().positive(),
  quarantineSeconds: z.int().min(0),
  bypassPrefixes: z.array(Ipv4PrefixText).default([]),
  autoLearn: z.array(z.strictObject({ insideVrf: Name, prefixes: z.array(Ipv4PrefixText).min(1) })).default([]),
  autoLearnSourcesPerSecond: z.number().min(0).default(0).describe("new anonymous sources seen per second"),
  flowsPerSubscriber: z
    .number()
    .positive()
    .describe("mean concurrent flows of an average subscriber at the daily peak"),
  timeouts: z.strictObject({
    tcpEstablished: z.int().positive(),
    tcpTransitory: z.int().positive(),
    udp: z.int().positive(),
    icmp: z.int().positive(),
  }),
});

const Ipv4Text = z.string().refine((t) => parseIpv4(t) !== null, "an IPv4 address, e.g. 198.51.100.1");

const L2tpPeer = z.strictObject({
  realm: z
    .string()
    .regex(/^[a-z0-9.-]+$/)
    .describe("the realm (identities.realms domain) whose sessions ride tunnels to or from this peer"),
  ip: Ipv4Text,
  port: z.int().min(1).max(65535).default(1701),
  hostname: z.string().min(1).max(253).describe("the peer's Host Name AVP"),
  vendor: z.string().min(1).max(64).nullable().default(null).describe("the peer's Vendor Name AVP"),
  vrf: Name.nullable().default(null).describe("VRF the tunnel runs in (underlay); null = global table"),
  weight: z.number().positive().default(1).describe("share of the realm's sessions on this peer"),
});

/** L2TP (RFC 2661): the LNS peers pppoe-lac sessions are forwarded to, and the LAC peers l2tp sessions arrive from. */
const L2tp = z.strictObject({
  localAddress: Ipv4Text.default("192.0.2.1").describe("this appliance's tunnel endpoint address"),
  idleTimeoutSeconds: z
    .int()
    .min(0)
    .max(86_400)
    .default(300)
    .describe("a tunnel left without sessions this long is closed (StopCCN)"),
  closedRetentionSeconds: z.int().min(0).max(3600).default(60).describe("how long a closed tunnel stays listed"),
  maxSessionsPerTunnel: z
    .int()
    .min(1)
    .max(65_535)
    .default(2000)
    .describe("a further tunnel to the same peer is opened beyond this"),
  helloIntervalSeconds: z.int().min(10).max(3600).default(60).describe("a silent peer is found out at the next Hello"),
  lockoutSeconds: z.int().min(0).max(86_400).default(300).describe("a peer whose tunnel failed is passed over so long"),
  lnsPeers: z
    .array(L2tpPeer)
    .default([])
    .describe("upstream: wholesale LNSs, per realm; a realm listing none gets two derived peers"),
  lacPeers: z
    .array(L2tpPeer)
    .default([])
    .describe("downstream: remote LACs, per realm; a realm listing none gets two derived peers"),
});

/** Session time-out per encapsulation, in hours; null = none (simulator/lifetimes.ts). */
const SessionTimeouts = z
  .strictObject({
    ipoe: z.number().positive().nullable().default(null),
    "pppoe-local": z.number().positive().nullable().default(null),
    "pppoe-lac": z.number().positive().nullable().default(null),
    l2tp: z.number().positive().nullable().default(null),
  })
  .prefault({});

/**
 * What ends sessions and how long subscribers stay away (simulator/lifetimes.ts, docs/simulation.md
 * "Session lifetimes" gives the sources): per-subscriber line outages, CPE reboots and firmware pushes,
 * CPEs switched off for hours or days, and a forced reconnect where the operator sets one.
 */
const Churn = z.strictObject({
  dailyCurve: HourlyCurve.describe("when subscribers act, by local hour: CPE power-cycles and switch-offs follow it"),
  lineOutages: z
    .strictObject({
      atLeastMonthly: Share.default(0.43).describe("share of subscribers whose line drops at least once a month"),
      atLeastWeekly: Share.default(0.17).describe("share of subscribers whose line drops at least once a week"),
    })
    .prefault({}),
  cpeRebootsPerMonth: z.number().min(0).max(100).default(0.5).describe("power-cycles and crashes of a CPE a month"),
  firmwarePushDays: z
    .number()
    .positive()
    .nullable()
    .default(90)
    .describe("a CPE takes a firmware push (and reboots) every this many days on average; null = none"),
  maintenanceWindow: z
    .strictObject({ fromHour: z.int().min(0).max(23).default(2), hours: z.int().min(1).max(24).default(3) })
    .prefault({})
    .describe("local hours firmware pushes happen in"),
  absence: z
    .strictObject({
      minHours: z.number().positive().default(1),
      maxDays: z.number().positive().default(14),
    })
    .prefault({})
    .describe("how long a switched-off CPE stays off (log-uniform); subscribers − steadyStateSessions are off"),
  sessionTimeoutHours: SessionTimeouts.describe("forced reconnect (Session-Timeout) per encapsulation; null = none"),
});

const ProfileFields = z.strictObject({
  name: Name,
  description: z.string().default(""),
  utcOffsetMinutes: z.int().min(-720).max(840).default(0).describe("local time of the daily curves"),
  population: z.strictObject({
    subscribers: z
      .int()
      .positive()
      .max(
        MAX_SUBSCRIBERS,
        `at most ${MAX_SUBSCRIBERS.toLocaleString("en")} (the xlarge profile's, the largest this product holds)`,
      )
      .describe("subscriber base; each is online at most once"),
    steadyStateSessions: z.int().positive(),
    licensedSessions: z.int().positive().describe("session capacity; setups beyond it are refused"),
    setupsPerSecond: z.number().positive().describe("bring-up and reconnect rate until steady state is reached"),
  }),
  encapMix: z.strictObject({ ipoe: Weight, "pppoe-local": Weight, "pppoe-lac": Weight, l2tp: Weight }),
  ports: z.array(Port).min(1),
  identities: z.strictObject({
    usernamePrefix: z.string().regex(/^[a-z][a-z0-9._-]*$/),
    usernameDigits: z.int().min(4).max(10),
    macOuis: z.array(z.string().regex(/^[0-9a-f]{2}(:[0-9a-f]{2}){2}$/)).min(1),
    macOuiWeights: z
      .array(z.number().min(0))
      .optional()
      .describe(
        "share of subscribers' CPEs per OUI, in macOuis order; absent: 1, 1/2, 1/3… (the ISP's supplied CPE first)",
      ),
    realms: z.array(Realm).min(1),
  }),
  vrfs: z.array(z.strictObject({ name: Name, description: z.string().default("") })).min(1),
  plans: z.array(Plan).min(1),
  walledGardenShare: Share,
  walledGardenKbps: z.int().positive().default(128),
  dualStack: z.strictObject({ wanShare: Share, pdShare: Share }),
  churn: Churn,
  leases: z.strictObject({
    ipoeLeaseSeconds: z.int().min(60),
    renewFailureProbability: Probability.describe("chance a DHCPREQUEST or its ACK is lost; the client retries"),
  }),
  negotiation: z.strictObject({
    offerHoldSeconds: z.int().min(1).describe("how long an abandoned DHCP OFFER or PPP IPCP holds its block"),
    abandonProbability: Probability,
    declineProbability: Probability.describe(
      "chance a DHCP client declines its offer (block quarantined for one hour)",
    ),
  }),
  aaa: z.strictObject({
    localShare: Share.describe("share of subscribers authenticated from the local subscriber table"),
    rejectProbability: Probability,
    maxAttempts: z.int().min(1).max(10),
    deadAfterFailures: z.int().min(1),
    deadTimeSeconds: z.int().min(1),
    interimSeconds: z.int().min(60).max(86_400).default(600).describe("Acct-Interim-Interval (RFC 2869)"),
    accountingQueue: z.int().min(0).max(1_000_000).default(100_000).describe("records kept while no server answers"),
    servers: z.array(RadiusServer),
  }),
  pools: z.array(Pool).min(1),
  cgn: z.strictObject({
    maxBindings: z.int().positive(),
    maxFlows: z.int().positive(),
    eventRingPerSecond: z.int().positive().describe("port-block events the logger ring drains per second"),
    groups: z.array(CgnGroup),
  }),
  traffic: z.strictObject({
    dailyCurve: HourlyCurve,
    meanActivity: Share.describe("mean share of the plan rate a subscriber uses at the daily peak"),
    upstream: z
      .strictObject({
        medianRatio: z.number().positive().max(10).default(0.07).describe("upload over download, median subscriber"),
        sigma: z.number().min(0).max(3).default(0.9).describe("its spread across subscribers (log-normal)"),
      })
      .prefault({}),
    uploadBursts: z
      .strictObject({
        perDay: Share.default(0.3).describe("chance a subscriber makes an upload burst on a given day"),
        minMinutes: z.number().positive().default(1),
        maxMinutes: z.number().positive().max(50).default(10).describe("a burst lasts from min to max (log-uniform)"),
        planShare: Share.default(0.9).describe("of the plan's upload rate, during a burst"),
      })
      .prefault({}),
    transitShare: z
      .number()
      .min(0)
      .max(10)
      .default(0.1)
      .describe("traffic crossing the core uplinks that is not the subscribers', per byte of their download (wire.ts)"),
  }),
  alarms: z
    .strictObject({
      poolHighPercent: z.number().min(1).max(100).default(90),
      poolClearPercent: z.number().min(0).max(100).default(80),
      cgnHighPercent: z.number().min(1).max(100).default(90),
      cgnClearPercent: z.number().min(0).max(100).default(80),
      capacityHighPercent: z.number().min(1).max(100).default(95),
      capacityClearPercent: z.number().min(0).max(100).default(90),
      sessionLossPercent: z.number().min(0).max(100).default(5).describe("sessions lost in 5 min, % of those up"),
      sessionLossMin: z.int().min(1).default(100).describe("and at least this many"),
    })
    .prefault({}),
  logging: z
    .strictObject({
      sessionEventsPerStep: z
        .int()
        .min(0)
        .default(25)
        .describe("individual session up/down entries per 10 s sub-step; the rest are aggregated"),
    })
    .prefault({}),
  // Optional without a default, so profiles without it keep their fingerprint (snapshots stay valid).
  l2tp: L2tp.optional(),
});

/** The profile schema. */
export const Profile = ProfileFields.superRefine(checkProfile);

/** A validated profile. */
export type Profile = z.infer<typeof Profile>;
/** A pool as configured in a profile (and as the simulation runs it: see pool-rules.ts). */
export type PoolConfig = Profile["pools"][number];
/** A CGN group as configured in a profile. */
export type CgnGroupConfig = Profile["cgn"]["groups"][number];

/** Validates raw JSON as a profile, answering either the profile or one line per problem. */
export function parseProfile(raw: unknown): { ok: true; profile: Profile } | { ok: false; issues: string[] } {
  const result = Profile.safeParse(raw);
  if (result.success) return { ok: true, profile: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((i) => `${i.path.map(String).join(".") || "(root)"}: ${i.message}`),
  };
}

type Ctx = z.RefinementCtx;

/** Cross-field rules zod's per-field schemas cannot express. */
function checkProfile(profile: z.output<typeof ProfileFields>, ctx: Ctx): void {
  const issue = (path: (string | number)[], message: string): void => {
    ctx.addIssue({ code: "custom", path, message });
  };
  const vrfNames = new Set(profile.vrfs.map((v) => v.name));
  if (!vrfNames.has("default")) issue(["vrfs"], "the global table 'default' must be listed");
  unique(
    profile.vrfs.map((v) => v.name),
    ["vrfs"],
    issue,
  );
  unique(
    profile.ports.map((x) => String(x.portId)),
    ["ports"],
    issue,
  );
  unique(
    profile.plans.map((x) => x.name),
    ["plans"],
    issue,
  );
  unique(
    profile.pools.map((x) => x.name),
    ["pools"],
    issue,
  );
  unique(
    profile.cgn.groups.map((x) => x.name),
    ["cgn", "groups"],
    issue,
  );
  unique(
    profile.aaa.servers.map((s) => `${s.host}:${s.port}`),
    ["aaa", "servers"],
    issue,
  );
  if (profile.vrfs.length > 250) issue(["vrfs"], "at most 250 VRFs");
  if (profile.population.steadyStateSessions > profile.population.subscribers) {
    issue(["population", "steadyStateSessions"], "cannot exceed the subscriber base");
  }
  if (profile.population.licensedSessions > 4_000_000) issue(["population", "licensedSessions"], "at most 4,000,000");
  if (sum(Object.values(profile.encapMix)) <= 0) issue(["encapMix"], "at least one weight must be positive");
  if (sum(profile.ports.map((x) => x.weight)) <= 0) issue(["ports"], "at least one weight must be positive");
  if (sum(profile.plans.map((x) => x.weight)) <= 0) issue(["plans"], "at least one weight must be positive");
  if (profile.aaa.localShare < 1 && profile.aaa.servers.length === 0) {
    issue(["aaa", "servers"], "RADIUS servers are required unless every subscriber is local");
  }
  const outages = profile.churn.lineOutages;
  if (outages.atLeastWeekly > 0 && outages.atLeastWeekly >= outages.atLeastMonthly) {
    issue(["churn", "lineOutages", "atLeastWeekly"], "must be below atLeastMonthly (weekly is also monthly)");
  }
  if (outages.atLeastMonthly >= 1) issue(["churn", "lineOutages", "atLeastMonthly"], "must be below 1");
  if (profile.churn.absence.minHours >= profile.churn.absence.maxDays * 24) {
    issue(["churn", "absence", "minHours"], "must be below maxDays");
  }
  if (sum(profile.churn.dailyCurve) <= 0) issue(["churn", "dailyCurve"], "at least one hour must be positive");
  const ouiWeights = profile.identities.macOuiWeights;
  if (ouiWeights && ouiWeights.length !== profile.identities.macOuis.length) {
    issue(["identities", "macOuiWeights"], "must give one weight per macOuis entry");
  } else if (ouiWeights && sum(ouiWeights) <= 0)
    issue(["identities", "macOuiWeights"], "at least one weight must be positive");
  const bursts = profile.traffic.uploadBursts;
  if (bursts.minMinutes > bursts.maxMinutes) {
    issue(["traffic", "uploadBursts", "minMinutes"], "must not exceed maxMinutes");
  }
  const alarms = profile.alarms;
  if (alarms.poolClearPercent >= alarms.poolHighPercent)
    issue(["alarms", "poolClearPercent"], "must be below poolHighPercent");
  if (alarms.cgnClearPercent >= alarms.cgnHighPercent)
    issue(["alarms", "cgnClearPercent"], "must be below cgnHighPercent");
  if (alarms.capacityClearPercent >= alarms.capacityHighPercent) {
    issue(["alarms", "capacityClearPercent"], "must be below capacityHighPercent");
  }

  for (const encap of ["ipoe", "pppoe-local", "pppoe-lac", "l2tp"] as const) {
    if (
      profile.encapMix[encap] > 0 &&
      !profile.identities.realms.some((r) => r.encaps.includes(encap) && r.weight > 0)
    ) {
      issue(["identities", "realms"], `no realm with a positive weight serves encapsulation '${encap}'`);
    }
  }
  profile.identities.realms.forEach((realm, i) => {
    if (!vrfNames.has(realm.vrf)) issue(["identities", "realms", i, "vrf"], `unknown VRF '${realm.vrf}'`);
    else if (!profile.pools.some((pool) => pool.family === "ipv4" && (pool.vrf ?? "default") === realm.vrf)) {
      issue(["identities", "realms", i, "vrf"], `VRF '${realm.vrf}' has no IPv4 pool`);
    }
  });

  if (profile.l2tp) {
    const l2tp = profile.l2tp;
    const peersFor = [
      ["lnsPeers", "pppoe-lac"],
      ["lacPeers", "l2tp"],
    ] as const;
    for (const [list, encap] of peersFor) {
      l2tp[list].forEach((peer, i) => {
        const realm = profile.identities.realms.find((r) => r.domain === peer.realm);
        if (!realm) issue(["l2tp", list, i, "realm"], `unknown realm '${peer.realm}'`);
        else if (!realm.encaps.includes(encap))
          issue(["l2tp", list, i, "realm"], `realm '${peer.realm}' does not serve '${encap}'`);
        if (peer.vrf !== null && !vrfNames.has(peer.vrf)) issue(["l2tp", list, i, "vrf"], `unknown VRF '${peer.vrf}'`);
      });
    }
    // Local tunnel ids are 16 bits: full tunnels alone must leave room for many more.
    if (profile.population.licensedSessions / l2tp.maxSessionsPerTunnel > 30_000) {
      issue(["l2tp", "maxSessionsPerTunnel"], "too small for population.licensedSessions: at most 30,000 full tunnels");
    }
  }

  profile.pools.forEach((pool, i) => {
    if (!vrfNames.has(pool.vrf ?? "default")) issue(["pools", i, "vrf"], `unknown VRF '${pool.vrf ?? "default"}'`);
  });
  const translated = new Set(profile.cgn.groups.flatMap((g) => g.insideVrfs));
  for (const p of poolIssues(profile.pools, translated)) {
    // Duplicate names are reported with the other lists' duplicates above.
    if (p.field === "name" && p.message.startsWith("duplicate")) continue;
    const field = p.field === "name" ? [] : p.field === "subnets" || p.field === "announce" ? ["subnets"] : [p.field];
    const tail =
      p.field === "subnets"
        ? ["prefix"]
        : p.field === "announce"
          ? ["announce"]
          : p.field === "static"
            ? ["prefix"]
            : [];
    issue(["pools", p.pool, ...field, ...(p.element === undefined ? [] : [p.element, ...tail])], p.message);
  }

  const cgnVrfs = new Map<string, string>();
  profile.cgn.groups.forEach((group, i) => {
    if (group.portCap % group.chunkSize !== 0)
      issue(["cgn", "groups", i, "portCap"], "must be a multiple of chunkSize");
    if (group.portCap / group.chunkSize > 64)
      issue(["cgn", "groups", i, "portCap"], "at most 64 port blocks per binding");
    if (Math.floor(64512 / group.chunkSize) < 1) issue(["cgn", "groups", i, "chunkSize"], "too large");
    if (!vrfNames.has(group.outsideVrf)) issue(["cgn", "groups", i, "outsideVrf"], `unknown VRF '${group.outsideVrf}'`);
    group.insideVrfs.forEach((v, j) => {
      if (!vrfNames.has(v)) issue(["cgn", "groups", i, "insideVrfs", j], `unknown VRF '${v}'`);
      const other = cgnVrfs.get(v);
      if (other !== undefined) issue(["cgn", "groups", i, "insideVrfs", j], `already translated by group '${other}'`);
      cgnVrfs.set(v, group.name);
    });
    group.autoLearn.forEach((a, j) => {
      if (!vrfNames.has(a.insideVrf))
        issue(["cgn", "groups", i, "autoLearn", j, "insideVrf"], `unknown VRF '${a.insideVrf}'`);
    });
    const publicAddresses = group.publicSubnets.reduce((n, s) => n + Number(prefixSpan(parsePrefix(s) as Prefix)), 0);
    if (publicAddresses > 1 << 20) issue(["cgn", "groups", i, "publicSubnets"], "at most 2^20 public addresses");
  });
}

function unique(
  values: string[],
  path: (string | number)[],
  issue: (path: (string | number)[], message: string) => void,
): void {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) issue(path, `duplicate '${v}'`);
    seen.add(v);
  }
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
