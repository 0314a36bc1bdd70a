/**
 * One read of many appliances, as the fleet overview and the subscriber
 * search make it: GET /twin/v1/fleet/read asks up to FAN_OUT_MAX appliances
 * in one request, each exactly as the fleet proxy would (this appliance's own
 * name included), and a browser keeps at most six requests to one origin in
 * flight. A fleet of 1,000 is 25 requests instead of 1,000.
 */
import { contract } from "bngfleet:contract";
import { call, ApiError, pathOf, queryString, type CallInput, type CallResult, type OperationRef } from "./api.ts";
import type { Operation } from "../src/schemas/contract.ts";
import { FAN_OUT_MAX } from "../src/schemas/fan-out.ts";

/**
 * Requests in flight at once: a browser opens six HTTP/1.1 connections to one origin, so more would only queue in it.
 */
const IN_FLIGHT = 6;

/** One appliance's answer: the operation's result, or why there is none (its problem's detail). */
export type FanOutRow<O extends Operation> =
  | { ok: true; value: CallResult<O> }
  | { ok: false; status: number; detail: string };

/**
 * Reads `operation` (a fleet-proxy read) of every appliance in `names`, handing each appliance's row to `onRow`
 * as its request answers. An appliance with no answer within `timeoutMs` is a 504 row; a request that fails as a
 * whole (the session ended, the appliance did not answer) makes a row of that failure for each of its appliances.
 */
export async function fanOut<O extends Operation>(
  operation: OperationRef<O>,
  input: CallInput<O>,
  names: readonly string[],
  onRow: (name: string, row: FanOutRow<O>) => void,
  options: { timeoutMs?: number; signal?: AbortSignal; onAsk?: (names: readonly string[]) => void } = {},
): Promise<void> {
  const { params, query } = input as {
    params?: Record<string, unknown>;
    query?: Record<string, string | number | boolean | null | undefined>;
  };
  const path = `${pathOf(operation, params).slice(1)}${queryString(query)}`;
  const slices: string[][] = [];
  for (let i = 0; i < names.length; i += FAN_OUT_MAX) slices.push(names.slice(i, i + FAN_OUT_MAX));
  let next = 0;
  const worker = async () => {
    for (let slice = slices[next++]; slice && !options.signal?.aborted; slice = slices[next++]) {
      options.onAsk?.(slice);
      try {
        const rows = await call(
          contract.fleet.fanOut,
          { query: { path, appliances: slice.join(","), timeoutMs: options.timeoutMs } },
          "",
          { signal: options.signal },
        );
        for (const row of rows)
          onRow(
            row.appliance,
            row.status >= 200 && row.status < 300
              ? { ok: true, value: row.body as CallResult<O> }
              : { ok: false, status: row.status, detail: detailOf(row.body, row.status) },
          );
      } catch (failure) {
        const detail = failure instanceof ApiError ? failure.message : String(failure);
        for (const name of slice)
          onRow(name, { ok: false, status: failure instanceof ApiError ? failure.status : 0, detail });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, slices.length) }, worker));
}

/** A problem document's detail, or what the status says. */
function detailOf(body: unknown, status: number): string {
  const problem = body as { detail?: unknown; title?: unknown } | null;
  if (problem && typeof problem.detail === "string") return problem.detail;
  if (problem && typeof problem.title === "string") return problem.title;
  return `HTTP ${status}`;
}
