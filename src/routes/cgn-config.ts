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
import { inWorker } from "../http/route.ts";
import { commitResult, type CommitStamp } from "../schemas/commit.ts";
import { cgnConfig, type CgnGroupConfig, type CgnGroupWrite } from "../schemas/cgn-config.ts";
import { unwrap } from "../http/refusal.ts";
import { committed, readAt } from "../http/config-version.ts";

const text = (value: number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

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

const cgnResult = (name: string, summary: CommitStamp) => ({
  ...commitResult(name, summary),
  restartRequired: true as const,
});

/** A configured group as a row, compared with the running group of its name. */
function groupRow(item: ConfigItem, running: Profile["cgn"]): CgnGroupConfig {
  const configured = cgnGroupSettings(item);
  const live = running.groups.find((g) => g.name === item.key);
  return { ...configured, pendingRestart: !live || JSON.stringify(settingsOf(live)) !== JSON.stringify(configured) };
}

export const cgnConfigRoutes = [
  inWorker(cgnConfig.groups, async (ctx) => {
    const { items, running } = readAt(ctx, await ctx.port.cgnConfig.groups());
    return items.map((item) => groupRow(item, running));
  }),
  inWorker(cgnConfig.group, async (ctx) => {
    const { item, running } = readAt(ctx, unwrap(await ctx.port.cgnConfig.group(ctx.params.name)));
    return groupRow(item, running);
  }),
  inWorker(cgnConfig.putGroup, async (ctx) =>
    cgnResult(
      ctx.params.name,
      committed(
        ctx,
        await ctx.port.cgnConfig.putGroup(ctx.params.name, groupChildren(ctx.body), ctx.body.comment ?? null),
      ),
    ),
  ),
  inWorker(cgnConfig.deleteGroup, async (ctx) =>
    cgnResult(
      ctx.params.name,
      committed(ctx, await ctx.port.cgnConfig.deleteGroup(ctx.params.name, ctx.query.comment ?? null)),
    ),
  ),
  inWorker(cgnConfig.settings, async (ctx) => {
    const { maxBindings, maxFlows, running } = readAt(ctx, await ctx.port.cgnConfig.settings());
    return {
      maxBindings,
      maxFlows,
      pendingRestart: running.maxBindings !== maxBindings || running.maxFlows !== maxFlows,
    };
  }),
  inWorker(cgnConfig.putSettings, async (ctx) =>
    cgnResult(
      "settings",
      committed(
        ctx,
        await ctx.port.cgnConfig.putSettings(
          { maxBindings: ctx.body.maxBindings, maxFlows: ctx.body.maxFlows },
          ctx.body.comment,
        ),
      ),
    ),
  ),
];
