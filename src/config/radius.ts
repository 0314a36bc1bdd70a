/**
 * RADIUS servers in the configuration (`radius.servers`, key `host:port` or
 * `[ipv6]:port`, child `weight`), as the simulation takes them. Hot-applied:
 * the list's order is the order requests walk the servers in; secrets are the
 * appliance's, not the simulation's.
 */
import type { RadiusServerSettings } from "../../simulator/aaa.ts";
import type { ConfigItem } from "./types.ts";
import { parseHostPort } from "./syntax.ts";

/** The configured servers, in order (items whose key does not parse are the validator's to refuse). */
export function radiusServersOf(items: readonly ConfigItem[]): RadiusServerSettings[] {
  return items.flatMap(({ key, values }) => {
    const at = parseHostPort(key);
    return at ? [{ host: at.host, port: at.port, weight: typeof values.weight === "number" ? values.weight : 1 }] : [];
  });
}
