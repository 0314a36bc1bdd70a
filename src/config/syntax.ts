/**
 * Syntax of the configuration's text values: route distinguishers and route
 * targets (RFC 4364 §4.2, RFC 4360 §4), listener and sink URLs, host names.
 * Pure functions, shared by the registry's zod types and the validator.
 */
import { parseAddress, parseIpv4, parsePrefix } from "../../simulator/prefix.ts";

const UINT16 = 0xffff;
const UINT32 = 0xffffffff;

const decimal = (text: string, max: number): number | null => {
  if (!/^\d{1,10}$/.test(text)) return null;
  const value = Number(text);
  return value <= max ? value : null;
};

/**
 * `<asn>:<number>`: a 2-byte ASN with a 4-byte number (type 0) or a 4-byte
 * ASN with a 2-byte number (type 2), as RFC 4364 §4.2 packs them into 6 bytes.
 */
export function isAsnPair(text: string): boolean {
  const match = /^(\d+):(\d+)$/.exec(text);
  if (!match) return false;
  const asn = decimal(match[1]!, UINT32);
  if (asn === null) return false;
  return decimal(match[2]!, asn <= UINT16 ? UINT32 : UINT16) !== null;
}

/** A route distinguisher as the spec writes it: `<asn>:<number>`. */
export const isRouteDistinguisher = isAsnPair;

/** A route target: `<asn>:<n>` or `<ipv4>:<n>` (a 2-byte number after an address, RFC 4360 §4). */
export function isRouteTarget(text: string): boolean {
  if (isAsnPair(text)) return true;
  const colon = text.lastIndexOf(":");
  if (colon < 0) return false;
  return parseIpv4(text.slice(0, colon)) !== null && decimal(text.slice(colon + 1), UINT16) !== null;
}

/** A DNS name (letters, digits, '-', labels of 1-63, 253 in all). */
export function isHostname(text: string): boolean {
  return (
    text.length <= 253 &&
    /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/.test(text)
  );
}

/** An IPv4 address. */
export const isIpv4 = (text: string): boolean => parseIpv4(text) !== null;
/** An IPv6 address. */
export const isIpv6 = (text: string): boolean => text.includes(":") && parseAddress(text) !== null;
/** An address of either family. */
export const isIpAddress = (text: string): boolean => parseAddress(text) !== null;
/** An address or a prefix with its host bits zero. */
export const isPrefix = (text: string): boolean => parsePrefix(text, true) !== null;
/** A prefix in `address/length` form with its host bits zero. */
export const isCidr = (text: string): boolean => text.includes("/") && parsePrefix(text, true) !== null;

const parseUrl = (text: string): URL | null => {
  try {
    return new URL(text);
  } catch {
    return null;
  }
};

/** A web listener: `http(s)://<address>:<port>` on an IP literal, no path. */
export function isListenerUrl(text: string): boolean {
  const url = parseUrl(text);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return false;
  if (url.pathname !== "/" || url.search || url.hash || url.username) return false;
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIpAddress(host) && /:\d+\/?$/.test(text);
}

/**
 * An http(s) origin: scheme, host and optional port, nothing else (a trailing
 * `/` is tolerated). A peer is an appliance, not a path: with a path or a
 * query, the fleet proxy would fetch any page of any host for its readers.
 */
export function isOriginUrl(text: string): boolean {
  const url = parseUrl(text);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) return false;
  return (
    url.pathname === "/" &&
    !url.search &&
    !url.hash &&
    !url.username &&
    !url.password &&
    !/[?#]/.test(text) &&
    /^https?:\/\/[^/]+\/?$/i.test(text)
  );
}

/** An absolute URL whose scheme is one of `schemes` (without the colon). */
export function hasScheme(text: string, schemes: readonly string[]): boolean {
  const url = parseUrl(text);
  return url !== null && schemes.includes(url.protocol.replace(/:$/, ""));
}

/** `host:port` or `[ipv6]:port`, the key of a RADIUS server. */
export function parseHostPort(text: string): { host: string; port: number } | null {
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  if (!match) return null;
  const host = match[1] ?? match[2]!;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  if (match[1] !== undefined ? !isIpv6(host) : !(isIpv4(host) || isHostname(host))) return null;
  return { host, port };
}
