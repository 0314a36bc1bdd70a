/**
 * The launcher's resolver (launcher/resolver.ts) as the workerd projects bind it (BNG_RESOLVER): the system's, except
 * for the names RFC 6761 §6.2 reserves for testing (`*.test`), which the suites' fakes stand behind (the ACME tests'
 * `https://ca.test`, pointed at a loopback stand-in by a spy on fetch below the policy): those resolve to a public
 * address of TEST-NET-3 (RFC 5737), as the CA or peer they play would.
 */
import { resolveName } from "../../launcher/resolver.ts";

export function testResolver(request: Request): Promise<Response> | Response {
  const name = new URL(request.url).searchParams.get("name") ?? "";
  return name.endsWith(".test") ? Response.json(["203.0.113.10"]) : resolveName(request);
}
