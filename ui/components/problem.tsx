/** A failed call, told in the problem's own words. */
import type { ApiError } from "../api.ts";
import { labelOf } from "../format.ts";

/** A JSON pointer as words: `#/routes/0/nextHop` reads "Routes 1 · Next hop". */
const placeOf = (pointer: string) =>
  pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((part) => (/^\d+$/.test(part) ? `${Number(part) + 1}` : labelOf(part)))
    .join(" · ") || "Request";

export function ProblemNote({ error }: { error: ApiError | undefined | null }) {
  if (!error) return null;
  const fields = error.fieldErrors;
  return (
    <div class="problem" role="alert">
      <strong>{error.status ? `${error.status}: ` : ""}</strong>
      {error.message}
      {fields.length > 0 && (
        <ul>
          {fields.map((f) => (
            <li key={f.pointer}>
              <strong>{placeOf(f.pointer)}</strong>: {f.detail}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A resource's loading state, problem, or its content. */
export function Loaded<T>({ resource, children }: { resource: { data: T | undefined; error: ApiError | undefined; loading: boolean }; children: (data: T) => preact.ComponentChildren }) {
  if (resource.error && resource.data === undefined) return <ProblemNote error={resource.error} />;
  if (resource.data === undefined) return <p class="muted" aria-live="polite">Loading…</p>;
  return (
    <>
      {resource.error && <ProblemNote error={resource.error} />}
      {children(resource.data)}
    </>
  );
}
