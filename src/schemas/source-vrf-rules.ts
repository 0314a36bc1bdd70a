/**
 * Source VRF rules, the wire contract: traffic arriving in one VRF from given source subnets is routed into another
 * VRF, without NAT (the `sourceVrfRules` keyed list of the configuration).
 */
import { z } from "zod";
import { CommitResult } from "./commit.ts";
import { operation } from "./contract.ts";
import { KeyedList } from "./keyed-list.ts";

const base = "/api/v1/source-vrf-rules";

/** The keyed list as the section writes and reads it. */
export const sourceVrfRuleList = new KeyedList({
  list: "sourceVrfRules",
  body: {
    ingestVrf: "a configured VRF or `default`",
    sourceSubnets: "CIDR prefixes with host bits zero; null or empty = every source",
    targetVrf: "a configured VRF or `default`, other than ingestVrf",
    comment: "commit comment, request only",
  },
  row: {
    ingestVrf: "VRF the traffic arrives in (a configured VRF or `default`)",
    sourceSubnets: "CIDR prefixes matched; empty = every source in the ingest VRF",
    targetVrf: "VRF matching traffic is routed into (no NAT)",
  },
});

const SourceVrfRule = z
  .object({ name: z.string().meta({ description: "immutable key" }), ...sourceVrfRuleList.rowFields() })
  .meta({ id: "SourceVrfRule" });

const RuleCreate = z
  .object({ name: z.string().meta({ description: "immutable key" }), ...sourceVrfRuleList.bodyFields("create") })
  .meta({
    id: "SourceVrfRuleWrite",
    description: "shapes are checked here (400), values by configuration validation (422)",
  });
const RuleUpdate = z
  .object({
    name: z.string().optional().meta({ description: "ignored: the name is immutable and the URL's wins" }),
    ...sourceVrfRuleList.bodyFields("replace"),
  })
  .meta({ id: "SourceVrfRuleUpdate" });

const NameParams = z.object({ name: z.string().min(1).max(255) });

const WRITE_NOTE =
  "Committed through the configuration pipeline and applied without restart. 422 " +
  "when validation rejects: a VRF that is not configured (nor `default`), " +
  "ingestVrf equal to targetVrf, a subnet that is not a CIDR prefix, or subnets " +
  "overlapping another rule on the same ingest VRF; every rejected value is listed " +
  "under `#/lists/sourceVrfRules/<name>/…`.";

/** The section's operations. */
export const sourceVrfRules = {
  list: operation({
    method: "GET",
    path: base,
    section: "Source VRF Rules",
    summary: "Source VRF rules, in configuration order",
    description:
      "Each rule's `name`, `ingestVrf`, `sourceSubnets` and `targetVrf`, in " +
      "configuration order, which is the order the data plane matches them in: a " +
      "subscriber's traffic from its ingest VRF is steered into the target VRF of the " +
      "first rule that matches its source address (the session detail's `steering` " +
      "names it).",
    response: { description: "array of SourceVrfRule", schema: z.array(SourceVrfRule) },
    examples: {
      response: [
        { name: "partner-noc", ingestVrf: "wholesale", sourceSubnets: ["10.200.0.0/24"], targetVrf: "default" },
        { name: "partner-mgmt", ingestVrf: "wholesale", sourceSubnets: ["10.201.0.0/24"], targetVrf: "default" },
      ],
    },
  }),
  create: operation({
    method: "POST",
    path: base,
    section: "Source VRF Rules",
    summary: "Create a source VRF rule (validated, committed, hot-applied)",
    description: `409 when a rule of that name exists. ${WRITE_NOTE}`,
    floor: "super-user",
    body: RuleCreate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [409, 412, 422],
    examples: {
      body: {
        name: "partner-mgmt",
        ingestVrf: "wholesale",
        sourceSubnets: ["10.201.0.0/24"],
        targetVrf: "default",
        comment: "partner management network",
      },
      response: {
        status: "committed",
        name: "partner-mgmt",
        committedUtc: "2026-11-26T20:35:12.183Z",
        version: 4,
        restartRequired: false,
      },
      errors: { 409: "sourceVrfRules 'partner-mgmt' already exists" },
    },
  }),
  get: operation({
    method: "GET",
    path: `${base}/{name}`,
    section: "Source VRF Rules",
    summary: "One source VRF rule",
    description: "The rule as the rule list shows it; 404 for an unknown name.",
    params: NameParams,
    response: { description: "SourceVrfRule", schema: SourceVrfRule },
    errors: [404],
    examples: {
      params: { name: "partner-noc" },
      response: { name: "partner-noc", ingestVrf: "wholesale", sourceSubnets: ["10.200.0.0/24"], targetVrf: "default" },
      errors: { 404: "no sourceVrfRules item 'partner-noc'" },
    },
  }),
  replace: operation({
    method: "PUT",
    path: `${base}/{name}`,
    section: "Source VRF Rules",
    summary: "Replace a source VRF rule",
    description:
      `A full replacement; the name is immutable and the URL's wins over the body's. ` +
      `404 for an unknown rule (PUT does not create). ${WRITE_NOTE}`,
    floor: "super-user",
    params: NameParams,
    body: RuleUpdate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412, 422],
    examples: {
      params: { name: "partner-mgmt" },
      body: { ingestVrf: "wholesale", sourceSubnets: ["10.201.0.0/24", "10.202.0.0/24"], targetVrf: "default" },
      response: {
        status: "committed",
        name: "partner-mgmt",
        committedUtc: "2026-11-26T20:35:13.343Z",
        version: 13,
        restartRequired: false,
      },
      errors: { 404: "no sourceVrfRules item 'partner-mgmt'" },
    },
  }),
  remove: operation({
    method: "DELETE",
    path: `${base}/{name}`,
    section: "Source VRF Rules",
    summary: "Delete a source VRF rule",
    description: "404 for an unknown rule. The optional `comment` query parameter goes to the history.",
    floor: "super-user",
    params: NameParams,
    query: KeyedList.deleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412],
    examples: {
      params: { name: "partner-mgmt" },
      query: { comment: "partner management network retired" },
      response: {
        status: "committed",
        name: "partner-mgmt",
        committedUtc: "2026-11-26T20:35:13.739Z",
        version: 23,
        restartRequired: false,
      },
      errors: { 404: "no sourceVrfRules item 'partner-mgmt'" },
    },
  }),
};
