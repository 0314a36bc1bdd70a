/**
 * The sessions list's `username` substring filter without a username string
 * per session. A generated username is `prefix + zero-padded subscriber
 * number + "@" + realm domain`, so a needle placed at each offset of that
 * template either fails on the fixed text, always matches (it lies in the
 * fixed text), or fixes a run of the number's digits. Matching a session is
 * then a few integer divisions on its subscriber number and realm; only
 * configured local subscribers (few) compare their username's text.
 */
import { clearBit, setBit } from "./bits.ts";
import type { Model } from "./model.ts";

/** Digits [a, b) of a zero-padded number equal `value`: `floor(n / div) % mod === value`. */
interface DigitRun {
  div: number;
  mod: number;
  value: number;
}

/** Above this many subscriber numbers to enumerate, one pass over the table is cheaper. */
const ENUMERATE_SHARE = 0.25;

/**
 * A compiled username filter (subscriber numbers below 10^usernameDigits, at most 10^9: int32 arithmetic): per realm,
 * always / never / any of some digit runs.
 */
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
 * A test of one live slot: the digit runs flattened into int32 columns per
 * realm, so V8 divides in integers (a double `%` is a call into fmod).
 */
export function usernameTest(m: Model, match: UsernameMatch): (slot: number) => boolean {
  // Per realm: 0 = none, 1 = all, 2 = the runs from first[r] to first[r + 1].
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
  const div = Int32Array.from(runs, (r) => r.div);
  const mod = Int32Array.from(runs, (r) => r.mod);
  const value = Int32Array.from(runs, (r) => r.value);
  const { sub, realm } = m.store;
  return (slot) => {
    const n = sub[slot] ?? 0;
    if (n < 0) return (m.locals.ofSub(n)?.config.username.toLowerCase() ?? "").includes(match.needle);
    const r = realm[slot] ?? 0;
    const k = kind[r] ?? 0;
    if (k !== 2) return k === 1;
    const stop = first[r + 1] ?? 0;
    for (let j = first[r] ?? 0; j < stop; j++) if (((n / (div[j] ?? 1)) | 0) % (mod[j] ?? 1) === value[j]) return true;
    return false;
  };
}

/**
 * The live sessions whose username contains the needle, as a bitset over
 * id-order positions (session-filter.ts): one pass over the table in slot
 * order, which reads the columns sequentially.
 */
export function usernameMask(m: Model, match: UsernameMatch): Int32Array {
  const s = m.store;
  const bits = new Int32Array((s.orderLen + 31) >>> 5);
  const test = usernameTest(m, match);
  const { alive, orderPos } = s;
  const set = (slot: number): void => {
    if (slot < 0 || alive[slot] !== 1 || !test(slot)) return;
    setBit(bits, orderPos[slot] ?? 0);
  };
  // A needle that fixes several digits names few subscriber numbers: visit those through slotOfSub (an index), not the
  // table.
  const subscribers = m.profile.population.subscribers;
  const runs = new Map<string, DigitRun>();
  let wide = false;
  for (const r of match.realms) {
    if (r === true) wide = true;
    else for (const run of r) runs.set(`${run.div}/${run.mod}/${run.value}`, run);
  }
  if (runs.size === 0) {
    // The needle lies in the fixed text of some realms: their sessions, from the realms' bitsets.
    match.realms.forEach((r, i) => {
      const realm = s.realmBits[i];
      if (r === true && realm) for (let w = 0; w < bits.length; w++) bits[w] = (bits[w] ?? 0) | (realm[w] ?? 0);
    });
    // A local subscriber's session sits in realm 0's bitset: its configured username decides.
    for (const e of m.locals.entries) {
      if (e.slot < 0 || alive[e.slot] !== 1) continue;
      clearBit(bits, orderPos[e.slot] ?? 0);
      set(e.slot);
    }
    return bits;
  }
  let count = 0;
  for (const r of runs.values()) count += subscribers / r.mod;
  if (!wide && count <= ENUMERATE_SHARE * s.liveCount) {
    for (const r of runs.values()) {
      const step = r.div * r.mod;
      for (let high = 0; high * step < subscribers; high++) {
        const base = high * step + r.value * r.div;
        for (let low = 0; low < r.div && base + low < subscribers; low++) set(m.slotOfSub[base + low] ?? -1);
      }
    }
    for (const e of m.locals.entries) if (e.slot >= 0) set(e.slot);
    return bits;
  }
  const end = s.highWater;
  for (let slot = 0; slot < end; slot++) set(slot);
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
