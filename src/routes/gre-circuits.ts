/**
 * GRE customer circuits: listeners (the shared local tunnel endpoints) and
 * circuits (a tunnel from a listener to a customer endpoint, delivered into a
 * VRF) are the `gre.listeners` and `gre.circuits` keyed lists of the
 * configuration; writes go through its pipeline and hot-apply. Live state is
 * the data plane's (`/gre-circuits/status`).
 *
 * Floors follow the spec's common rule: /gre-circuits is not among the
 * super-user prefixes, so its writes are `operator` (reads `read-only`).
 */
import type { ConfigItem, Value } from "../config/types.ts";
import { readAt } from "../http/config-version.ts";
import { inWorker } from "../http/route.ts";
import { greCircuitList, greCircuits, greListenerList } from "../schemas/gre-circuits.ts";
import { ConfigList } from "./keyed-list.ts";

const circuits = new ConfigList(greCircuitList);
const listeners = new ConfigList(greListenerList);

const circuitRow = (item: ConfigItem): { id: string } & Record<string, Value> => ({
  id: item.key,
  ...circuits.rowValues(item),
});

export const greCircuitRoutes = [
  inWorker(greCircuits.list, async (ctx) =>
    readAt(ctx, await ctx.port.greCircuits.list())
      .items.map(circuitRow)
      .filter((c) => ctx.query.vrf === undefined || c.vrf === ctx.query.vrf),
  ),
  inWorker(greCircuits.listeners, async (ctx) => {
    const { listeners: listenerItems, items: circuitItems } = readAt(ctx, await ctx.port.greCircuits.listeners());
    return listenerItems.map((item) => ({
      id: item.key,
      ...listeners.rowValues(item),
      circuits: circuitItems.filter((c) => c.values.listenerId === item.key).length,
    }));
  }),
  inWorker(
    greCircuits.putListener,
    listeners.write(
      "upsert",
      (ctx) => ctx.params.id!,
      (ctx) => ctx.port.greCircuits.putListener,
    ),
  ),
  inWorker(
    greCircuits.removeListener,
    listeners.erase("id", (ctx) => ctx.port.greCircuits.removeListener),
  ),
  inWorker(
    greCircuits.create,
    circuits.write(
      "create",
      (ctx) => String(ctx.body.id),
      (ctx) => ctx.port.greCircuits.create,
    ),
  ),
  inWorker(
    greCircuits.replace,
    circuits.write(
      "replace",
      (ctx) => ctx.params.id!,
      (ctx) => ctx.port.greCircuits.replace,
    ),
  ),
  inWorker(
    greCircuits.remove,
    circuits.erase("id", (ctx) => ctx.port.greCircuits.remove),
  ),
];
