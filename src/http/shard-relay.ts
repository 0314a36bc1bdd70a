/**
 * The serving side of the shards' relay (src/fleet/shards.ts holds its wire
 * format and the dispatcher that sends to it): another process of a sharded
 * local fleet posts a batch of fleet-proxy GETs for this process's
 * appliances; each is relayed in-process to its appliance, the answers in
 * order. Not an API path: a request without the shards' token is no relay
 * and is answered as any other request (404). The sender applies the fleet
 * proxy's FP allowlist; this side applies it again (issue #47), so a process
 * holding the token (or a bug in a sender) still reaches only what the fleet
 * proxy relays: a GET of another path is a 403 in its place.
 */
import type { z } from "zod";
import type { Env } from "../env.ts";
import { deploymentOf } from "../fleet/deployment.ts";
import { peerAnswerText, type PeerAnswer, type PeerGet } from "../fleet/definition.ts";
import { SHARD_RELAY_PATH, ShardGets, otherShard, shardToken, type ShardAnswer } from "../fleet/shards.ts";
import { presentsToken } from "../trust/tokens.ts";
import { readBytesBody } from "./body.ts";
import { StatusError, problemBody, problemResponse } from "./problem.ts";
import type { Relayable } from "../fleet/proxy.ts";

/** A body of 40 GETs is a few kilobytes: anything past this is refused (413), as any body past its route's cap. */
const SHARD_RELAY_MAX_BYTES = 64 * 1024;

/**
 * Serves another process's batch: each GET relayed to its appliance, which must be one of this process's
 * (`relay`, the in-process fleet relay). Null when the request is not one: the caller answers it as any other.
 */
export async function serveShardRelay(
  request: Request,
  env: Env,
  relay: (appliance: string, get: PeerGet) => Promise<PeerAnswer>,
  relayable: Relayable,
): Promise<Response | null> {
  if (deploymentOf(env) !== "local" || !env.BNG_SHARD_PEERS || request.method !== "POST") return null;
  const token = await shardToken(env);
  if (token === null || !presentsToken(request.headers.get("authorization"), token)) return null;
  let gets: z.output<typeof ShardGets>;
  try {
    const text = new TextDecoder().decode(await readBytesBody(request, SHARD_RELAY_MAX_BYTES));
    const parsed = ShardGets.safeParse(JSON.parse(text));
    if (!parsed.success) throw new StatusError(400, "the relay's body is not a batch of fleet-proxy GETs");
    gets = parsed.data;
  } catch (error) {
    const status = error instanceof StatusError ? error.status : 400;
    return problemResponse(
      status,
      error instanceof StatusError ? error.message : "the relay's body is not JSON",
      SHARD_RELAY_PATH,
    );
  }
  const answers = await Promise.all(
    gets.map(async ({ appliance, ...get }): Promise<ShardAnswer> => {
      if (otherShard(env, appliance) !== null) return { status: 421, contentType: null, body: null };
      const path = new URL(get.target).pathname;
      if (!relayable(path)) {
        const detail =
          `the fleet proxy relays only the GET operations marked x-fleet-proxy; ` +
          `'${path.slice(0, 200)}' is not one`;
        const body = JSON.stringify(problemBody(403, detail, path));
        return { status: 403, contentType: "application/problem+json", body };
      }
      const { status, contentType, body } = await relay(appliance, get);
      return { status, contentType, body: await peerAnswerText(body) };
    }),
  );
  return Response.json(answers);
}
