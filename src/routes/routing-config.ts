/**
 * Routing configuration (designed: the spec names "routing configuration
 * operations" without showing them). One read, and writes that all run the
 * configuration pipeline (validation with 422 listing every rejected value,
 * history, hot-apply): the global settings (local AS, router id, the IGP) by
 * merge, BGP neighbors one by one, and the static route table as a whole.
 * Mutations under `/routing/config` are super-user (the spec's common rule).
 * The BGP password is write-only: reads say whether one is set.
 */
import type { ConfigItem } from "../config/types.ts";
import type { EditValue } from "../config/edit.ts";
import { IGP_INTERFACES_LIST, familiesOf, parseStaticRouteKey, routerIdOf } from "../config/routing.ts";
import { StatusError } from "../http/problem.ts";
import { inWorker } from "../http/route.ts";
import { configCommitResult } from "../schemas/commit.ts";
import { committed, readAt } from "../http/config-version.ts";
import { formatPrefix, parsePrefix } from "../../simulator/prefix.ts";
import type { IgpProtocol } from "../../simulator/vocabulary.ts";
import { routingConfig, routingConfigLists, type BgpNeighborConfig } from "../schemas/routing-config.ts";
import { ConfigList } from "./keyed-list.ts";

const neighbors = new ConfigList(routingConfigLists.neighbors);
const staticRoutes = new ConfigList(routingConfigLists.staticRoutes);
const interfaces = new ConfigList(routingConfigLists.interfaces);

const text = (value: number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

/**
 * `routing.staticRoutes` keys, `<vrf>:<prefix>` with the prefix in canonical form (so two spellings of one prefix are
 * one route).
 */
function staticRouteKey(r: { vrf: string; prefix: string }): string {
  const p = parsePrefix(r.prefix.trim(), true);
  return `${r.vrf}:${p && r.prefix.includes("/") ? formatPrefix(p) : r.prefix}`;
}

const neighborRow = (item: ConfigItem): BgpNeighborConfig => ({
  address: item.key,
  ...neighbors.rowValues(item),
  addressFamilies: familiesOf(item.key, strings(item.values.addressFamilies)),
  passwordConfigured: ConfigList.secretSet(item, "password"),
});

export const routingConfigRoutes = [
  inWorker(routingConfig.get, async (ctx) => {
    const {
      neighbors: neighborItems,
      staticRoutes: statics,
      interfaces: interfaceItems,
      localAs,
      routerId,
      protocol,
    } = readAt(ctx, await ctx.port.routingConfig.get());
    return {
      localAs: typeof localAs === "number" ? localAs : null,
      routerId: str(routerId),
      effectiveRouterId: routerIdOf({
        fields: { "routing.routerId": routerId },
        lists: { [IGP_INTERFACES_LIST]: interfaceItems },
      }),
      neighbors: neighborItems.map(neighborRow),
      staticRoutes: statics.flatMap(({ key, values: v }) => {
        const parsed = parseStaticRouteKey(key);
        return parsed
          ? [{ vrf: parsed.vrf, prefix: parsed.prefix, ...staticRoutes.rowValues({ key, values: v }) }]
          : [];
      }),
      igp: {
        protocol: (str(protocol) ?? "none") as IgpProtocol,
        interfaces: interfaceItems.map((item) => ({ name: item.key, ...interfaces.rowValues(item) })),
      },
    };
  }),
  inWorker(routingConfig.update, async (ctx) => {
    const fields: Record<string, EditValue> = {};
    if (ctx.body.localAs !== undefined) fields["bgp.localAs"] = text(ctx.body.localAs);
    if (ctx.body.routerId !== undefined) fields["routing.routerId"] = ctx.body.routerId;
    if (ctx.body.igp?.protocol !== undefined) fields["igp.protocol"] = ctx.body.igp.protocol;
    const lists: Record<string, { key: string; fields: Record<string, EditValue> }[]> = {};
    const given = ctx.body.igp?.interfaces;
    if (given !== undefined) {
      const dup = given.findIndex((i, n) => given.findIndex((j) => j.name === i.name) !== n);
      if (dup >= 0)
        throw new StatusError(
          400,
          `invalid request: body igp/interfaces/${dup}/name: interface '${given[dup]!.name}' is given twice`,
          { errors: [{ in: "body", pointer: `#/igp/interfaces/${dup}/name`, detail: "given twice" }] },
        );
      lists[IGP_INTERFACES_LIST] = given.map((i) => ({ key: i.name, fields: interfaces.children(i, "replace") }));
    }
    return configCommitResult(committed(ctx, await ctx.port.routingConfig.update(fields, lists, ctx.body.comment)));
  }),
  inWorker(
    routingConfig.createNeighbor,
    neighbors.write(
      "create",
      (ctx) => String(ctx.body.address),
      (ctx) => ctx.port.routingConfig.createNeighbor,
    ),
  ),
  inWorker(
    routingConfig.replaceNeighbor,
    neighbors.write(
      "replace",
      (ctx) => ctx.params.address!,
      (ctx) => ctx.port.routingConfig.replaceNeighbor,
    ),
  ),
  inWorker(
    routingConfig.removeNeighbor,
    neighbors.erase("address", (ctx) => ctx.port.routingConfig.removeNeighbor),
  ),
  inWorker(routingConfig.replaceStaticRoutes, async (ctx) => {
    const keys = ctx.body.routes.map(staticRouteKey);
    const dup = keys.findIndex((k, n) => keys.indexOf(k) !== n);
    if (dup >= 0)
      throw new StatusError(400, `invalid request: body routes/${dup}: the route ${keys[dup]} is given twice`, {
        errors: [{ in: "body", pointer: `#/routes/${dup}/prefix`, detail: `${keys[dup]} is given twice` }],
      });
    const items = ctx.body.routes.map((r, n) => ({
      key: keys[n]!,
      fields: staticRoutes.children(r, "replace"),
    }));
    return configCommitResult(
      committed(ctx, await ctx.port.routingConfig.replaceStaticRoutes(items, ctx.body.comment)),
    );
  }),
];
