/** Reading the API from a component: loading, the answer or the problem, and refresh on a timer. */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, type CallOptions } from "./api.ts";

export interface Resource<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/** GETs `path` (with `query`), again every `refreshMs` when given; null path = nothing to read yet. */
export function useResource<T>(path: string | null, query?: CallOptions["query"], refreshMs?: number): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(path !== null);
  const key = path === null ? null : `${path}?${JSON.stringify(query ?? {})}`;
  const current = useRef(key);
  current.current = key;
  const load = useCallback(() => {
    if (path === null) return;
    const asked = key;
    setLoading(true);
    api<T>(path, { query })
      .then((answer) => {
        if (current.current !== asked) return;
        setData(answer);
        setError(undefined);
      })
      .catch((failure: unknown) => {
        if (current.current !== asked) return;
        setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
      })
      .finally(() => current.current === asked && setLoading(false));
    // key covers path and query
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  useEffect(() => {
    load();
    if (!refreshMs) return;
    const timer = setInterval(load, refreshMs);
    return () => clearInterval(timer);
  }, [load, refreshMs]);
  return { data, error, loading, reload: load };
}
