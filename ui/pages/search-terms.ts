/** What a person types into the subscriber search, read as the session list's filter it means. Pure. */

export type SearchKind = "ip" | "mac" | "vlan" | "username";

/**
 * Matches the fleet-wide search reads per appliance, newest first: the rows its card shows (the benchmark reads as
 * many).
 */
export const FIRST_ROWS = 5;
/** Matches read from one appliance when the engineer asks for more than its card shows: its first page. */
export const PAGE_ROWS = 50;

/**
 * A MAC in any of the three spellings people paste (colons, dashes, Cisco dots), as the API writes it: lower case,
 * colons.
 */
function macOf(text: string): string | null {
  const hex =
    /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i.test(text) || /^[0-9a-f]{4}\.[0-9a-f]{4}\.[0-9a-f]{4}$/i.test(text)
      ? text.replace(/[^0-9a-f]/gi, "").toLowerCase()
      : null;
  return hex ? hex.match(/../g)!.join(":") : null;
}

/**
 * What the typed text is: an IPv4 or IPv6 address or prefix, a MAC, a VLAN (`100`, or `100.200` as S-VLAN.C-VLAN), else
 * a username substring.
 */
export function classify(text: string): { kind: SearchKind; value: string } {
  const t = text.trim();
  const mac = macOf(t);
  if (mac) return { kind: "mac", value: mac };
  if (/^\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?$/.test(t)) return { kind: "ip", value: t };
  if (/^[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,7}(\/\d{1,3})?$/i.test(t)) return { kind: "ip", value: t.toLowerCase() };
  if (/^\d{1,4}(\.\d{1,4})?$/.test(t)) return { kind: "vlan", value: t };
  return { kind: "username", value: t };
}
