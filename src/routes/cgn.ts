/** CGN: bindings, status and the identification of auto-learned bindings. */
import { z } from "zod";
import { route } from "../http/route.ts";
import { CgnBindingRow, CgnBindingsPage, CgnStatus } from "../schemas/cgn.ts";
import { pageQuery } from "../schemas/common.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";

const int32 = z.int32();
const uint32 = z.int().min(0).max(2 ** 32 - 1);
const count = z.int().min(0);

const CgnIdentifyBinding = z
  .object({
    subscriberId: z.string().trim().min(1).max(253).meta({ description: "the subscriber the binding belongs to, as the compliance log should name it" }),
  })
  .meta({ id: "CgnIdentifyBinding" });

const caseInsensitive = z.string().trim().min(1).max(256);
const BindingsQuery = pageQuery(100, 1000).extend({
  group: caseInsensitive.optional().meta({ description: "exact, case-insensitive" }),
  vrf: caseInsensitive.optional().meta({ description: "inside VRF, exact, case-insensitive; `default` matches the default table" }),
  ip: caseInsensitive.optional().meta({ description: "prefix match on the inside or public IPv4 address (an address, a CIDR, or leading text)" }),
});

export const cgnRoutes = [
  route({
    method: "GET",
    path: "/api/v1/cgn/bindings",
    section: "CGN",
    summary: "CGN bindings, filtered (AND) and paged, by bindingIndex",
    fp: true,
    query: BindingsQuery,
    response: { description: "CgnBindingsPage", schema: CgnBindingsPage },
    handle: (ctx) => ctx.appliance.stub.dataPlane().cgnBindings(ctx.query),
  }),
  route({
    method: "GET",
    path: "/api/v1/cgn/status",
    section: "CGN",
    summary: "CGN caps, binding counts, per-group configuration and port-block utilisation, native counters",
    description: "When CGN is not running the configured half still renders, with `running` false.",
    fp: true,
    response: { description: "CgnStatus", schema: CgnStatus },
    handle: (ctx) => ctx.appliance.stub.dataPlane().cgnStatus(),
  }),
  route({
    method: "POST",
    path: "/api/v1/cgn/bindings/{bindingIndex}/identify",
    section: "CGN",
    summary: "Identify an anonymous auto-learned binding: name its subscriber (audited)",
    description:
      "Only auto-learned bindings can be identified: 404 for an unknown binding, 409 for a binding that belongs to a session. " +
      "One compliance Identify log event (`cgn.identify`) is emitted per port block, and the acting principal is audited (`audit.cgn.identify`). " +
      "The spec calls the identify body optional; here it is required, because identification is what sets `subscriberId` and no other source for it exists: " +
      "a request without a body is refused with 400 rather than guessing a subscriber.",
    params: z.object({ bindingIndex: z.coerce.number().int().min(0).max(2 ** 32 - 1).meta({ description: "uint32" }) }),
    body: CgnIdentifyBinding,
    response: { description: "the binding, now carrying `subscriberId`", schema: CgnBindingRow },
    errors: [404, 409],
    handle: async (ctx) =>
      unwrap(await ctx.appliance.stub.dataPlane().identifyBinding(ctx.params.bindingIndex, ctx.body.subscriberId, actorName(ctx.principal!))).binding,
  }),
];
