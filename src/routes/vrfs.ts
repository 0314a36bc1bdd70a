/**
 * VRFs: the configured routing tables (the `vrfs` keyed list of the
 * configuration) beside the VRF names live sessions are seen in. Writes go
 * through the configuration pipeline and hot-apply.
 */
import { implement } from "../http/route.ts";
import { vrfList, vrfs } from "../schemas/vrfs.ts";
import { ConfigList } from "./keyed-list.ts";

const operation = "vrf";
const list = new ConfigList(vrfList);

export const vrfRoutes = [
  implement(vrfs.list, async (ctx) => {
    const [items, summary] = await Promise.all([list.items(ctx), ctx.appliance.stub.dataPlane().sessionSummary()]);
    const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    const configured = items
      .map((item) => ({ name: item.key, configured: true, sessions: summary.byVrf[item.key] ?? 0, ...list.rowValues(item) }))
      .sort(byName);
    const names = new Set(items.map((item) => item.key));
    const observed = Object.entries(summary.byVrf)
      .filter(([name, count]) => count > 0 && !names.has(name))
      .map(([name, count]) => ({ name, configured: false, sessions: count }))
      .sort(byName);
    return [...configured, ...observed];
  }),
  implement(vrfs.create, list.put("create", operation, (ctx) => String(ctx.body.name))),
  implement(vrfs.replace, list.put("replace", operation, (ctx) => ctx.params.name!)),
  implement(vrfs.remove, list.remove(operation, "name")),
];
