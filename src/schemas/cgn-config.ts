/**
 * CGN configuration, the wire contract: groups (the `cgn.groups` keyed list)
 * and the global caps (`cgn.maxBindings`, `cgn.maxFlows`), written through
 * the configuration pipeline and taking effect at the next start.
 */
import { z } from "zod";
import { CgnTimeouts } from "./cgn.ts";
import { CommitResult } from "./commit.ts";
import { operation } from "./contract.ts";
import { configInt } from "./keyed-list.ts";

const section = "CGN";
const count = z.int().min(0);
/** A group's integer, absent or null for its default; its range is the registry's `cgn.groups` child's. */
const groupInt = (child: string) => configInt(`cgn.groups/${child}`).nullable().optional();

const AutoLearn = z.object({ insideVrf: z.string(), prefixes: z.array(z.string()).min(1) });

export const CgnGroupConfig = z
  .object({
    name: z.string(),
    description: z.string(),
    insideVrfs: z.array(z.string()).meta({
      description:
        "subscriber VRFs whose IPv4 sessions the group translates (not in the spec's " +
        "CgnGroup: what the twin's allocator reads)",
    }),
    outsideVrf: z.string(),
    publicSubnets: z.array(z.string()),
    chunkSize: count.meta({ description: "uint16; ports per block" }),
    portCap: count.meta({ description: "uint16; most ports one binding may hold" }),
    setupsPerSec: count,
    bindingTimeoutSeconds: count,
    quarantineSeconds: count,
    bypassPrefixes: z.array(z.string()),
    autoLearn: z.array(AutoLearn),
    timeouts: CgnTimeouts.meta({ description: "seconds" }),
    pendingRestart: z.boolean().meta({
      description:
        "true when the running group differs from (or lacks) this configuration: it takes effect at the next start",
    }),
  })
  .meta({
    id: "CgnGroupConfig",
    description: "a CGN group's configured half (the spec's CgnGroup without live counts)",
  });
export type CgnGroupConfig = z.output<typeof CgnGroupConfig>;

export const CgnGroupWrite = z
  .object({
    name: z.string().optional().meta({ description: "ignored: the URL's name wins" }),
    description: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "at most 255 characters; absent or null = empty" }),
    insideVrfs: z
      .array(z.string())
      .optional()
      .meta({
        description:
          "configured VRFs (or `default`) whose IPv4 sessions the group translates, each " +
          "in one group only. Not in the spec's CgnGroup: absent keeps an existing " +
          "group's, and a new group without it is refused (422)",
      }),
    outsideVrf: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "a configured VRF or `default`; absent or null = `default`" }),
    publicSubnets: z.array(z.string()).meta({
      description: "IPv4 prefixes, host bits zero; at least one; no overlap with each other or another group's",
    }),
    chunkSize: groupInt("chunkSize").meta({ description: "uint16 64-32768; absent or null = 1024" }),
    portCap: groupInt("portCap").meta({
      description: "uint16 64-64512, a multiple of chunkSize, at most 64 blocks; absent or null = 4096",
    }),
    setupsPerSec: groupInt("setupsPerSec").meta({ description: "absent or null = 1000" }),
    bindingTimeoutSeconds: groupInt("bindingTimeoutSeconds").meta({ description: "absent or null = 300" }),
    quarantineSeconds: groupInt("quarantineSeconds").meta({ description: "absent or null = 120" }),
    bypassPrefixes: z
      .array(z.string())
      .nullable()
      .optional()
      .meta({ description: "IPv4 prefixes; absent or null = none" }),
    autoLearn: z
      .array(AutoLearn)
      .nullable()
      .optional()
      .meta({ description: "each `insideVrf` a configured VRF or `default`; absent or null = none" }),
    timeouts: z
      .object({
        tcpEstablished: groupInt("timeouts.tcpEstablished"),
        tcpTransitory: groupInt("timeouts.tcpTransitory"),
        udp: groupInt("timeouts.udp"),
        icmp: groupInt("timeouts.icmp"),
      })
      .nullable()
      .optional()
      .meta({
        description:
          "seconds; each absent or null takes its default: 7440 (RFC 5382), 240 (RFC " +
          "5382), 300 (RFC 4787), 60 (RFC 5508)",
      }),
    comment: z
      .string()
      .max(1024)
      .nullable()
      .optional()
      .meta({ description: "commit comment, recorded in the configuration history" }),
  })
  .meta({
    id: "CgnGroupWrite",
    description:
      "The CGN group write body (not shown in the spec): the configured half of " +
      "CgnGroup. A full replacement: absent optional fields take their defaults, " +
      "except `insideVrfs`. Shapes are checked here (400), values by configuration " +
      "validation (422)",
  });
