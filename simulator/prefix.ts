/**
 * IPv4 and IPv6 prefix arithmetic on bigints. Small and dependency-free
 * because the simulator must run unchanged in workerd and Node; the hot path
 * (IPv4 session addresses) uses plain uint32 numbers, bigints only appear at
 * the edges (parsing the profile, formatting IPv6 prefixes for a page).
 */

/** 4 for IPv4, 6 for IPv6. */
export type Family = 4 | 6;

/** A network prefix: family, base address (host bits zero) and length. */
export interface Prefix {
  readonly family: Family;
  readonly base: bigint;
  readonly length: number;
}

/** Address width in bits for a family. */
export function familyBits(family: Family): number {
  return family === 4 ? 32 : 128;
}

/** Parses a dotted-quad IPv4 address into a uint32, or null. */
export function parseIpv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const octet = Number(part);
    if (octet > 255 || (part.length > 1 && part.startsWith("0"))) return null;
    value = value * 256 + octet;
  }
  return value;
}

/** Formats a uint32 as a dotted-quad IPv4 address. */
export function formatIpv4(value: number): string {
  return `${(value >>> 24) & 255}.${(value >>> 16) & 255}.${(value >>> 8) & 255}.${value & 255}`;
}

/** Parses an IPv6 address (RFC 4291 text forms, including an embedded IPv4 tail) into a bigint, or null. */
export function parseIpv6(text: string): bigint | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string): number[] | null => {
    if (part === "") return [];
    const out: number[] = [];
    const pieces = part.split(":");
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] ?? "";
      if (i === pieces.length - 1 && piece.includes(".")) {
        const v4 = parseIpv4(piece);
        if (v4 === null) return null;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return null;
        out.push(parseInt(piece, 16));
      }
    }
    return out;
  };
  const head = groups(halves[0] ?? "");
  const tail = halves.length === 2 ? groups(halves[1] ?? "") : [];
  if (head === null || tail === null) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  let value = 0n;
  for (const g of all) value = (value << 16n) | BigInt(g);
  return value;
}

/**
 * Formats a bigint as an IPv6 address in RFC 5952 canonical form. One BigInt
 * operation (the hex text) and string work after it: a sessions page formats
 * an address per row, and eight BigInt shifts each cost several times more.
 */
export function formatIpv6(value: bigint): string {
  const hex = value.toString(16).padStart(32, "0");
  // Each group without its leading zeros (lower case, RFC 5952 §4.1 and §4.3).
  const groups: string[] = [];
  for (let i = 0; i < 32; i += 4) {
    let k = i;
    while (k < i + 3 && hex.charCodeAt(k) === 48) k++;
    groups.push(hex.slice(k, i + 4));
  }
  return joinIpv6Groups(groups);
}

/** An IPv6 address's eight 16-bit groups as numbers, most significant first. */
export function ipv6Groups(value: bigint): number[] {
  const hex = value.toString(16).padStart(32, "0");
  const groups: number[] = [];
  for (let i = 0; i < 32; i += 4) groups.push(parseInt(hex.slice(i, i + 4), 16));
  return groups;
}

/** Eight 16-bit groups as numbers in RFC 5952 form, without a BigInt: what a pool's block arithmetic gives. */
export function formatIpv6Groups(groups: ArrayLike<number>): string {
  const texts = (groupTexts ??= ["", "", "", "", "", "", "", ""]);
  for (let i = 0; i < 8; i++) texts[i] = groups[i]!.toString(16);
  return joinIpv6Groups(texts);
}

/** formatIpv6Groups' group texts, reused: joinIpv6Groups reads them before it returns. */
let groupTexts: string[] | null = null;

/**
 * Eight group texts (lower-case hex, no leading zeros) joined, the longest run of two or more zero groups (the first on
 * a tie) as '::' (RFC 5952 §4.2).
 */
function joinIpv6Groups(groups: readonly string[]): string {
  let bestStart = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== "0") {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === "0") j++;
    if (j - i > bestLen) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  // Concatenated as it goes (no join, no slices): a page formats an address per row, a route table's text filter every
  // block.
  let out = "";
  let separate = false;
  for (let i = 0; i < 8; i++) {
    if (i === bestStart) {
      out += "::";
      i += bestLen - 1;
      separate = false;
      continue;
    }
    out += separate ? `:${groups[i]!}` : groups[i]!;
    separate = true;
  }
  return out;
}

