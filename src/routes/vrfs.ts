/**
 * VRFs: the configured routing tables (the `vrfs` keyed list of the
 * configuration) beside the VRF names live sessions are seen in. Writes go
 * through the configuration pipeline and hot-apply.
 */
import { readAt } from "../http/config-version.ts";
import { inWorker } from "../http/route.ts";
import { vrfList, vrfs } from "../schemas/vrfs.ts";
import { ConfigList } from "./keyed-list.ts";

const list = new ConfigList(vrfList);

export const vrfRoutes = [
  inWorker(vrfs.list, async (ctx) => {
    const { items, byVrf } = readAt(ctx, await ctx.port.vrfs.list());
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const configured = items
      .map((item) => ({ name: item.key, configured: true, sessions: byVrf[item.key] ?? 0, ...list.rowValues(item) }))
      .sort(byName);
    const names = new Set(items.map((item) => item.key));
    const observed = Object.entries(byVrf)
      .filter(([name, count]) => count > 0 && !names.has(name))
      .map(([name, count]) => ({ name, configured: false, sessions: count }))
      .sort(byName);
    return [...configured, ...observed];
  }),
  inWorker(
    vrfs.create,
    list.write(
      "create",
      (ctx) => String(ctx.body.name),
      (ctx) => ctx.port.vrfs.create,
    ),
  ),
  inWorker(
    vrfs.replace,
    list.write(
      "replace",
      (ctx) => ctx.params.name!,
      (ctx) => ctx.port.vrfs.replace,
    ),
  ),
  inWorker(
    vrfs.remove,
    list.erase("name", (ctx) => ctx.port.vrfs.remove),
  ),
];