export type CgnGroupWrite = z.output<typeof CgnGroupWrite>;

export const CgnSettings = z
  .object({
    maxBindings: count.meta({ description: "configured global cap on bindings" }),
    maxFlows: count.meta({ description: "configured global cap on flows" }),
    pendingRestart: z
      .boolean()
      .meta({ description: "true when the running caps differ: they take effect at the next start" }),
  })
  .meta({ id: "CgnSettings" });
export type CgnSettings = z.output<typeof CgnSettings>;

const CgnSettingsWrite = z
  .object({
    maxBindings: configInt("cgn.maxBindings").meta({
      description:
        "1-524288 (what the allocator holds); with the largest group's portCap / " +
        "chunkSize, at most 4194304 port-block slots",
    }),
    maxFlows: configInt("cgn.maxFlows").meta({ description: "1-2147483647" }),
    comment: z
      .string()
      .max(1024)
      .nullable()
      .optional()
      .meta({ description: "commit comment, recorded in the configuration history" }),
  })
  .meta({ id: "CgnSettingsWrite", description: "both caps; values checked by configuration validation (422)" });

export const CgnCommitResult = CommitResult.extend({
  restartRequired: z.literal(true).meta({ description: "always true: CGN allocators are built at startup" }),
}).meta({
  id: "CgnCommitResult",
  description: "CommitResult of a CGN configuration write; the change takes effect at the next start",
});
export type CgnCommitResult = z.output<typeof CgnCommitResult>;

const NameParams = z.object({ name: z.string().min(1).max(255) });
const DeleteQuery = z.object({
  comment: z
    .string()
    .max(1024)
    .optional()
    .meta({ description: "commit comment, recorded in the configuration history" }),
});

const RESTART =
  "Takes effect at the next start of the appliance (CGN allocators are built at " +
  "startup; the data plane then starts afresh): `restartRequired` is always true, " +
  "and GET /api/v1/cgn/status shows the running groups until then.";