/** Parses an address of either family. */
export function parseAddress(text: string): { family: Family; value: bigint } | null {
  if (text.includes(":")) {
    const v6 = parseIpv6(text);
    return v6 === null ? null : { family: 6, value: v6 };
  }
  const v4 = parseIpv4(text);
  return v4 === null ? null : { family: 4, value: BigInt(v4) };
}

/** Formats an address of either family. */
export function formatAddress(family: Family, value: bigint): string {
  return family === 4 ? formatIpv4(Number(value)) : formatIpv6(value);
}

/** The mask selecting the network bits of a prefix length. */
function networkMask(family: Family, length: number): bigint {
  const bits = BigInt(familyBits(family));
  const all = (1n << bits) - 1n;
  return all ^ ((1n << (bits - BigInt(length))) - 1n);
}

/**
 * Parses `address/length` or a bare address (a host prefix). With `strict`,
 * host bits must be zero (profiles); without, they are masked off (query
 * filters such as `ip=100.64.1.7/16`).
 */
export function parsePrefix(text: string, strict = true): Prefix | null {
  const slash = text.indexOf("/");
  const addrText = slash < 0 ? text : text.slice(0, slash);
  const addr = parseAddress(addrText.trim());
  if (addr === null) return null;
  const max = familyBits(addr.family);
  let length = max;
  if (slash >= 0) {
    const lenText = text.slice(slash + 1).trim();
    if (!/^\d{1,3}$/.test(lenText)) return null;
    length = Number(lenText);
    if (length > max) return null;
  }
  const base = addr.value & networkMask(addr.family, length);
  if (strict && base !== addr.value) return null;
  return { family: addr.family, base, length };
}

/** Formats a prefix as `address/length`. */
export function formatPrefix(p: Prefix): string {
  return `${formatAddress(p.family, p.base)}/${p.length}`;
}

/** Number of addresses a prefix spans. */
export function prefixSpan(p: Prefix): bigint {
  return 1n << BigInt(familyBits(p.family) - p.length);
}

/** Last address inside a prefix. */
export function prefixLast(p: Prefix): bigint {
  return p.base + prefixSpan(p) - 1n;
}

/** True when `inner` lies wholly inside `outer`. */
export function prefixContains(outer: Prefix, inner: Prefix): boolean {
  return (
    outer.family === inner.family &&
    inner.length >= outer.length &&
    (inner.base & networkMask(outer.family, outer.length)) === outer.base
  );
}

/** True when two prefixes share at least one address. */
export function prefixesOverlap(a: Prefix, b: Prefix): boolean {
  return prefixContains(a, b) || prefixContains(b, a);
}

/** True when a single address lies inside a prefix. */
export function prefixHas(p: Prefix, family: Family, value: bigint): boolean {
  return p.family === family && (value & networkMask(family, p.length)) === p.base;
}

/** RFC 1918 and RFC 6598 space: what a CGN inside pool may hold. */
export const PRIVATE_IPV4: readonly Prefix[] = ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10"].map(
  (t) => parsePrefix(t) as Prefix,
);

/** True when an IPv4 prefix lies inside private (RFC 1918) or shared (RFC 6598) address space. */
export function isPrivateIpv4(p: Prefix): boolean {
  return PRIVATE_IPV4.some((space) => prefixContains(space, p));
}

/** A uint32 range [first, last] covering an IPv4 prefix, for numeric matching on the hot path. */
export function ipv4Range(p: Prefix): { first: number; last: number } {
  return { first: Number(p.base), last: Number(prefixLast(p)) };
}

/**
 * The uint32 ranges of IPv4 addresses whose dotted-quad text starts with
 * `text` (e.g. "100.64.1" → 100.64.1.*, 100.64.10-19.*, 100.64.100-199.*),
 * so a textual prefix filter runs as integer compares. Null when the text
 * cannot start a dotted quad.
 */
export function ipv4TextRanges(text: string): { first: number; last: number }[] | null {
  if (!/^[0-9.]*$/.test(text)) return null;
  const parts = text.split(".");
  if (parts.length > 4) return null;
  const partial = parts.pop() ?? "";
  let base = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255 || (p.length > 1 && p.startsWith("0"))) return null;
    base = base * 256 + Number(p);
  }
  const shift = 8 * (3 - parts.length);
  const span = 2 ** shift;
  const ranges: { first: number; last: number }[] = [];
  for (let v = 0; v < 256; v++) {
    if (!String(v).startsWith(partial)) continue;
    const first = (base * 256 + v) * span;
    const prev = ranges[ranges.length - 1];
    if (prev && prev.last + 1 === first) prev.last = first + span - 1;
    else ranges.push({ first, last: first + span - 1 });
  }
  return ranges.length > 0 ? ranges : null;
}
