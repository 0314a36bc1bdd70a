/**
 * The fleet proxy's reads in a form OpenAPI tools can call. The proxy itself
 * is one route, GET /api/v1/fleet/{appliance}/{path+}, whose `path` spans
 * several segments: OpenAPI has no such parameter (a tool sends `/` inside
 * it percent-encoded, or refuses to), so Prism refused every proxied call.
 * The document therefore also shows one operation per read the contract
 * marks `fp`, at its concrete path under the proxy, with the target's
 * parameters and answer: a generated client calls
 * `/api/v1/fleet/edge-2/system/status` and gets a typed SystemStatus. They
 * are the document's view of the one proxy route, which serves them all
 * (src/routes/fleet.ts); `x-proxied-operation` names the read each relays.
 */
import { z } from "zod";
import { floorOf } from "../auth/authorize.ts";
import type { Route } from "../http/route.ts";

/** The operation extension naming the read a proxied twin relays. */
export const PROXIED_OPERATION = "x-proxied-operation";

const PROXY_PATH = "/api/v1/fleet/{appliance}/{path+}";

/** The appliance the operations' examples were read on (a fresh `npm start` fleet's first). */
const EXAMPLE_APPLIANCE = "edge-1";

/** Each read marked `fp`, as the proxy serves it: the twin to document and the operation it relays. */
export function proxiedReads(routes: Route[]): { twin: Route; target: Route }[] {
  const proxy = routes.find((r) => r.method === "GET" && r.path === PROXY_PATH);
  if (!proxy) return [];
  const appliance = (proxy.params as z.ZodObject).shape.appliance as z.ZodType;
  return routes
    .filter((r) => r.fp === true && r.method === "GET")
    .map((target) => ({
      target,
      twin: {
        ...proxy,
        path: PROXY_PATH.replace("{path+}", target.path.replace(/^\/api\/v1\//, "")),
        summary: `${target.summary} (through the fleet proxy)`,
        description:
          `GET ${target.path} on the appliance named \`appliance\` (a row of GET ` +
          `/api/v1/fleet/appliances, this appliance included), relayed by the fleet proxy: ` +
          ("the appliance's status, body and content type verbatim, so a success is the " +
            "answer documented here and an error the appliance's own problem document. ") +
          ("The query string is forwarded. The appliance is asked with the credential " +
            "configured under `webUi.peers`, never the caller's."),
        floor: floorOf(proxy),
        fp: false,
        params: z.object({ appliance, ...(target.params ? (target.params as z.ZodObject).shape : {}) }),
        query: target.query,
        response: target.response,
        errors: [...new Set([...(proxy.errors ?? []), ...(target.errors ?? [])])],
        errorText: {
          ...target.errorText,
          ...proxy.errorText,
          404: "no appliance of that name, or the appliance's own 404 for the resource, relayed",
        },
        // The target's own examples, read on edge-1, the appliance they were taken from, through its own proxy
        // (every row of GET /fleet/appliances reads, itself included): a tool that needs examples calls the twin as it
        // is.
        examples: { ...target.examples, params: { appliance: EXAMPLE_APPLIANCE, ...target.examples?.params } },
      },
    }));
}
