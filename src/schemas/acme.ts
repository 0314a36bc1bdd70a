/**
 * ACME, the wire contract: the client's status as the certificate details
 * show it (the one wire shape for the object and the route), and the HTTP-01
 * answer the CA fetches (RFC 8555 §8.3). The answer is outside `/api/v1` and
 * the OpenAPI document: it is the CA's interface, not the operator's
 * (described under the certificate details).
 */
import { z } from "zod";
import { operation } from "./contract.ts";
import { DateTime } from "./common.ts";

export const AcmeStatus = z
  .object({
    enabled: z.boolean().meta({ description: "`acme.enabled`" }),
    directoryUrl: z.string().nullable().meta({ description: "`acme.directoryUrl`; null = not configured" }),
    state: z.enum(["idle", "ordering", "issued", "failed"]).meta({
      description:
        "`idle`: nothing under way (ACME disabled, or due at the next check); " +
        "`ordering`: an attempt is under way; `issued`: the listener serves the ACME " +
        "certificate; `failed`: the last attempt failed, see `lastError` and " +
        "`nextAttemptUtc`",
    }),
    names: z.array(z.string()).meta({
      description: "what an order asks for: `acme.names`, else `webUi.hostname`, else the listeners' addresses",
    }),
    accountUrl: z
      .string()
      .nullable()
      .meta({ description: "the account registered with this directory; null until one is (its key is never shown)" }),
    lastAttemptUtc: DateTime.nullable(),
    lastError: z.string().nullable().meta({ description: "why the last attempt failed; null after a success" }),
    issuedUtc: DateTime.nullable().meta({ description: "when the certificate served was issued, if it is ACME's" }),
    renewalUtc: DateTime.nullable().meta({
      description:
        "when the certificate served will be renewed (`acme.renewBeforeDays` before " +
        "expiry, at most a third of its lifetime before)",
    }),
    nextAttemptUtc: DateTime.nullable().meta({
      description:
        "after a failure, when the next attempt runs (1 min, doubling to a day; a commit " +
        "of an `acme.*` key retries at once)",
    }),
  })
  .meta({ id: "AcmeStatus" });
export type AcmeStatus = z.output<typeof AcmeStatus>;

/** The section's operations. */
export const acme = {
  challenge: operation({
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
  }),
};
