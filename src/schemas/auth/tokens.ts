/** Authentication, named API tokens, the wire contract: created by a super-user, plaintext shown once, revocable. */
import { z } from "zod";
import { operation } from "../contract.ts";
import { StatusResult, pageQuery } from "../common.ts";
import { TokenCreate, TokenCreated, TokenPage, TokenRecord } from "../auth.ts";

const TokenId = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, "a token id (16 hex digits)") });

/** The section's operations. */
export const tokens = {
  create: operation({
    method: "POST",
    path: "/api/v1/auth/tokens",
    section: "Authentication",
    summary: "Create a named token with a fixed role",
    description:
      "The plaintext (`bngtok_` + 30 random base62 characters + a 6-character CRC-32 " +
      "checksum) is returned exactly once; only its SHA-256 is stored.",
    body: TokenCreate,
    response: { description: "the token record with its plaintext", schema: TokenCreated },
    errors: [409],
    examples: {
      body: { name: "grafana edge-1", role: "read-only", expiresUtc: null },
      response: {
        id: "e4ae605c589e3b36",
        name: "grafana edge-1",
        role: "read-only",
        prefix: "bngtok_xjfgT",
        createdUtc: "2026-11-26T20:35:11.797Z",
        createdBy: "token:bootstrap",
        lastUsedUtc: null,
        expiresUtc: null,
        source: "api",
        token: "bngtok_xjfgT0d4xRfJTQMBggMG5OG2pjJQoe3L1E0a",
      },
      errors: { 409: "a token named 'grafana edge-1' already exists" },
    },
  }),
  list: operation({
    method: "GET",
    path: "/api/v1/auth/tokens",
    section: "Authentication",
    summary: "List tokens (never their plaintext)",
    description:
      "Each token's id, name, role, the first characters of its plaintext (to " +
      "recognise it), creator, creation, last-use and expiry times, and `source` " +
      "(`config`: provisioned by the fleet configuration, not revocable here), paged. " +
      "Only a SHA-256 hash of a token is stored, so the plaintext, shown once at " +
      "creation, can never be read back: a lost token is revoked and replaced.",
    floor: "super-user",
    query: pageQuery(100, 1000),
    response: { description: "a page of token records, newest first", schema: TokenPage },
    examples: {
      query: { offset: 0, limit: 10 },
      response: {
        total: 5,
        offset: 0,
        limit: 10,
        items: [
          {
            id: "e4ae605c589e3b36",
            name: "grafana edge-1",
            role: "read-only",
            prefix: "bngtok_xjfgT",
            createdUtc: "2026-11-26T20:35:11.797Z",
            createdBy: "token:bootstrap",
            lastUsedUtc: null,
            expiresUtc: null,
            source: "api",
          },
          {
            id: "50c92892c5304da4",
            name: "fleet:edge-3",
            role: "read-only",
            prefix: "bngtok_vmqHz",
            createdUtc: "2026-11-26T20:34:59.785Z",
            createdBy: "configuration",
            lastUsedUtc: null,
            expiresUtc: null,
            source: "config",
          },
        ],
      },
    },
  }),
  get: operation({
    method: "GET",
    path: "/api/v1/auth/tokens/{id}",
    section: "Authentication",
    summary: "One token's record (never its plaintext)",
    description:
      "The same record as a row of the token list, by its id; 404 for an unknown id. " +
      "The plaintext is never stored, so it is never shown.",
    floor: "super-user",
    params: TokenId,
    response: { description: "TokenRecord", schema: TokenRecord },
    errors: [404],
    examples: {
      params: { id: "9a40a8320f241c16" },
      response: {
        id: "9a40a8320f241c16",
        name: "fleet:edge-2",
        role: "read-only",
        prefix: "bngtok_NMeZI",
        createdUtc: "2026-11-26T20:34:59.785Z",
        createdBy: "configuration",
        lastUsedUtc: null,
        expiresUtc: null,
        source: "config",
      },
      errors: { 404: "no token with id '9a40a8320f241c16'" },
    },
  }),
  revoke: operation({
    method: "DELETE",
    path: "/api/v1/auth/tokens/{id}",
    section: "Authentication",
    summary: "Revoke a token; it stops working at once",
    description:
      "The token is refused from the next request on, and the revocation is logged and " +
      "audited. 404 for an unknown id; 409 for a token provisioned by the fleet " +
      "configuration (change the configuration instead).",
    params: TokenId,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404, 409],
    examples: {
      params: { id: "c542d55949957294" },
      response: { status: "deleted" },
      errors: { 404: "no token with id 'c542d55949957294'" },
    },
  }),
};
