/**
 * Source VRF rules: traffic arriving in one VRF from given source subnets is
 * routed into another VRF, without NAT. The rules are the `sourceVrfRules`
 * keyed list of the configuration; writes go through its pipeline and
 * hot-apply.
 */
import { z } from "zod";
import type { ConfigItem } from "../config/types.ts";
import { route } from "../http/route.ts";
import { CommitResult } from "../schemas/commit.ts";
import { KeyedList } from "./keyed-list.ts";

const base = "/api/v1/source-vrf-rules";
const operation = "source-vrf-rule";

const rules = new KeyedList({
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

const SourceVrfRule = z.object({ name: z.string().meta({ description: "immutable key" }), ...rules.rowFields() }).meta({ id: "SourceVrfRule" });

const RuleCreate = z
  .object({ name: z.string().meta({ description: "immutable key" }), ...rules.bodyFields("create") })
  .meta({ id: "SourceVrfRuleWrite", description: "shapes are checked here (400), values by configuration validation (422)" });
const RuleUpdate = z
  .object({ name: z.string().optional().meta({ description: "ignored: the name is immutable and the URL's wins" }), ...rules.bodyFields("replace") })
  .meta({ id: "SourceVrfRuleUpdate" });

const NameParams = z.object({ name: z.string().min(1).max(255) });

const rule = (item: ConfigItem) => ({ name: item.key, ...rules.rowValues(item) });

const WRITE_NOTE =
  "Committed through the configuration pipeline and applied without restart. 422 when validation rejects: a VRF that is not configured (nor `default`), ingestVrf equal to targetVrf, a subnet that is not a CIDR prefix, or subnets overlapping another rule on the same ingest VRF; every rejected value is listed under `#/lists/sourceVrfRules/<name>/…`.";

export const sourceVrfRuleRoutes = [
  route({
    method: "GET",
    path: base,
    section: "Source VRF Rules",
    summary: "Source VRF rules, in configuration order",
    response: { description: "array of SourceVrfRule", schema: z.array(SourceVrfRule) },
    handle: async (ctx) => (await rules.items(ctx)).map(rule),
  }),
  route({
    method: "POST",
    path: base,
    section: "Source VRF Rules",
    summary: "Create a source VRF rule (validated, committed, hot-applied)",
    description: `409 when a rule of that name exists. ${WRITE_NOTE}`,
    floor: "super-user",
    body: RuleCreate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [409, 412, 422],
    handle: rules.put("create", operation, (ctx) => String(ctx.body.name)),
  }),
  route({
    method: "GET",
    path: `${base}/{name}`,
    section: "Source VRF Rules",
    summary: "One source VRF rule",
    params: NameParams,
    response: { description: "SourceVrfRule", schema: SourceVrfRule },
    errors: [404],
    handle: async (ctx) => rule(await rules.item(ctx, ctx.params.name)),
  }),
  route({
    method: "PUT",
    path: `${base}/{name}`,
    section: "Source VRF Rules",
    summary: "Replace a source VRF rule",
    description: `A full replacement; the name is immutable and the URL's wins over the body's. 404 for an unknown rule (PUT does not create). ${WRITE_NOTE}`,
    floor: "super-user",
    params: NameParams,
    body: RuleUpdate,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 412, 422],
    handle: rules.put("replace", operation, (ctx) => ctx.params.name!),
  }),
  route({
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
    handle: rules.remove(operation, "name"),
  }),
];
