/**
 * What changes between two versions of the configuration, read from the
 * history: every entry records each value it changed, before and after, in
 * text form with secrets redacted (GET /config/history). The value a pointer
 * had at version A is the `before` of the first change to it after A; its
 * value at B is the `after` of the last change to it up to B. A redacted
 * secret is listed whenever it was changed in between. Pure.
 */
import type { ConfigHistoryEntry } from "../../src/schemas/config.ts";

/** How the API shows a secret (src/config/registry.ts, REDACTED). */
const REDACTED = "********";

export interface DiffRow {
  pointer: string;
  from: string | null;
  to: string | null;
}

/** Every value that differs between version `from` and version `to` (either order), by pointer. */
export function diffBetween(entries: readonly ConfigHistoryEntry[], from: number, to: number): DiffRow[] {
  const [low, high] = from <= to ? [from, to] : [to, from];
  const rows = new Map<string, DiffRow>();
  for (const entry of [...entries]
    .filter((e) => e.version > low && e.version <= high)
    .sort((a, b) => a.version - b.version)) {
    for (const change of entry.changes) {
      const row = rows.get(change.pointer) ?? { pointer: change.pointer, from: change.before, to: change.before };
      row.to = change.after;
      rows.set(change.pointer, row);
    }
  }
  // A secret reads redacted on both sides: whether it ended where it began cannot be told, so a change to it is always
  // shown.
  const changed = [...rows.values()]
    .filter((r) => r.from !== r.to || r.to === REDACTED)
    .map((r) => (r.from === r.to ? { ...r, to: `${REDACTED} (changed)` } : r))
    .sort((a, b) => a.pointer.localeCompare(b.pointer));
  return from <= to ? changed : changed.map((r) => ({ pointer: r.pointer, from: r.to, to: r.from }));
}
