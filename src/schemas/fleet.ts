/** Fleet, the wire contract: the appliances this one knows, and the read-only proxy to its peers. */
import { z } from "zod";
import { operation } from "./contract.ts";
import { FAN_OUT_MAX } from "./fan-out.ts";

/** A peer as the running configuration's `webUi.peers` names it (its credential read in, null when none is set). */
export interface ConfiguredPeer {
  name: string;
  url: string;
  credential: string | null;
  timeoutMs: number;
}

export const FleetAppliance = z
  .object({
    name: z.string().meta({ description: "the `{appliance}` proxy key" }),
    self: z.boolean(),
    url: z.string().nullable().meta({ description: "peer base URL from `webUi.peers`; null for this appliance" }),
  })
  .meta({ id: "FleetAppliance" });
export type FleetAppliance = z.output<typeof FleetAppliance>;

export const FanOutQuery = z.object({
  path: z
    .string()
    .min(1)
    .max(2048)
    .meta({
      description:
        "the read as GET /api/v1/fleet/{appliance}/{path} takes it: the path after " +
        "`/api/v1/` and its query, e.g. `sessions?username=sub0001&limit=50`",
    }),
  appliances: z
    .string()
    .max(FAN_OUT_MAX * 64)
    .transform((text) =>
      text
        .split(",")
        .map((name) => name.trim())
        .filter((name) => name !== ""),
    )
    .pipe(z.array(z.string().max(63)).min(1).max(FAN_OUT_MAX))
    .meta({
      description:
        `up to ${FAN_OUT_MAX} appliance names, comma-separated, each as GET ` +
        `/api/v1/fleet/appliances lists it (this appliance's own included)`,
    }),
  timeoutMs: z.coerce
    .number()
    .int()
    .min(100)
    .max(60_000)
    .optional()
    .meta({
      description:
        "how long to wait for any one appliance, in ms (default: each peer's own `timeoutMs`, 10 s unless " +
        "configured): one that has not answered by then is a 504 row, and the others are not held up by it",
      examples: [2000],
    }),
});

export const FanOutAnswer = z
  .object({
    appliance: z.string(),
    status: z.int().meta({ description: "what GET /api/v1/fleet/{appliance}/{path} would have answered" }),
    body: z
      .unknown()
      .meta({ description: "its JSON body (a problem document for an error), or its text; null when it had none" }),
  })
  .meta({ id: "FanOutAnswer" });
export type FanOutAnswer = z.output<typeof FanOutAnswer>;

/** The section's operations. */
export const fleet = {
  appliances: operation({
    method: "GET",
    path: "/api/v1/fleet/appliances",
    section: "Fleet",
    summary: "This appliance, then its peers from webUi.peers",
    description:
      "The fleet as this appliance knows it: itself first (`self` true, `url` null), " +
      "then each peer configured under `webUi.peers` in configuration order. Every " +
      "row's `name` is the `{appliance}` key of the fleet proxy (GET " +
      "/api/v1/fleet/{appliance}/…), this appliance's own included, so a loop over the " +
      "rows reads the whole fleet.",
    response: { description: "array of FleetAppliance", schema: z.array(FleetAppliance) },
    examples: {
      response: [
        { name: "edge-1", self: true, url: null },
        { name: "edge-2", self: false, url: "https://127.0.0.1:8444" },
      ],
    },
  }),
  read: operation({
    method: "GET",
    path: "/api/v1/fleet/{appliance}/{path+}",
    section: "Fleet",
    summary: "Read a peer: its answer to GET /api/v1/{path} relayed verbatim",
    description:
      "Only GET. The query string is forwarded; the peer is called with the credential " +
      "configured under `webUi.peers`, never the caller's. " +
      ("`path` is normalised first (percent-decoding, `.`/`..`, backslashes) and may " +
        "not leave `/api/v1/`; only the GET operations marked `x-fleet-proxy` are relayed, ") +
      ("any other path (`fleet/`, `auth/`, the log stream, the metrics scrape, the " +
        "OpenAPI document …) is refused with 403. ") +
      ("Only answers of type application/json, application/problem+json, text/plain and " +
        "text/event-stream are relayed (another type is 502), with " +
        "`X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`. ") +
      ("`appliance` may name this appliance itself: every row of GET " +
        "/api/v1/fleet/appliances is a proxy key, so a loop over them reads them all. ") +
      ("An unknown appliance is 404; an unreachable peer 502; a peer that does not " +
        "answer within its `timeoutMs` (default 10 s) 504. Redirects are relayed (status " +
        "only), never followed."),
    params: z.object({
      appliance: z.string().meta({
        description: "an appliance's `name` as GET /api/v1/fleet/appliances lists it, this appliance's own included",
      }),
      path: z.string().meta({
        description:
          "the read's path after `/api/v1/`, e.g. `system/status`: several segments, which " +
          "OpenAPI tools send as one with its slashes percent-encoded (`system%2Fstatus`); " +
          "the proxy takes either form. " +
          ("The Fleet operations with a concrete path " +
            "(`/api/v1/fleet/{appliance}/system/status`, …, marked `x-proxied-operation`) " +
            "are these reads one by one, each with its own parameters and answer."),
      }),
    }),
    response: { description: "the peer's status, body and content type" },
    errors: [404, 502, 504],
    examples: {
      params: { appliance: "edge-2", path: "system/health" },
      response: {
        status: "ok",
        appliance: "edge-2",
        timeUtc: "2026-11-26T20:35:12.583Z",
        softwareVersion: "bngfleet 0.1.0",
        uptimeSeconds: 0,
        checks: { storage: "ok" },
      },
    },
  }),
  fanOut: operation({
    method: "GET",
    path: "/twin/v1/fleet/read",
    section: "Fleet fan-out",
    summary: "One read of several appliances through the fleet proxy, in one request",
    description:
      "The same GET on up to 40 appliances at once, each exactly as GET " +
      "/api/v1/fleet/{appliance}/{path} would relay it (the same peers, credentials, " +
      "FP allowlist and deadlines), answered together in the order asked: " +
      ("what the web UI's fleet overview and subscriber search ask, in 25 requests for " +
        "a fleet of 1,000 instead of 1,000. ") +
      ("An appliance that does not answer within `timeoutMs` gets a 504 row. A path the " +
        "proxy would refuse for every appliance (not an FP read, not valid) is refused " +
        "as the proxy refuses it; anything else one appliance answers (404 for an " +
        "unknown name, 502, 504, its own errors) is its row's `status` and `body`."),
    query: FanOutQuery,
    response: { description: "array of FanOutAnswer, in the order of `appliances`", schema: z.array(FanOutAnswer) },
    examples: {
      query: { path: "system/health", appliances: "edge-1,edge-2" },
      response: [
        {
          appliance: "edge-1",
          status: 200,
          body: {
            status: "ok",
            appliance: "edge-1",
            timeUtc: "2026-11-26T20:35:12.583Z",
            softwareVersion: "bngfleet 0.1.0",
            uptimeSeconds: 0,
            checks: { storage: "ok" },
          },
        },
        {
          appliance: "edge-2",
          status: 200,
          body: {
            status: "ok",
            appliance: "edge-2",
            timeUtc: "2026-11-26T20:35:12.590Z",
            softwareVersion: "bngfleet 0.1.0",
            uptimeSeconds: 0,
            checks: { storage: "ok" },
          },
        },
      ],
    },
  }),
};
