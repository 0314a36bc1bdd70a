/** Logs: the in-memory ring of log entries, as a tail to poll and as a live SSE stream. */
import { inWorker } from "../http/route.ts";
import { StatusError } from "../http/problem.ts";
import { LogSeq, logs } from "../schemas/logs.ts";
import { unwrap } from "../http/refusal.ts";
import { deploymentOf } from "../fleet/deployment.ts";
import { STREAM_HANDLE_HEADER } from "../fleet/listener.ts";

/**
 * The seq a reconnecting EventSource names in Last-Event-ID (the `id:` of the last event it received); null when it
 * names none.
 */
function lastEventId(header: string | null): number | null {
  const text = header?.trim() ?? "";
  if (text === "") return null;
  const seq = LogSeq.safeParse(/^\d+$/.test(text) ? text : Number.NaN);
  if (!seq.success || seq.data === undefined)
    throw new StatusError(
      400,
      `header Last-Event-ID must be the seq of a log entry (the id: of an event this ` +
        `stream sent), not '${text.slice(0, 40)}'`,
    );
  return seq.data;
}

export const logRoutes = [
  inWorker(logs.stream, async (ctx) => {
    const headers = { "content-type": "text/event-stream", "cache-control": "no-store" };
    // HEAD drops the body unread, which would leave the appliance feeding a stream nobody cancels (the caller is still
    // authorized).
    if (ctx.method === "HEAD") return new Response(null, { headers });
    const resumeAfter = lastEventId(ctx.headers.get("last-event-id")) ?? ctx.query.sinceSeq ?? null;
    // The one exception to "ports answer values" (docs/architecture.md): the stream is the object's, produced there for
    // as
    // long as the client reads, and crosses RPC as a stream.
    const { stream, handle } = unwrap(await ctx.port.logs.stream(resumeAfter));
    // Only the local fleet's listener, which strips it, is told the handle: deployed, no one in front could use it.
    const release: Record<string, string> =
      deploymentOf(ctx.appliance.env) === "local" ? { [STREAM_HANDLE_HEADER]: handle } : {};
    // Returned as is: the object's stream flows through the Worker chunk by chunk, never buffered.
    return new Response(stream, { headers: { ...headers, ...release } });
  }),
];
