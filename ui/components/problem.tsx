/** A failed call, told in the problem's own words as sentences: never a status code or a JSON pointer. */
import type { ApiError } from "../api.ts";
import { labelOf, sentence } from "../format.ts";

/**
 * Where a refused value was, in words: the member's label, and the row it
 * stands on when it is in a list (`#/routes/0/nextHop` reads "Next hop, row 1";
 * a configuration pointer `#/lists/gre.circuits/cust-a/remote` reads "Remote
 * of cust-a").
 */
export function placeOf(pointer: string): string {
  const parts = pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (parts[0] === "lists" && parts.length >= 3) {
    const member = parts[3] ? labelOf(parts[3].split(".").pop()!) : "Entry";
    return `${member} of ${parts[2]}`;
  }
  if (parts[0] === "fields" && parts[1]) return labelOf(parts[1].split(".").pop()!);
  const member = [...parts].reverse().find((p) => !/^\d+$/.test(p));
  const row = parts.find((p) => /^\d+$/.test(p));
  if (!member) return "The request";
  return `${labelOf(member)}${row !== undefined ? `, row ${Number(row) + 1}` : ""}`;
}

export function ProblemNote({ error }: { error: ApiError | undefined | null }) {
  if (!error) return null;
  const fields = error.fieldErrors;
  return (
    <div class="problem" role="alert">
      {sentence(error.message)}
      {fields.length > 0 && (
        <ul>
          {fields.map((f) => (
            <li key={f.pointer}>
              <strong>{placeOf(f.pointer)}</strong>: {sentence(f.detail)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A resource's loading state, problem, or its content. */
export function Loaded<T>({
  resource,
  children,
}: {
  resource: { data: T | undefined; error: ApiError | undefined; loading: boolean };
  children: (data: T) => preact.ComponentChildren;
}) {
  if (resource.error && resource.data === undefined) return <ProblemNote error={resource.error} />;
  if (resource.data === undefined)
    return (
      <p class="muted" aria-live="polite">
        Loading…
      </p>
    );
  return (
    <>
      {resource.error && <ProblemNote error={resource.error} />}
      {children(resource.data)}
    </>
  );
}
