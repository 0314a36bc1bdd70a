/**
 * Source VRF rules: traffic arriving in one VRF from given source subnets is
 * routed into another VRF, without NAT. The rules are the `sourceVrfRules`
 * keyed list of the configuration; writes go through its pipeline and
 * hot-apply.
 */
import { z } from "zod";
import type { ConfigItem } from "../config/types.ts";
import type { EditValue } from "../config/edit.ts";
import { route } from "../http/route.ts";
import { CommitResult, commitResult, commitMeta } from "../schemas/commit.ts";
import { unwrap } from "../http/refusal.ts";

const LIST = "sourceVrfRules";
const base = "/api/v1/source-vrf-rules";

const SourceVrfRule = z
  .object({
    name: z.string().meta({ description: "immutable key" }),
    ingestVrf: z.string().meta({ description: "VRF the traffic arrives in (a configured VRF or `default`)" }),
    sourceSubnets: z.array(z.string()).meta({ description: "CIDR prefixes matched; empty = every source in the ingest VRF" }),
    targetVrf: z.string().meta({ description: "VRF matching traffic is routed into (no NAT)" }),
  })
  .meta({ id: "SourceVrfRule" });

const ruleFields = {
  ingestVrf: z.string().meta({ description: "a configured VRF or `default`" }),
  sourceSubnets: z.array(z.string()).nullable().optional().meta({ description: "CIDR prefixes with host bits zero; null or empty = every source" }),
  targetVrf: z.string().meta({ description: "a configured VRF or `default`, other than ingestVrf" }),
  comment: z.string().max(1024).nullable().optional().meta({ description: "commit comment, request only" }),
};

const RuleCreate = z
  .object({ name: z.string().meta({ description: "immutable key" }), ...ruleFields })
  .meta({ id: "SourceVrfRuleWrite", description: "shapes are checked here (400), values by configuration validation (422)" });
const RuleUpdate = z
  .object({ name: z.string().optional().meta({ description: "ignored: the name is immutable and the URL's wins" }), ...ruleFields })
  .meta({ id: "SourceVrfRuleUpdate" });

const NameParams = z.object({ name: z.string().min(1).max(255) });
const DeleteQuery = z.object({ comment: z.string().max(1024).optional().meta({ description: "commit comment, recorded in the configuration history" }) });

const children = (body: z.output<typeof RuleUpdate>): Record<string, EditValue> => ({
  ingestVrf: body.ingestVrf,
  sourceSubnets: body.sourceSubnets ?? [],
  targetVrf: body.targetVrf,
});

const rule = ({ key, values }: ConfigItem): z.infer<typeof SourceVrfRule> => ({
  name: key,
  ingestVrf: String(values.ingestVrf),
  sourceSubnets: Array.isArray(values.sourceSubnets) ? values.sourceSubnets : [],
  targetVrf: String(values.targetVrf),
});

const WRITE_NOTE =
  "Committed through the configuration pipeline and applied without restart. 422 when validation rejects: a VRF that is not configured (nor `default`), ingestVrf equal to targetVrf, a subnet that is not a CIDR prefix, or subnets overlapping another rule on the same ingest VRF; every rejected value is listed under `#/lists/sourceVrfRules/<name>/…`.";

export const sourceVrfRuleRoutes = [
  route({
    method: "GET",
    path: base,
    section: "Source VRF Rules",
    summary: "Source VRF rules, in configuration order",
    response: { description: "array of SourceVrfRule", schema: z.array(SourceVrfRule) },
    handle: async (ctx) => (await ctx.appliance.stub.config().items(LIST)).map(rule),
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
    errors: [409, 422],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().putItem(LIST, ctx.body.name, children(ctx.body), "create", commitMeta(ctx.principal, "source-vrf-rule", ctx.body.comment)));
      return commitResult(ctx.body.name, summary);
    },
  }),
  route({
    method: "GET",
    path: `${base}/{name}`,
    section: "Source VRF Rules",
    summary: "One source VRF rule",
    params: NameParams,
    response: { description: "SourceVrfRule", schema: SourceVrfRule },
    errors: [404],
    handle: async (ctx) => rule(unwrap(await ctx.appliance.stub.config().item(LIST, ctx.params.name)).item),
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
    errors: [404, 422],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().putItem(LIST, ctx.params.name, children(ctx.body), "replace", commitMeta(ctx.principal, "source-vrf-rule", ctx.body.comment)));
      return commitResult(ctx.params.name, summary);
    },
  }),
  route({
    method: "DELETE",
    path: `${base}/{name}`,
    section: "Source VRF Rules",
    summary: "Delete a source VRF rule",
    description: "404 for an unknown rule. The optional `comment` query parameter goes to the history.",
    floor: "super-user",
    params: NameParams,
    query: DeleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().deleteItem(LIST, ctx.params.name, commitMeta(ctx.principal, "source-vrf-rule", ctx.query.comment)));
      return commitResult(ctx.params.name, summary);
    },
  }),
];
