/**
 * Session rows encoded once (issue #11): each row a page served is kept as
 * JSON text while its session lives, so the next page with it copies text
 * instead of formatting addresses and a MAC and serialising an object again.
 *
 * A row's fields are fixed for its session: they are written when the
 * session is set up (lifecycle.ts, local-sessions.ts), a changed local
 * subscriber is reconnected as a new session, and a static kept when its
 * subnet goes keeps its configured text. So an entry is valid while its slot
 * holds the same session id; the one field that moves, `uptimeSeconds`, is
 * spliced in at each read. The consistency checks compare every page with
 * rows built afresh after each scenario (test/simulator/helpers.ts), so a
 * change that breaks this shows there. Entries are direct-mapped by slot in
 * a fixed table: a client paging through every session costs at most
 * `ENTRIES` rows of memory, never one per session.
 */
import type { SessionSummary } from "../src/schemas/sessions.ts";

/** JSON text of a value of type T, encoded already: sent as it is. */
export type JsonText<T> = string & { readonly __jsonOf?: T };

/** Rows kept: a few pages of the table's newest sessions, about 1.5 MB of text at most. */
const ENTRIES = 4096;
/** What stands for the uptime while a row is encoded: no uptime is negative. */
const UPTIME_MARK = -1;
const MARKED = `"uptimeSeconds":${UPTIME_MARK}`;

export class RowTexts {
  /** The session id each entry was encoded for; -1 for none. */
  readonly #ids = new Float64Array(ENTRIES).fill(-1);
  /** The row's text up to the uptime's value, and after it. */
  readonly #heads = new Array<string>(ENTRIES).fill("");
  readonly #tails = new Array<string>(ENTRIES).fill("");

  /** A row's text with this uptime; `row` builds the row when no valid entry holds it. */
  text(
    slot: number,
    id: number,
    uptimeSeconds: number,
    row: (slot: number) => SessionSummary,
  ): JsonText<SessionSummary> {
    const i = slot & (ENTRIES - 1);
    if (this.#ids[i] !== id) {
      const text = JSON.stringify({ ...row(slot), uptimeSeconds: UPTIME_MARK });
      // Any quote inside a string value is escaped, so the marker is found only as the key itself.
      const at = text.indexOf(MARKED);
      this.#heads[i] = text.slice(0, at + MARKED.length - String(UPTIME_MARK).length);
      this.#tails[i] = text.slice(at + MARKED.length);
      this.#ids[i] = id;
    }
    return `${this.#heads[i]}${uptimeSeconds}${this.#tails[i]}`;
  }
}
