/**
 * Captures, the wire contract: a session's packet capture, as the capture list and the session detail show it, the
 * start request, and the section's operations.
 */
import { z } from "zod";
import { SessionIdParams } from "./common.ts";
import { operation } from "./contract.ts";

const uint32 = z
  .int()
  .min(0)
  .max(2 ** 32 - 1);

export const CaptureRecord = z
  .object({
    sessionId: uint32,
    destinationIp: z.string().meta({ description: "GRE collector" }),
    maxPackets: z.int32().nullable().meta({ description: "null or 0 = unlimited" }),
    maxDurationSeconds: z.int32().nullable().meta({ description: "null or 0 = unlimited" }),
    startedUtc: z.string(),
  })
  .meta({ id: "CaptureRecord" });
export type CaptureRecord = z.output<typeof CaptureRecord>;

export const CaptureRow = CaptureRecord.extend({
  packetsMirrored: z.int().min(0).meta({ description: "packets sent to the collector so far" }),
  elapsedSeconds: z.int().min(0),
}).meta({ id: "CaptureRow" });
export type CaptureRow = z.output<typeof CaptureRow>;

export const CaptureStopResult = z
  .object({ status: z.literal("stopped"), sessionId: uint32 })
  .meta({ id: "CaptureStopResult" });

const limit = z.int32().min(0).nullable().meta({ description: "null or 0 = unlimited" });

// All three keys are required (the spec lists them in the schema's required list); the limits may be null.
const CaptureRequest = z
  .object({
    destinationIp: z
      .union([z.ipv4(), z.ipv6()])
      .meta({ description: "GRE collector address; must be on the capture mirror allowlist when one is configured" }),
    maxPackets: limit,
    maxDurationSeconds: limit,
  })
  .meta({ id: "CaptureRequest" });

/** The section's operations. */
export const captures = {
  list: operation({
    method: "GET",
    path: "/api/v1/captures",
    section: "Captures",
    summary: "Active packet captures, one row per mirrored session",
    description:
      "One row per session being mirrored (spec: at most one active capture per " +
      "session): session id, the GRE collector's address, `maxPackets` and " +
      "`maxDurationSeconds` (null or 0 = unlimited), when it started, packets mirrored " +
      "and seconds elapsed so far. A capture ends by DELETE " +
      "/api/v1/sessions/{id}/capture, when a limit is reached, or with its session.",
    fp: true,
    response: { description: "array of CaptureRow, by session id", schema: z.array(CaptureRow) },
    examples: {
      response: [
        {
          sessionId: 1,
          destinationIp: "192.0.2.50",
          maxPackets: 10000,
          maxDurationSeconds: 3600,
          startedUtc: "2026-11-26T20:35:10.000Z",
          packetsMirrored: 0,
          elapsedSeconds: 0,
        },
      ],
    },
  }),
  start: operation({
    method: "POST",
    path: "/api/v1/sessions/{id}/capture",
    section: "Captures",
    summary: "Start mirroring a session to a GRE collector (audited)",
    description:
      "At most one active capture per session (409 for a second). When the appliance " +
      "has a capture mirror allowlist (`captureMirrorAllowlist` of the fleet file) " +
      ("the destination must be on it (403 otherwise). 404 for an unknown session. The " +
        "capture stops by itself when `maxPackets` packets have been mirrored or ") +
      "`maxDurationSeconds` have passed (checked every 10 seconds), or when the session goes down. Local only.",
    params: SessionIdParams,
    body: CaptureRequest,
    response: { description: "the capture record", schema: CaptureRecord },
    errors: [404, 409],
    examples: {
      params: { id: 1 },
      body: { destinationIp: "192.0.2.50", maxPackets: 10000, maxDurationSeconds: 3600 },
      response: {
        sessionId: 1,
        destinationIp: "192.0.2.50",
        maxPackets: 10000,
        maxDurationSeconds: 3600,
        startedUtc: "2026-11-26T20:35:10.000Z",
      },
      errors: { 404: "no session 1" },
    },
  }),
  stop: operation({
    method: "DELETE",
    path: "/api/v1/sessions/{id}/capture",
    section: "Captures",
    summary: "Stop a session's capture (audited)",
    description: "404 when the session has no active capture (including an unknown session). Local only.",
    params: SessionIdParams,
    response: {
      description: "the capture stopped",
      schema: CaptureStopResult,
    },
    errors: [404],
    examples: {
      params: { id: 1 },
      response: { status: "stopped", sessionId: 1 },
      errors: { 404: "session 1 has no active capture" },
    },
  }),
};
