/** Where the web UI is reached, as the configuration says. */
import type { Value } from "./types.ts";

/**
 * The origins the web UI's pages are served from: each `webUi.listeners` URL
 * with its host replaced by the name browsers use (`webUi.hostname`). OIDC
 * redirect URIs and passkey origins are both bound to them.
 */
export function pageOrigins(listeners: Value, hostname: string | null): string[] {
  return (Array.isArray(listeners) ? listeners : []).map((listener) => {
    const url = new URL(listener);
    if (hostname !== null) url.hostname = hostname;
    return url.origin;
  });
}
