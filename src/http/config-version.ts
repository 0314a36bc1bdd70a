/**
 * The configuration's version on the wire: every read of configuration-backed
 * state answers it as `ETag`, every commit answers the new one, so automation
 * can send it back as `If-Match` (judged in ConfigStore's commit, 412 on a
 * stale one) and chain edits without a re-read. One version for the whole
 * document: an edit of another list moves it too (conservative, never wrong).
 */
import { configETag } from "../config/etag.ts";
import { unwrap } from "./refusal.ts";
import type { Outcome } from "../schemas/outcome.ts";

/** What a port read at `version` answered, with `ETag` set to that version (a handler in the Worker). */
export function readAt<T extends { version: number }>(ctx: { responseHeaders: Headers }, read: T): T {
  ctx.responseHeaders.set("etag", configETag(read.version));
  return read;
}

/** A commit's summary (as `unwrap`), with `ETag` set to the version it left active. */
export function committed<S extends { version: number }>(
  ctx: { responseHeaders: Headers },
  outcome: Outcome<S>,
): { ok: true } & S {
  const summary = unwrap(outcome);
  ctx.responseHeaders.set("etag", configETag(summary.version));
  return summary;
}
