/**
 * The local fleet's resolver (issue #47): workerd gives a Worker no way to resolve a name, so the outbound policy
 * (src/config/destinations.ts) asks this one, a Miniflare service binding (`BNG_RESOLVER`) run in the launcher,
 * for every address a destination's name resolves to now, and judges each as a literal address. It asks the
 * system's resolver (getaddrinfo, /etc/hosts included), as workerd's own connect does.
 */
import { lookup } from "node:dns/promises";

/** GET `?name=<name>`: the addresses as a JSON array, empty when the name does not resolve. */
export async function resolveName(request: Request): Promise<Response> {
  const name = new URL(request.url).searchParams.get("name") ?? "";
  try {
    const found = await lookup(name, { all: true, verbatim: true });
    return Response.json(found.map((entry) => entry.address));
  } catch {
    return Response.json([]);
  }
}
