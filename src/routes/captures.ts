/** Captures: per-session packet mirroring to a GRE collector. */
import { z } from "zod";
import { route } from "../http/route.ts";
import { CaptureRecord, CaptureRow, CaptureStopResult } from "../schemas/captures.ts";
import { unwrap } from "../http/refusal.ts";
import { actorName } from "../schemas/principal.ts";

const limit = z.int32().min(0).nullable().meta({ description: "null or 0 = unlimited" });

// All three keys are required (the spec lists them in the schema's required list); the limits may be null.
const CaptureRequest = z
  .object({
    destinationIp: z.union([z.ipv4(), z.ipv6()]).meta({ description: "GRE collector address; must be on the capture mirror allowlist when one is configured" }),
    maxPackets: limit,
    maxDurationSeconds: limit,
  })
  .meta({ id: "CaptureRequest" });

const SessionId = z.object({ id: z.coerce.number().int().min(0).max(2 ** 32 - 1).meta({ description: "uint32 session id" }) });

export const captureRoutes = [
  route({
    method: "GET",
    path: "/api/v1/captures",
    section: "Captures",
    summary: "Active packet captures, one row per mirrored session",
    fp: true,
    response: { description: "array of CaptureRow, by session id", schema: z.array(CaptureRow) },
    handle: (ctx) => ctx.appliance.stub.dataPlane().captures(),
  }),
  route({
    method: "POST",
    path: "/api/v1/sessions/{id}/capture",
    section: "Captures",
    summary: "Start mirroring a session to a GRE collector (audited)",
    description:
      "At most one active capture per session (409 for a second). When the appliance has a capture mirror allowlist (`captureMirrorAllowlist` of the fleet file) " +
      "the destination must be on it (403 otherwise). 404 for an unknown session. The capture stops by itself when `maxPackets` packets have been mirrored or " +
      "`maxDurationSeconds` have passed (checked every 10 seconds), or when the session goes down. Local only.",
    params: SessionId,
    body: CaptureRequest,
    response: { description: "the capture record", schema: CaptureRecord },
    errors: [404, 409],
    handle: async (ctx) => {
      const { destinationIp, maxPackets, maxDurationSeconds } = ctx.body;
      return unwrap(await ctx.appliance.stub.dataPlane().startCapture(ctx.params.id, destinationIp, maxPackets, maxDurationSeconds, actorName(ctx.principal!)))
        .capture;
    },
  }),
  route({
    method: "DELETE",
    path: "/api/v1/sessions/{id}/capture",
    section: "Captures",
    summary: "Stop a session's capture (audited)",
    description: "404 when the session has no active capture (including an unknown session). Local only.",
    params: SessionId,
    response: {
      description: "the capture stopped",
      schema: CaptureStopResult,
    },
    errors: [404],
    handle: async (ctx) => {
      const { sessionId } = unwrap(await ctx.appliance.stub.dataPlane().stopCapture(ctx.params.id, actorName(ctx.principal!)));
      return { status: "stopped" as const, sessionId };
    },
  }),
];
