/** Reading the API from a component: loading, the answer or the problem, and refresh on a timer. */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import type { Operation } from "../src/schemas/contract.ts";
import { ApiError, call, pathOf, type Answer, type CallInput, type CallResult, type OperationRef } from "./api.ts";
import { applianceStatus, liveConnected } from "./live.ts";

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

export interface UseCallOptions {
  /** `/fleet/<peer>` reads a peer through the fleet proxy; "" (the default) this appliance. */
  base?: string;
  /** Reads again this often. */
  refreshMs?: number;
  /**
   * This appliance's reads only: while the live channel is open, read again whenever it pushes a change instead of
   * every `refreshMs`.
   */
  live?: boolean;
}

/**
 * Calls a GET operation of the contract (with `input`'s parameters and
 * query), again every `refreshMs` when given; a null operation = nothing to
 * read yet. The answer is typed by the operation's response schema.
 */
export function useCall<O extends Operation>(
  operation: OperationRef<O> | null,
  input?: CallInput<O>,
  options: UseCallOptions = {},
): Resource<CallResult<O>> {
  // Each answer and failure remembers the question it answers (the key below).
  const [answer, setAnswer] = useState<{ key: string | null; data: CallResult<O> } | undefined>(undefined);
  const [failure, setFailure] = useState<{ key: string | null; error: ApiError } | undefined>(undefined);
  const [loading, setLoading] = useState(operation !== null);
  const { params, query } = (input ?? {}) as { params?: Record<string, unknown>; query?: unknown };
  const base = options.base ?? "";
  const key =
    operation === null
      ? null
      : `${operation.method} ${base}${pathOf(operation, params)}?${JSON.stringify(query ?? {})}`;
  const current = useRef(key);
  current.current = key;
  const load = useCallback(() => {
    if (operation === null) return;
    const asked = key;
    setLoading(true);
    (call as (op: OperationRef<O>, input: unknown, base: string) => Promise<CallResult<O>>)(operation, input, base)
      .then((data) => {
        if (current.current !== asked) return;
        setAnswer({ key: asked, data });
        setFailure(undefined);
      })
      .catch((problem: unknown) => {
        if (current.current !== asked) return;
        setFailure({
          key: asked,
          error: problem instanceof ApiError ? problem : new ApiError(0, { detail: String(problem) }, null),
        });
      })
      .finally(() => current.current === asked && setLoading(false));
    // key covers the operation, the base, the parameters and the query
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  const live = options.live === true && base === "";
  // Read inside render, so a push (or the channel opening or dropping) renders again.
  const pushed = live ? applianceStatus.value : null;
  const timed = live && liveConnected.value ? undefined : options.refreshMs;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) first.current = false;
    else if (pushed) load();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pushed]);
  useEffect(() => {
    load();
    if (!timed) return;
    // A tab out of view reads nothing on its timer (a peer's page would keep the fleet proxy busy for no one), and
    // reads once when it is shown again, as the live channel's fallback does.
    const visible = () => document.visibilityState === "visible";
    const timer = setInterval(() => visible() && load(), timed);
    const shown = () => visible() && load();
    document.addEventListener("visibilitychange", shown);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", shown);
    };
  }, [load, timed]);
  const error = failure?.key === key ? failure.error : undefined;
  // While a new question is asked the last answer stays in view (a page turn does not flash), but an answer is never
  // shown under another question's failure:
  // after a refused filter the old rows and count are not the new filter's.
  const data = answer && (answer.key === key || !error) ? answer.data : undefined;
  return { data, error, loading, reload: load };
}

/**
 * GET /system/status: this appliance's (`base` "") as the live channel has it
 * (ui/live.ts, whose fallback poller is the only one), a peer's read through
 * the fleet proxy every `refreshMs`.
 */
export function useStatus(base: string, refreshMs: number): Resource<Answer<typeof contract.system.status>> {
  const peer = useCall(base === "" ? null : contract.system.status, {}, { base, refreshMs });
  const own = applianceStatus.value;
  return base === "" ? { data: own ?? undefined, error: undefined, loading: own === null, reload: () => {} } : peer;
}
