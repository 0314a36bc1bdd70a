/**
 * VRFs, the wire contract: the configured routing tables (the `vrfs` keyed list of the configuration) beside the VRF
 * names live sessions are seen in.
 */
import { z } from "zod";
import { CommitResult } from "./commit.ts";
import { operation } from "./contract.ts";
import { KeyedList } from "./keyed-list.ts";

const int32 = z.int32();

/** The `vrfs` keyed list as the section writes and reads it. */
export const vrfList = new KeyedList({
  list: "vrfs",
  body: {
    tableId: "uint32 Linux route table id; unique; 0 and 253-255 are reserved",
    rd: "`<asn>:<number>`; null or empty = none; unique",
    importRt: "route targets `<asn>:<n>` or `<ipv4>:<n>`",
    exportRt: "route targets `<asn>:<n>` or `<ipv4>:<n>`",
    gatewayIp: "subscriber IPv4 gateway inside the VRF",
    gatewayIpv6: "subscriber IPv6 gateway inside the VRF",
    l2tpEndpointIp: "per-VRF L2TP endpoint /32 (an IPv4 address)",
    originateDefaultRoute: null,
  },
  row: { tableId: "uint32 Linux route table id (configured rows)", rd: "route distinguisher; null = none" },
});

// Session-only names carry counts only, so every configured attribute is optional in a row.
const configuredOnly = Object.fromEntries(
  Object.entries(vrfList.rowFields()).map(([name, schema]) => [name, schema.optional()]),
);

export const VrfRow = z
  .object({
    name: z.string(),
    configured: z.boolean().meta({
      description:
        "true: in the configuration, with its routing attributes; false: only seen on " +
        "live sessions (e.g. `default`), counts only",
    }),
    sessions: int32.meta({ description: "live sessions in the VRF" }),
    ...configuredOnly,
  })
  .meta({
    id: "VrfRow",
    description: "configured VRFs carry their routing attributes; session-only names carry counts only",
  });

const Vrf = z
  .object({
    name: z.string().meta({ description: "immutable key; `default` (the global table) cannot be configured" }),
    ...vrfList.bodyFields("create"),
  })
  .meta({
    id: "Vrf",
    description: "the VRF body; shapes are checked here (400), values by configuration validation (422)",
  });
const VrfReplacement = z
  .object({
    name: z.string().optional().meta({ description: "ignored: the URL's name wins" }),
    ...vrfList.bodyFields("replace"),
  })
  .meta({ id: "VrfReplacement" });

const NameParams = z.object({ name: z.string().min(1).max(255) });

/** The section's operations. */
export const vrfs = {
  list: operation({
    method: "GET",
    path: "/api/v1/vrfs",
    section: "VRFs",
    summary: "VRFs: configured ones with their routing attributes, plus names seen only on live sessions",
    description:
      "Configured VRFs first (`configured: true`, by name) with their attributes and " +
      "live session count; then VRF names that live sessions are in but the " +
      "configuration does not hold (`configured: false`, e.g. `default`, the global " +
      "table), with their counts only. A VRF committed a moment ago is listed at once.",
    fp: true,
    response: { description: "array of VrfRow", schema: z.array(VrfRow) },
    examples: {
      response: [
        {
          name: "cgn-inside",
          configured: true,
          sessions: 669,
          tableId: 100,
          rd: "64500:100",
          importRt: ["64500:100"],
          exportRt: ["64500:100"],
          gatewayIp: null,
          gatewayIpv6: null,
          l2tpEndpointIp: null,
          originateDefaultRoute: false,
        },
        {
          name: "cust-acme",
          configured: true,
          sessions: 0,
          tableId: 200,
          rd: "64500:200",
          importRt: ["64500:200"],
          exportRt: ["64500:200"],
          gatewayIp: null,
          gatewayIpv6: null,
          l2tpEndpointIp: null,
          originateDefaultRoute: false,
        },
      ],
    },
  }),
  create: operation({
    method: "POST",
    path: "/api/v1/vrfs",
    section: "VRFs",
    summary: "Create a VRF (validated, committed, hot-applied)",
    description:
      "Committed through the configuration pipeline as the `vrfs` item of that name " +
      "and applied without restart. 409 when the name exists; 422 when validation " +
      "rejects (syntax of rd and route targets, addresses, a tableId or rd already in " +
      "use), listing every rejected value under `#/lists/vrfs/<name>/…`.",
    body: Vrf,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [409, 412, 422],
    examples: {
      body: {
        name: "cust-acme",
        tableId: 200,
        rd: "64500:200",
        importRt: ["64500:200"],
        exportRt: ["64500:200"],
        comment: "VRF for ACME Ltd",
      },
      response: {
        status: "committed",
        name: "cust-acme",
        committedUtc: "2026-11-26T20:35:12.146Z",
        version: 3,
        restartRequired: false,
      },
      errors: {
        409: "vrfs 'cust-acme' already exists",
        422:
          "the configuration change was rejected (1 problem): " +
          "#/lists/vrfs/cust-acme/tableId: tableId 100 is already used by vrfs 'cgn-inside'",
      },
    },
  }),
  replace: operation({
    method: "PUT",
    path: "/api/v1/vrfs/{name}",
    section: "VRFs",
    summary: "Replace a VRF's attributes",
    description:
      "A full replacement: attributes left out return to their defaults. The URL's " +
      "name wins over the body's. 404 for an unknown VRF (PUT does not create); 422 " +
      "when validation rejects.",
    params: NameParams,
    body: VrfReplacement,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412, 422],
    examples: {
      params: { name: "cust-acme" },
      body: {
        tableId: 200,
        rd: "64500:200",
        importRt: ["64500:200", "64500:1"],
        exportRt: ["64500:200"],
        comment: "ACME also imports the shared services",
      },
      response: {
        status: "committed",
        name: "cust-acme",
        committedUtc: "2026-11-26T20:35:13.333Z",
        version: 12,
        restartRequired: false,
      },
      errors: { 404: "no vrfs item 'cust-acme'" },
    },
  }),
  remove: operation({
    method: "DELETE",
    path: "/api/v1/vrfs/{name}",
    section: "VRFs",
    summary: "Delete a VRF",
    description:
      "404 for an unknown VRF; 409 while a source-VRF rule still names it (as " +
      "ingestVrf or targetVrf): delete or change the rule first. The optional " +
      "`comment` query parameter goes to the history.",
    params: NameParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 409, 412],
    examples: {
      params: { name: "cust-acme" },
      query: { comment: "ACME Ltd moved away" },
      response: {
        status: "committed",
        name: "cust-acme",
        committedUtc: "2026-11-26T20:35:13.675Z",
        version: 22,
        restartRequired: false,
      },
      errors: { 404: "no vrfs item 'cust-acme'" },
    },
  }),
};
