/**
 * RADIUS, the wire contract: the health of the authentication server pool as the RADIUS client sees it, and
 * (beyond the spec's fields, docs/simulation.md "RADIUS accounting") the accounting the same servers take.
 */
import { z } from "zod";
import { operation } from "./contract.ts";

const int32 = z.int32();
const count = z.int().min(0);

const RadiusAccounting = z
  .object({
    port: z
      .int()
      .min(1)
      .max(65536)
      .meta({
        description:
          "accounting port: a simulated server's authentication port + 1 (1813, UDP); a " +
          "real one's `accountingPort` (TCP or TLS)",
      }),
    requestsSent: count.meta({ description: "Accounting-Requests sent to this server (RFC 2866), retries included" }),
    requestsByType: z
      .object({ start: count, interimUpdate: count, stop: count })
      .meta({ description: "`requestsSent` by Acct-Status-Type: Start, Interim-Update, Stop" }),
    responses: count.meta({ description: "Accounting-Responses received" }),
    timeouts: count.meta({ description: "requests lost: `requestsSent` − `responses`" }),
  })
  .meta({ id: "RadiusAccounting", description: "Beyond the spec's fields: the accounting this server takes" });

const RadiusServer = z
  .object({
    host: z.string(),
    port: z.int().min(1).max(65535).meta({ description: "authentication UDP port" }),
    weight: count,
    isDead: z.boolean(),
    consecutiveFailures: count,
    requestsSent: count,
    requestsByResult: z.object({ accept: count, reject: count, timeout: count }).meta({
      description:
        "`requestsSent` by outcome (sums to it): answered Access-Accept, answered " +
        "Access-Reject, lost; the scrape's `bng_radius_requests_total{result}`",
    }),
    lastFailure: z.string().nullable().meta({ description: "date-time; null before the first failure" }),
    lastSuccess: z.string().nullable().meta({ description: "date-time; null before the first answer" }),
    transport: z.enum(["simulated", "tcp", "tls"]).meta({
      description:
        "Beyond the spec's fields: `simulated` (the data-plane model answers), or a real " +
        "server over `tcp` (RFC 6613) or `tls` (RFC 6614)",
    }),
    lastFailureReason: z
      .enum(["connect-failed", "closed", "timeout", "secret-mismatch"])
      .nullable()
      .meta({
        description:
          "Beyond the spec's fields, a real server's: why its last request failed. " +
          "`connect-failed` (no connection), `closed` (it closed the connection " +
          ("unanswered), `timeout` (no answer on an open connection that has answered " +
            "before: a slow server), `secret-mismatch` (the shared secrets ") +
          ("differ: an answer whose authenticator does not verify, or a server that took " +
            "the connection and answers nothing on it, as a server ") +
          "discards unanswered what another secret signed); null for a simulated one",
      }),
    accounting: RadiusAccounting,
  })
  .meta({ id: "RadiusServer" });

const count64 = z.int().min(0);
const RadiusPacing = z
  .object({
    requestsPerSecond: count64.meta({ description: "`radius.requestsPerSecond`: the most requests sent per second" }),
    queued: count64.meta({ description: "requests waiting for their turn (Access-Requests first, then accounting)" }),
    notSentInTime: count64.meta({
      description:
        "Access-Requests that waited past `radius.timeoutSeconds` and were not sent " +
        "(their setup failed): counted, never silently dropped",
    }),
  })
  .meta({
    id: "RadiusPacing",
    description: "Beyond the spec's fields: the RADIUS client's pacing towards real servers (docs/radius.md)",
  });

export const RadiusPoolStatus = z
  .object({
    configured: z.boolean().meta({ description: "false = no RADIUS auth driver running, servers empty" }),
    totalServers: int32,
    liveServers: int32,
    deadServers: int32,
    servers: z.array(RadiusServer),
    pacing: RadiusPacing.nullable().meta({ description: "null while the servers are simulated" }),
    accounting: z
      .object({
        queued: count.meta({ description: "records no server answered, waiting to be sent again, oldest first" }),
        dropped: count.meta({ description: "records given up because the queue was full (`aaa.accountingQueue`)" }),
      })
      .meta({ description: "Beyond the spec's fields: accounting records waiting for a server" }),
  })
  .meta({ id: "RadiusPoolStatus" });
export type RadiusPoolStatus = z.output<typeof RadiusPoolStatus>;

/** The section's operations. */
export const radius = {
  servers: operation({
    method: "GET",
    path: "/api/v1/radius/servers",
    section: "RADIUS",
    summary: "RADIUS server pool health: live and dead servers, requests and failures",
    description:
      "A server is marked dead after `aaa.deadAfterFailures` consecutive lost requests " +
      "and tried again after `aaa.deadTimeSeconds`. " +
      "With no RADIUS driver the answer is 200 with `configured` false (as with an empty `radius.servers`). " +
      ("The servers are the configuration's `radius.servers`, in its order, and follow " +
        "a commit at once: an added server starts with clean counters and takes requests " +
        "by weight, a removed one takes none and its alarms clear, a kept one keeps its " +
        "counters whatever its weight."),
    fp: true,
    response: { description: "RADIUS pool status", schema: RadiusPoolStatus },
    examples: {
      response: {
        configured: true,
        totalServers: 2,
        liveServers: 2,
        deadServers: 0,
        servers: [
          {
            host: "radius-1.isp.example",
            port: 1812,
            weight: 100,
            isDead: false,
            consecutiveFailures: 0,
            requestsSent: 1011,
            requestsByResult: { accept: 1008, reject: 0, timeout: 3 },
            lastFailure: "2026-11-26T20:35:00.000Z",
            lastSuccess: "2026-11-26T20:35:10.000Z",
            transport: "simulated",
            lastFailureReason: null,
            accounting: {
              port: 1813,
              requestsSent: 4012,
              requestsByType: { start: 1008, interimUpdate: 2013, stop: 991 },
              responses: 4008,
              timeouts: 4,
            },
          },
          {
            host: "radius-2.isp.example",
            port: 1812,
            weight: 100,
            isDead: false,
            consecutiveFailures: 0,
            requestsSent: 964,
            requestsByResult: { accept: 958, reject: 5, timeout: 1 },
            lastFailure: "2026-11-26T20:35:00.000Z",
            lastSuccess: "2026-11-26T20:35:10.000Z",
            transport: "simulated",
            lastFailureReason: null,
            accounting: {
              port: 1813,
              requestsSent: 3897,
              requestsByType: { start: 958, interimUpdate: 1990, stop: 949 },
              responses: 3895,
              timeouts: 2,
            },
          },
        ],
        pacing: null,
        accounting: { queued: 0, dropped: 0 },
      },
    },
  }),
};
