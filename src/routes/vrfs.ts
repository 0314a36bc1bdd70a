/**
 * VRFs: the configured routing tables (the `vrfs` keyed list of the
 * configuration) beside the VRF names live sessions are seen in. Writes go
 * through the configuration pipeline and hot-apply.
 */
import { z } from "zod";
import type { EditValue } from "../config/edit.ts";
import { route } from "../http/route.ts";
import { CommitResult, commitResult, commitMeta } from "../schemas/commit.ts";
import { unwrap } from "../http/refusal.ts";

const LIST = "vrfs";
const int32 = z.int32();

const VrfRow = z
  .object({
    name: z.string(),
    configured: z.boolean().meta({ description: "true: in the configuration, with its routing attributes; false: only seen on live sessions (e.g. `default`), counts only" }),
    sessions: int32.meta({ description: "live sessions in the VRF" }),
    tableId: z.int().optional().meta({ description: "uint32 Linux route table id (configured rows)" }),
    rd: z.string().nullable().optional().meta({ description: "route distinguisher; null = none" }),
    importRt: z.array(z.string()).optional(),
    exportRt: z.array(z.string()).optional(),
    gatewayIp: z.string().nullable().optional(),
    gatewayIpv6: z.string().nullable().optional(),
    l2tpEndpointIp: z.string().nullable().optional(),
    originateDefaultRoute: z.boolean().optional(),
  })
  .meta({ id: "VrfRow", description: "configured VRFs carry their routing attributes; session-only names carry counts only" });

const nullableText = z.string().nullable().optional();
const routeTargets = z.array(z.string()).nullable().optional();

const vrfFields = {
  tableId: z.int().meta({ description: "uint32 Linux route table id; unique; 0 and 253-255 are reserved" }),
  rd: nullableText.meta({ description: "`<asn>:<number>`; null or empty = none; unique" }),
  importRt: routeTargets.meta({ description: "route targets `<asn>:<n>` or `<ipv4>:<n>`" }),
  exportRt: routeTargets.meta({ description: "route targets `<asn>:<n>` or `<ipv4>:<n>`" }),
  gatewayIp: nullableText.meta({ description: "subscriber IPv4 gateway inside the VRF" }),
  gatewayIpv6: nullableText.meta({ description: "subscriber IPv6 gateway inside the VRF" }),
  l2tpEndpointIp: nullableText.meta({ description: "per-VRF L2TP endpoint /32 (an IPv4 address)" }),
  comment: z.string().max(1024).nullable().optional().meta({ description: "commit comment, recorded in the configuration history" }),
  originateDefaultRoute: z.boolean().default(false),
};

const Vrf = z
  .object({ name: z.string().meta({ description: "immutable key; `default` (the global table) cannot be configured" }), ...vrfFields })
  .meta({ id: "Vrf", description: "the VRF body; shapes are checked here (400), values by configuration validation (422)" });
const VrfReplacement = z
  .object({ name: z.string().optional().meta({ description: "ignored: the URL's name wins" }), ...vrfFields })
  .meta({ id: "VrfReplacement" });

const NameParams = z.object({ name: z.string().min(1).max(255) });
const DeleteQuery = z.object({ comment: z.string().max(1024).optional().meta({ description: "commit comment, recorded in the configuration history" }) });

/** The body as configuration children (absent optional attributes return to their defaults: a full replacement). */
function children(body: z.output<typeof VrfReplacement>): Record<string, EditValue> {
  return {
    tableId: String(body.tableId),
    rd: body.rd ?? null,
    importRt: body.importRt ?? [],
    exportRt: body.exportRt ?? [],
    gatewayIp: body.gatewayIp ?? null,
    gatewayIpv6: body.gatewayIpv6 ?? null,
    l2tpEndpointIp: body.l2tpEndpointIp ?? null,
    originateDefaultRoute: String(body.originateDefaultRoute),
  };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const textOrNull = (value: unknown): string | null => (typeof value === "string" ? value : null);

export const vrfRoutes = [
  route({
    method: "GET",
    path: "/api/v1/vrfs",
    section: "VRFs",
    summary: "VRFs: configured ones with their routing attributes, plus names seen only on live sessions",
    description:
      "Configured VRFs first (`configured: true`, by name) with their attributes and live session count; then VRF names that live sessions are in but the configuration does not hold (`configured: false`, e.g. `default`, the global table), with their counts only. A VRF committed a moment ago is listed at once.",
    fp: true,
    response: { description: "array of VrfRow", schema: z.array(VrfRow) },
    handle: async (ctx) => {
      const [items, summary] = await Promise.all([ctx.appliance.stub.config().items(LIST), ctx.appliance.stub.dataPlane().sessionSummary()]);
      const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
      const configured = items
        .map(({ key, values }) => ({
          name: key,
          configured: true,
          sessions: summary.byVrf[key] ?? 0,
          tableId: Number(values.tableId),
          rd: textOrNull(values.rd),
          importRt: strings(values.importRt),
          exportRt: strings(values.exportRt),
          gatewayIp: textOrNull(values.gatewayIp),
          gatewayIpv6: textOrNull(values.gatewayIpv6),
          l2tpEndpointIp: textOrNull(values.l2tpEndpointIp),
          originateDefaultRoute: values.originateDefaultRoute === true,
        }))
        .sort(byName);
      const names = new Set(items.map((item) => item.key));
      const observed = Object.entries(summary.byVrf)
        .filter(([name, count]) => count > 0 && !names.has(name))
        .map(([name, count]) => ({ name, configured: false, sessions: count }))
        .sort(byName);
      return [...configured, ...observed];
    },
  }),
  route({
    method: "POST",
    path: "/api/v1/vrfs",
    section: "VRFs",
    summary: "Create a VRF (validated, committed, hot-applied)",
    description:
      "Committed through the configuration pipeline as the `vrfs` item of that name and applied without restart. 409 when the name exists; 422 when validation rejects (syntax of rd and route targets, addresses, a tableId or rd already in use), listing every rejected value under `#/lists/vrfs/<name>/…`.",
    body: Vrf,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [409, 422],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().putItem(LIST, ctx.body.name, children(ctx.body), "create", commitMeta(ctx.principal, "vrf", ctx.body.comment)));
      return commitResult(ctx.body.name, summary);
    },
  }),
  route({
    method: "PUT",
    path: "/api/v1/vrfs/{name}",
    section: "VRFs",
    summary: "Replace a VRF's attributes",
    description: "A full replacement: attributes left out return to their defaults. The URL's name wins over the body's. 404 for an unknown VRF (PUT does not create); 422 when validation rejects.",
    params: NameParams,
    body: VrfReplacement,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 422],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().putItem(LIST, ctx.params.name, children(ctx.body), "replace", commitMeta(ctx.principal, "vrf", ctx.body.comment)));
      return commitResult(ctx.params.name, summary);
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/vrfs/{name}",
    section: "VRFs",
    summary: "Delete a VRF",
    description: "404 for an unknown VRF; 409 while a source-VRF rule still names it (as ingestVrf or targetVrf): delete or change the rule first. The optional `comment` query parameter goes to the history.",
    params: NameParams,
    query: DeleteQuery,
    response: { description: "CommitResult", schema: CommitResult },
    errors: [404, 409],
    handle: async (ctx) => {
      const summary = unwrap(await ctx.appliance.stub.config().deleteItem(LIST, ctx.params.name, commitMeta(ctx.principal, "vrf", ctx.query.comment)));
      return commitResult(ctx.params.name, summary);
    },
  }),
];
