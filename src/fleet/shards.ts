/**
 * A local fleet spread over several workerd processes (`BNG_SHARDS`, for a
 * fleet whose bring-up outgrows one core: workerd runs an isolate on one
 * thread). Each appliance is served by one process alone: two processes
 * opening one Durable Object's SQLite file would corrupt it. So the fleet
 * proxy reaches a member served by another process over that process's
 * loopback socket, naming the appliance as a listener does; the launcher
 * passes those sockets in `BNG_SHARD_PEERS` (launcher/launch.ts). Deployed,
 * one Worker serves every appliance and this never applies.
 */
import { z } from "zod";
import type { Env } from "../env.ts";
import { deploymentOf } from "./deployment.ts";
import type { PeerAnswer, PeerGet } from "./definition.ts";
import { outboundFetch } from "../config/destinations.ts";
import { LOCAL_WEBHOOK_ALLOWLIST } from "../config/seed.ts";
import { deriveToken } from "../trust/tokens.ts";
import { FAN_OUT_MAX } from "../schemas/fan-out.ts";

/** Each bindings object's map, parsed once: every request asks (the addressed appliance must be this process's). */
const parsed = new WeakMap<Env, Record<string, string>>();

/** The loopback origin of the process serving `appliance`, when that is not this one. */
export function otherShard(env: Env, appliance: string): string | null {
  if (deploymentOf(env) !== "local" || !env.BNG_SHARD_PEERS) return null;
  let origins = parsed.get(env);
  if (origins === undefined) parsed.set(env, (origins = JSON.parse(env.BNG_SHARD_PEERS) as Record<string, string>));
  return Object.hasOwn(origins, appliance) ? origins[appliance]! : null;
}

/**
 * Where a process takes the fleet proxy's GETs for its appliances from
 * another process, several in one request: a fan-out read of 40 appliances
 * (GET /twin/v1/fleet/read) asked each of another process's members over its
 * own HTTP request, and those requests were most of the fan-out's cost. Not
 * an API path: it answers only a request bearing the shards' token (derived
 * from the fleet secret, which only the fleet's processes hold), as 404 to
 * anyone else; each GET in it still presents its own peer credential, judged
 * by its appliance as any proxied read is. The serving side is
 * src/http/shard-relay.ts.
 */
export const SHARD_RELAY_PATH = "/_bngfleet/shard-relay";

/**
 * The shard token of the fleet secret last asked for: every batch, sent or served, needs it, and it costs two HMACs.
 */
let derived: { secret: string; token: Promise<string> } | undefined;

/** The credential one process presents another: derived from the fleet secret, so none is configured or stored. */
export function shardToken(env: Env): Promise<string> | null {
  const secret = env.BNG_FLEET_SECRET;
  if (!secret) return null;
  if (derived?.secret !== secret) derived = { secret, token: deriveToken(secret, "shard-relay") };
  return derived.token;
}

/** The relay's body: the GETs of one batch, each naming its appliance. */
export const ShardGets = z
  .array(
    z.object({
      appliance: z.string().max(63),
      target: z
        .string()
        .max(4096)
        .refine((t) => URL.canParse(t)),
      credential: z.string().max(256),
      accept: z.string().max(256),
    }),
  )
  .min(1)
  .max(FAN_OUT_MAX);

/** A relayed answer on the wire between processes: its body as text (null when none). */
export type ShardAnswer = { status: number; contentType: string | null; body: string | null };

/**
 * A fleet proxy's GETs to appliances of other processes, for one incoming
 * request: those asked in the same turn of the event loop (a fan-out read's)
 * go to each process as one request, within the longest of their deadlines;
 * each caller gets its own answer, or the request's failure. Per incoming
 * request, never shared between them: workerd lets a request wait only on
 * I/O of its own. Only the path, query and each GET's own credential and
 * Accept go, no client address; the launcher's origin goes through the
 * destination policy like any peer, with the allowance the local fleet seeds
 * (loopback), so the wiring can only ever reach this host.
 */
export function shardDispatcher(
  env: Env,
): (origin: string, appliance: string, get: PeerGet, timeoutMs: number) => Promise<PeerAnswer> {
  /** The batch still filling for each process's origin. */
  const pending = new Map<string, Batch>();
  return (origin, appliance, get, timeoutMs) => {
    let batch = pending.get(origin);
    if (batch === undefined) {
      const fresh: Batch = { gets: [], waiting: [], timeoutMs: 0 };
      pending.set(origin, (batch = fresh));
      setTimeout(() => {
        if (pending.get(origin) === fresh) pending.delete(origin);
        void send(env, origin, fresh);
      }, 0);
    }
    const url = new URL(get.target);
    batch.gets.push({
      appliance,
      target: `${origin}${url.pathname}${url.search}`,
      credential: get.credential,
      accept: get.accept,
    });
    batch.timeoutMs = Math.max(batch.timeoutMs, timeoutMs);
    // A full batch is sent as it stands; the next GET starts another.
    if (batch.gets.length === FAN_OUT_MAX) pending.delete(origin);
    const joined = batch;
    return new Promise((resolve, reject) => joined.waiting.push({ resolve, reject }));
  };
}

type Batch = {
  gets: z.input<typeof ShardGets>;
  waiting: { resolve: (answer: PeerAnswer) => void; reject: (error: unknown) => void }[];
  timeoutMs: number;
};

async function send(env: Env, origin: string, batch: Batch): Promise<void> {
  try {
    const token = await shardToken(env);
    if (token === null)
      throw new Error("no fleet secret: the processes of this fleet cannot authenticate to one another");
    const response = await outboundFetch(`${origin}${SHARD_RELAY_PATH}`, "peer", LOCAL_WEBHOOK_ALLOWLIST, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(batch.gets),
      signal: AbortSignal.timeout(batch.timeoutMs),
    });
    if (!response.ok) throw new Error(`the fleet process at ${origin} answered ${response.status}`);
    const answers = (await response.json()) as ShardAnswer[];
    batch.waiting.forEach((w, i) => w.resolve(answers[i] ?? { status: 502, contentType: null, body: null }));
  } catch (error) {
    for (const w of batch.waiting) w.reject(error);
  }
}
