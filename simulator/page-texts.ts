/**
 * Session pages kept as served (issue #28). A page is a function of its
 * query, the model's clock and which sessions are live: a row's fields are
 * fixed for its session's life (row-texts.ts) and its one moving field, the
 * uptime, moves only with the clock, which moves in the model's 10 s steps.
 * So between two steps, and between two sessions coming or going, the NOC's
 * dashboards and web UIs that poll the same page are answered from one
 * rendering. Everything kept is dropped the moment the clock or the live set
 * moves (`SessionStore.revision`); a filter over 128k sessions then runs once
 * a step rather than once a poll. The consistency checks compare every page
 * with rows built afresh after each scenario (test/simulator/helpers.ts).
 */
import type { JsonText } from "./row-texts.ts";

/** Pages kept at most, and their text in all (one-byte characters): a few hundred kilobytes an appliance. */
const PAGES = 16;
const CHARS = 512 * 1024;

export class PageTexts<T> {
  #nowMs = Number.NaN;
  #revision = -1;
  #chars = 0;
  readonly #pages = new Map<string, JsonText<T>>();

  /** The page `key` names as of this clock and live set: kept, or rendered now (and kept while there is room). */
  get(key: string, nowMs: number, revision: number, render: () => JsonText<T>): JsonText<T> {
    if (nowMs !== this.#nowMs || revision !== this.#revision) {
      this.#pages.clear();
      this.#chars = 0;
      this.#nowMs = nowMs;
      this.#revision = revision;
    }
    let page = this.#pages.get(key);
    if (page === undefined) {
      page = render();
      if (this.#pages.size < PAGES && this.#chars + page.length <= CHARS) {
        this.#pages.set(key, page);
        this.#chars += page.length;
      }
    }
    return page;
  }
}
