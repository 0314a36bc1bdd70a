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

/** A compiled username filter (subscriber numbers below 10^usernameDigits, at most 10^9: int32 arithmetic): per realm, always / never / any of some digit runs. */
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
  if (width > 9 || m.profile.population.subscribers > 10 ** width) return null;
  const prefix = ids.usernamePrefix.toLowerCase();
  const realms = ids.realms.map((r) => runsFor(prefix, width, `@${r.domain.toLowerCase()}`, needle));
  return { realms, needle };
}

/**
 * The live sessions whose username contains the needle, as a bitset over
 * id-order positions (session-filter.ts). One pass over two integer
 * columns in slot order, which reads memory sequentially.
 */
export function usernameMask(m: Model, match: UsernameMatch): Int32Array {
  const s = m.store;
  const bits = new Int32Array((s.orderLen + 31) >>> 5);
  // Flattened per realm: 0 = none, 1 = all, 2 = the runs from first[r] to first[r + 1].
  const realms = match.realms.length;
  const kind = new Uint8Array(realms);
  const first = new Int32Array(realms + 1);
  const runs: DigitRun[] = [];
  match.realms.forEach((r, i) => {
    first[i] = runs.length;
    if (r === true) kind[i] = 1;
    else if (r.length > 0) {
      kind[i] = 2;
      runs.push(...r);
    }
  });
  first[realms] = runs.length;
  // Int32 columns and `| 0`: V8 then divides in integers, where a double `%` is a call into fmod per session.
  const div = Int32Array.from(runs, (r) => r.div);
  const mod = Int32Array.from(runs, (r) => r.mod);
  const value = Int32Array.from(runs, (r) => r.value);
  const { alive, sub, realm, orderPos } = s;
  const end = s.highWater;
  for (let slot = 0; slot < end; slot++) {
    if (alive[slot] !== 1) continue;
    const n = sub[slot] ?? 0;
    let hit = false;
    if (n < 0) hit = (m.locals.ofSub(n)?.config.username.toLowerCase() ?? "").includes(match.needle);
    else {
      const r = realm[slot] ?? 0;
      const k = kind[r] ?? 0;
      if (k === 1) hit = true;
      else if (k === 2) {
        const stop = first[r + 1] ?? 0;
        for (let j = first[r] ?? 0; j < stop && !hit; j++) hit = ((n / (div[j] ?? 1)) | 0) % (mod[j] ?? 1) === value[j];
      }
    }
    if (!hit) continue;
    const pos = orderPos[slot] ?? 0;
    bits[pos >>> 5] = (bits[pos >>> 5] ?? 0) | (1 << (pos & 31));
  }
  return bits;
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
