/**
 * CGN configuration: groups (the `cgn.groups` keyed list) and the global
 * caps (`cgn.maxBindings`, `cgn.maxFlows`). Writes go through the
 * configuration pipeline and answer CgnCommitResult with `restartRequired`
 * true: CGN allocators are built at startup, so a change takes effect when
 * the appliance next starts, and GET /cgn/status shows the running groups
 * until then. Reads show the configuration, each marked `pendingRestart`
 * where it differs from what runs.
 */
import { autoLearnElements, cgnGroupSettings, settingsOf } from "../config/cgn.ts";
import type { ConfigItem } from "../config/types.ts";
import type { EditValue } from "../config/edit.ts";
import type { Profile } from "../../simulator/index.ts";
import { implement } from "../http/route.ts";
import { commitResult, commitMeta } from "../schemas/commit.ts";
import { cgnConfig, type CgnGroupConfig, type CgnGroupWrite } from "../schemas/cgn-config.ts";
import { unwrap } from "../http/refusal.ts";
import { committed, tagConfigRead } from "../http/config-version.ts";

const GROUPS = "cgn.groups";

const text = (value: number | null | undefined): string | null => (value === null || value === undefined ? null : String(value));

/** The body as configuration children; `insideVrfs` only when given, so an update without it keeps the group's. */
const groupChildren = (body: CgnGroupWrite): Record<string, EditValue> => ({
  description: body.description ?? null,
  ...(body.insideVrfs === undefined ? {} : { insideVrfs: body.insideVrfs }),
  outsideVrf: body.outsideVrf ?? null,
  publicSubnets: body.publicSubnets,
  chunkSize: text(body.chunkSize),
  portCap: text(body.portCap),
  setupsPerSec: text(body.setupsPerSec),
  bindingTimeoutSeconds: text(body.bindingTimeoutSeconds),
  quarantineSeconds: text(body.quarantineSeconds),
  bypassPrefixes: body.bypassPrefixes ?? [],
  autoLearn: autoLearnElements(body.autoLearn ?? []),
  "timeouts.tcpEstablished": text(body.timeouts?.tcpEstablished),
  "timeouts.tcpTransitory": text(body.timeouts?.tcpTransitory),
  "timeouts.udp": text(body.timeouts?.udp),
  "timeouts.icmp": text(body.timeouts?.icmp),
});

const cgnResult = (name: string, summary: { version: number; committedUtc: string; restartRequired: boolean }) => ({ ...commitResult(name, summary), restartRequired: true as const });

/** A configured group as a row, compared with the running group of its name. */
function groupRow(item: ConfigItem, running: Profile["cgn"]): CgnGroupConfig {
  const configured = cgnGroupSettings(item);
  const live = running.groups.find((g) => g.name === item.key);
  return { ...configured, pendingRestart: !live || JSON.stringify(settingsOf(live)) !== JSON.stringify(configured) };
}

export const cgnConfigRoutes = [
  implement(cgnConfig.groups, async (ctx) => {
    tagConfigRead(ctx);
    const [items, running] = await Promise.all([ctx.appliance.stub.config().items(GROUPS), ctx.appliance.stub.dataPlane().runningCgn()]);
    return items.map((item) => groupRow(item, running));
  }),
  implement(cgnConfig.group, async (ctx) => {
    tagConfigRead(ctx);
    const [found, running] = await Promise.all([ctx.appliance.stub.config().item(GROUPS, ctx.params.name), ctx.appliance.stub.dataPlane().runningCgn()]);
    return groupRow(unwrap(found).item, running);
  }),
  implement(cgnConfig.putGroup, async (ctx) => {
    const summary = committed(ctx, await ctx.appliance.stub.config().putItem(GROUPS, ctx.params.name, groupChildren(ctx.body), "upsert", commitMeta(ctx, "cgn-group", ctx.body.comment)));
    return cgnResult(ctx.params.name, summary);
  }),
  implement(cgnConfig.deleteGroup, async (ctx) => {
    const summary = committed(ctx, await ctx.appliance.stub.config().deleteItem(GROUPS, ctx.params.name, commitMeta(ctx, "cgn-group", ctx.query.comment)));
    return cgnResult(ctx.params.name, summary);
  }),
  implement(cgnConfig.settings, async (ctx) => {
    tagConfigRead(ctx);
    const config = ctx.appliance.stub.config();
    const [maxBindings, maxFlows, running] = await Promise.all([config.field("cgn.maxBindings"), config.field("cgn.maxFlows"), ctx.appliance.stub.dataPlane().runningCgn()]);
    return { maxBindings: Number(maxBindings), maxFlows: Number(maxFlows), pendingRestart: running.maxBindings !== Number(maxBindings) || running.maxFlows !== Number(maxFlows) };
  }),
  implement(cgnConfig.putSettings, async (ctx) => {
    const fields = { "cgn.maxBindings": String(ctx.body.maxBindings), "cgn.maxFlows": String(ctx.body.maxFlows) };
    const summary = committed(ctx, await ctx.appliance.stub.config().setFields(fields, commitMeta(ctx, "cgn-settings", ctx.body.comment)));
    return cgnResult("settings", summary);
  }),
];
