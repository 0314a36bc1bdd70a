/**
 * The HTTP-01 answer (RFC 8555 §8.3): the ACME CA fetches
 * `/.well-known/acme-challenge/{token}` from the listener, anonymously, and
 * expects the key authorization as the whole body. Only a token of the
 * appliance's own attempt under way is answered (exact match); anything else
 * is 404. Outside `/api/v1` and the OpenAPI document: it is the CA's
 * interface, not the operator's (described under the certificate details).
 */
import { z } from "zod";
import { StatusError } from "../http/problem.ts";
import { route } from "../http/route.ts";

export const acmeRoutes = [
  route({
    method: "GET",
    path: "/.well-known/acme-challenge/{token}",
    section: "Configuration",
    summary: "HTTP-01 challenge answer for the ACME CA",
    hidden: true,
    floor: "anonymous",
    // RFC 8555 §8.3: the token is base64url (at least 128 bits of entropy), so nothing else can match.
    params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,256}$/, "a base64url ACME token") }),
    response: { description: "the key authorization", contentType: "text/plain" },
    errors: [404],
    handle: async (ctx) => {
      const answer = await ctx.appliance.stub.acme().challengeAnswer(ctx.params.token);
      if (answer === null) throw new StatusError(404, "no ACME challenge with this token is pending on this appliance");
      return new Response(answer, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
    },
  }),
];