/** The section's operations. */
export const cgnConfig = {
  groups: operation({
    method: "GET",
    path: "/api/v1/cgn/groups",
    section,
    summary: "Configured CGN groups, in configuration order, each marked when it waits for a restart",
    description:
      "The configured half of each CGN group (`cgn.groups`): inside VRFs, public " +
      "subnets, block size and port cap, rates, timeouts, bypass and auto-learn " +
      "prefixes. CGN allocators are built at startup, so a group changed since then is " +
      "marked `pendingRestart` and GET /api/v1/cgn/status still shows the running one.",
    response: { description: "array of CgnGroupConfig", schema: z.array(CgnGroupConfig) },
    examples: {
      response: [
        {
          name: "cgn-1",
          description: "residential CGN (RFC 6888 paired pooling)",
          insideVrfs: ["cgn-inside"],
          outsideVrf: "default",
          publicSubnets: ["192.0.2.0/26"],
          chunkSize: 1024,
          portCap: 8192,
          setupsPerSec: 200,
          bindingTimeoutSeconds: 300,
          quarantineSeconds: 120,
          bypassPrefixes: ["100.64.1.0/24"],
          autoLearn: [{ insideVrf: "cgn-inside", prefixes: ["100.127.0.0/16"] }],
          timeouts: { tcpEstablished: 7440, tcpTransitory: 240, udp: 300, icmp: 60 },
          pendingRestart: false,
        },
      ],
    },
  }),
  group: operation({
    method: "GET",
    path: "/api/v1/cgn/groups/{name}",
    section,
    summary: "One configured CGN group",
    description:
      "The group as the group list shows it (configured values, `pendingRestart` when " +
      "the running group differs); 404 for a group that is not configured.",
    params: NameParams,
    response: { description: "CgnGroupConfig", schema: CgnGroupConfig },
    errors: [404],
    examples: {
      params: { name: "cgn-1" },
      response: {
        name: "cgn-1",
        description: "residential CGN (RFC 6888 paired pooling)",
        insideVrfs: ["cgn-inside"],
        outsideVrf: "default",
        publicSubnets: ["192.0.2.0/26"],
        chunkSize: 1024,
        portCap: 8192,
        setupsPerSec: 200,
        bindingTimeoutSeconds: 300,
        quarantineSeconds: 120,
        bypassPrefixes: ["100.64.1.0/24"],
        autoLearn: [{ insideVrf: "cgn-inside", prefixes: ["100.127.0.0/16"] }],
        timeouts: { tcpEstablished: 7440, tcpTransitory: 240, udp: 300, icmp: 60 },
        pendingRestart: false,
      },
      errors: { 404: "no cgn.groups item 'cgn-1'" },
    },
  }),
  putGroup: operation({
    method: "PUT",
    path: "/api/v1/cgn/groups/{name}",
    section,
    summary: "Create or replace a CGN group (takes effect at restart)",
    description:
      `The body is the configured half of CgnGroup (see CgnGroupWrite). ${RESTART} ` +
      ("422 when validation rejects, every rejected value listed under " +
        "`#/lists/cgn.groups/<name>/…` (autoLearn as `<insideVrf>:<prefix>` elements, " +
        "timeouts as `timeouts.<name>`): a VRF that is not configured (nor `default`), a " +
        "VRF translated by another group, ") +
      ("public subnets that overlap each other or another group's, a portCap below " +
        "chunkSize or not a multiple of it, a prefix that is not IPv4 with host bits " +
        "zero, a number out of range, or a translated VRF whose address pools the " +
        "allocator cannot take (public or announced space)."),
    params: NameParams,
    body: CgnGroupWrite,
    response: { description: "CgnCommitResult", schema: CgnCommitResult },
    errors: [412, 422],
    examples: {
      params: { name: "cgn-2" },
      body: {
        description: "business CGN",
        insideVrfs: ["cust-acme"],
        outsideVrf: "default",
        publicSubnets: ["192.0.2.128/27"],
        chunkSize: 512,
        portCap: 4096,
        comment: "CGN group for business subscribers",
      },
      response: {
        status: "committed",
        name: "cgn-2",
        committedUtc: "2026-11-26T20:35:13.305Z",
        version: 10,
        restartRequired: true,
      },
    },
  }),
  deleteGroup: operation({
    method: "DELETE",
    path: "/api/v1/cgn/groups/{name}",
    section,
    summary: "Delete a CGN group (takes effect at restart)",
    description: `404 for an unknown group. ${RESTART} The optional \`comment\` query parameter goes to the history.`,
    params: NameParams,
    query: DeleteQuery,
    response: { description: "CgnCommitResult", schema: CgnCommitResult },
    errors: [404, 412],
    examples: {
      params: { name: "cgn-2" },
      query: { comment: "business CGN retired" },
      response: {
        status: "committed",
        name: "cgn-2",
        committedUtc: "2026-11-26T20:35:13.610Z",
        version: 21,
        restartRequired: true,
      },
      errors: { 404: "no cgn.groups item 'cgn-2'" },
    },
  }),
  settings: operation({
    method: "GET",
    path: "/api/v1/cgn/settings",
    section,
    summary: "Configured CGN caps: maxBindings and maxFlows",
    description:
      "The configured global caps on bindings and flows (`cgn.maxBindings`, " +
      "`cgn.maxFlows`), with `pendingRestart` when the running caps (GET " +
      "/api/v1/cgn/status) differ until the next start.",
    response: { description: "CgnSettings", schema: CgnSettings },
    examples: { response: { maxBindings: 3000, maxFlows: 400000, pendingRestart: false } },
  }),
  putSettings: operation({
    method: "PUT",
    path: "/api/v1/cgn/settings",
    section,
    summary: "Set the CGN caps (takes effect at restart)",
    description:
      `${RESTART} 422 when validation rejects, listed under ` +
      `\`#/fields/cgn.maxBindings\` and \`#/fields/cgn.maxFlows\`.`,
    body: CgnSettingsWrite,
    response: { description: "CgnCommitResult (`name` is `settings`)", schema: CgnCommitResult },
    errors: [412, 422],
    examples: {
      body: { maxBindings: 3000, maxFlows: 400000, comment: "CGN limits as sized" },
      response: {
        status: "committed",
        name: "settings",
        committedUtc: "2026-11-26T20:35:13.305Z",
        version: 10,
        restartRequired: true,
      },
    },
  }),
};
