/** Sessions: the live subscriber sessions of the data plane, their detail, rates and force-disconnect. */
import { z } from "zod";
import { enumFilter } from "../schemas/enum-filter.ts";
import { Encoded, route } from "../http/route.ts";
import { pageQuery } from "../schemas/common.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";
import { DisconnectResult, Encap, SessionDetail, SessionList, SessionRates, SessionSummaryCounts } from "../schemas/sessions.ts";

const caseInsensitive = z.string().trim().min(1).max(256);
const SessionQuery = pageQuery(100, 500).extend({
  encap: enumFilter(Encap.options).optional().meta({ description: "`ipoe`, `pppoe-local`, `pppoe-lac` or `l2tp`, any case" }),
  ip: caseInsensitive.optional().meta({ description: "prefix match on the IPv4 or IPv6 WAN address (an address, a CIDR, or leading text)" }),
  port: z.coerce.number().int().min(0).max(2 ** 31 - 1).optional().meta({ description: "subscriber-facing port id; excludes LNS-terminated sessions" }),
  type: caseInsensitive.optional().meta({ description: "`ipoe` or `ppp`" }),
  username: caseInsensitive.optional().meta({ description: "case-insensitive substring" }),
  vrf: caseInsensitive.optional().meta({ description: "exact, case-insensitive; `default` = the global table" }),
  walledGarden: z
    .enum(["true", "false"])
    .transform((v) => v === "true")
    .optional()
    .meta({ description: "true = only walled-garden sessions" }),
});

const SessionId = z.object({ id: z.coerce.number().int().min(0).max(2 ** 32 - 1).meta({ description: "uint32 session id" }) });

export const sessionRoutes = [
  route({
    method: "GET",
    path: "/api/v1/sessions",
    section: "Sessions",
    summary: "Live sessions, newest first, filtered (AND) and paged",
    fp: true,
    query: SessionQuery,
    response: { description: "SessionList", schema: SessionList },
    handle: (ctx) => new Encoded(ctx.appliance.stub.dataPlane().sessionListText(ctx.query)),
  }),
  route({
    method: "GET",
    path: "/api/v1/sessions/summary",
    section: "Sessions",
    summary: "Session counts by type, encapsulation, port and VRF",
    fp: true,
    response: { description: "SessionSummaryCounts", schema: SessionSummaryCounts },
    handle: (ctx) => ctx.appliance.stub.dataPlane().sessionSummary(),
  }),
  route({
    method: "GET",
    path: "/api/v1/sessions/{id}",
    section: "Sessions",
    summary: "One session in detail: addresses and pools, AAA, plan, CGN binding, counters, capture",
    fp: true,
    params: SessionId,
    response: { description: "SessionDetail", schema: SessionDetail },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().sessionDetail(ctx.params.id)).session,
  }),
  route({
    method: "GET",
    path: "/api/v1/sessions/{id}/rates",
    section: "Sessions",
    summary: "A session's live rates over the last 10-second interval",
    fp: true,
    params: SessionId,
    response: { description: "SessionRates", schema: SessionRates },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.dataPlane().sessionRates(ctx.params.id)).rates,
  }),
  route({
    method: "DELETE",
    path: "/api/v1/sessions/{id}",
    section: "Sessions",
    summary: "Force-disconnect a session, freeing its addresses, CGN binding and capture (audited)",
    params: SessionId,
    response: { description: "the session disconnected", schema: DisconnectResult },
    errors: [404],
    handle: async (ctx) => {
      const { sessionId } = unwrap(await ctx.appliance.stub.dataPlane().disconnect(ctx.params.id, actorName(ctx.principal!)));
      return { status: "disconnected" as const, sessionId };
    },
  }),
];
