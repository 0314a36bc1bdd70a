/**
 * The HTTP-01 answer (RFC 8555 §8.3): the ACME CA fetches
 * `/.well-known/acme-challenge/{token}` from the listener, anonymously, and
 * expects the key authorization as the whole body. Only a token of the
 * appliance's own attempt under way is answered (exact match); anything else
 * is 404. Outside `/api/v1` and the OpenAPI document: it is the CA's
 * interface, not the operator's (described under the certificate details).
 */
import { StatusError } from "../http/problem.ts";
import { inWorker } from "../http/route.ts";
import { acme } from "../schemas/acme.ts";

export const acmeRoutes = [
  inWorker(acme.challenge, async (ctx) => {
    const answer = await ctx.port.acme.challenge(ctx.params.token);
    if (answer === null) throw new StatusError(404, "no ACME challenge with this token is pending on this appliance");
    return new Response(answer, {
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
    });
  }),
];
