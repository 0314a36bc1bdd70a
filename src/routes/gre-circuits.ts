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
import { implement } from "../http/route.ts";
import { greCircuitList, greCircuits, greListenerList } from "../schemas/gre-circuits.ts";
import { ConfigList } from "./keyed-list.ts";

const circuits = new ConfigList(greCircuitList);
const listeners = new ConfigList(greListenerList);

const circuitRow = (item: ConfigItem): { id: string } & Record<string, Value> => ({ id: item.key, ...circuits.rowValues(item) });

export const greCircuitRoutes = [
  implement(greCircuits.list, async (ctx) => (await circuits.items(ctx)).map(circuitRow).filter((c) => ctx.query.vrf === undefined || c.vrf === ctx.query.vrf)),
  implement(greCircuits.listeners, async (ctx) => {
    const [listenerItems, circuitItems] = await Promise.all([listeners.items(ctx), circuits.items(ctx)]);
    return listenerItems.map((item) => ({ id: item.key, ...listeners.rowValues(item), circuits: circuitItems.filter((c) => c.values.listenerId === item.key).length }));
  }),
  implement(greCircuits.status, (ctx) => ctx.appliance.stub.gre().status(ctx.query.vrf)),
  implement(greCircuits.putListener, listeners.put("upsert", "gre-listener", (ctx) => ctx.params.id!)),
  implement(greCircuits.removeListener, listeners.remove("gre-listener", "id")),
  implement(greCircuits.create, circuits.put("create", "gre-circuit", (ctx) => String(ctx.body.id))),
  implement(greCircuits.replace, circuits.put("replace", "gre-circuit", (ctx) => ctx.params.id!)),
  implement(greCircuits.remove, circuits.remove("gre-circuit", "id")),
];
