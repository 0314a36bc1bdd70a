/**
 * Actions on a table's rows (delete, revoke, disconnect, end): a small button
 * named for the row it acts on, a confirm that names it too, and the
 * answer's problem (or what was done) shown above the table, where the
 * person is looking, rather than in a narrow cell.
 */
import { useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { ApiError } from "../api.ts";
import { ProblemNote } from "./problem.tsx";

export interface RowActions {
  /** Asks `question`; on yes runs `change`, then says `done` and calls `after` (a reload). */
  act: (question: string, change: () => Promise<unknown>, done: string, after?: () => void) => Promise<void>;
  /** The last action's problem or outcome, to place above the table. */
  note: ComponentChildren;
}

export function useRowActions(): RowActions {
  const [error, setError] = useState<ApiError | null>(null);
  const [done, setDone] = useState<string | null>(null);
  async function act(question: string, change: () => Promise<unknown>, doneText: string, after?: () => void) {
    if (!window.confirm(question)) return;
    setError(null);
    setDone(null);
    try {
      await change();
      setDone(doneText);
      after?.();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
    }
  }
  const note = (
    <>
      <ProblemNote error={error} />
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </>
  );
  return { act, note };
}

/** A row's button: its visible text is the verb, its accessible name says which row (`Delete VRF cust-a`). */
export function RowButton({
  verb,
  target,
  onClick,
  pressed,
}: {
  verb: string;
  target: string;
  onClick: () => void;
  pressed?: boolean;
}) {
  return (
    <button
      type="button"
      class={pressed === undefined ? "secondary" : undefined}
      aria-pressed={pressed}
      aria-label={`${verb} ${target}`}
      onClick={onClick}
    >
      {verb}
    </button>
  );
}
