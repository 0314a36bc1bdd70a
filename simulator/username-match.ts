/**
 * The sessions list's `username` substring filter without a username string
 * per session. A generated username is `prefix + zero-padded subscriber
 * number + "@" + realm domain`, so a needle placed at each offset of that
 * template either fails on the fixed text, always matches (it lies in the
 * fixed text), or fixes a run of the number's digits. Matching a session is
 * then a few integer divisions on its subscriber number and realm; only
 * configured local subscribers (few) compare their username's text.
 */
import type { Model } from "./model.ts";

/** Digits [a, b) of a zero-padded number equal `value`: `floor(n / div) % mod === value`. */
interface DigitRun {
  div: number;
  mod: number;
  value: number;
}

/** A compiled username filter: per realm, always / never / any of some digit runs. */
export interface UsernameMatch {
  /** Per realm: true = every subscriber of the realm matches; otherwise the digit runs (none = no match). */
  readonly realms: readonly (true | readonly DigitRun[])[];
  /** The lowercased needle, for local subscribers' configured usernames. */
  readonly needle: string;
}

/** Compiles a case-insensitive substring needle (already lowercased) against the profile's username template. */
export function compileUsername(m: Model, needle: string): UsernameMatch | null {
  const ids = m.profile.identities;
  const width = ids.usernameDigits;
  // A subscriber number wider than the padding would make the digit positions vary: the caller compares text instead.
  if (m.profile.population.subscribers > 10 ** width) return null;
  const prefix = ids.usernamePrefix.toLowerCase();
  const realms = ids.realms.map((r) => runsFor(prefix, width, `@${r.domain.toLowerCase()}`, needle));
  return { realms, needle };
}

/** Whether a live slot's username contains the needle. */
export function usernameMatches(m: Model, match: UsernameMatch, slot: number): boolean {
  const sub = m.store.sub[slot] ?? 0;
  if (sub < 0) return (m.locals.ofSub(sub)?.config.username.toLowerCase() ?? "").includes(match.needle);
  const runs = match.realms[m.store.realm[slot] ?? 0];
  if (runs === undefined) return false;
  if (runs === true) return true;
  for (const r of runs) if (Math.floor(sub / r.div) % r.mod === r.value) return true;
  return false;
}

/** The digit runs the needle fixes at each offset of `prefix + digits + suffix`, or true when an offset needs none. */
function runsFor(prefix: string, width: number, suffix: string, needle: string): true | DigitRun[] {
  const length = prefix.length + width + suffix.length;
  const runs: DigitRun[] = [];
  const seen = new Set<string>();
  for (let start = 0; start + needle.length <= length; start++) {
    let a = -1;
    let b = -1;
    let value = 0;
    let ok = true;
    for (let j = 0; j < needle.length && ok; j++) {
      const pos = start + j;
      const c = needle[j] ?? "";
      if (pos < prefix.length) ok = prefix[pos] === c;
      else if (pos >= prefix.length + width) ok = suffix[pos - prefix.length - width] === c;
      else if (c >= "0" && c <= "9") {
        const d = pos - prefix.length;
        if (a < 0) a = d;
        b = d + 1;
        value = value * 10 + (c.charCodeAt(0) - 48);
      } else ok = false;
    }
    if (!ok) continue;
    if (a < 0) return true;
    const key = `${a}:${b}:${value}`;
    if (seen.has(key)) continue;
    seen.add(key);
    runs.push({ div: 10 ** (width - b), mod: 10 ** (b - a), value });
  }
  return runs;
}
