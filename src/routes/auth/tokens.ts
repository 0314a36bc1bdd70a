/** Named API tokens: created by a super-user, plaintext shown once, stored as SHA-256, revocable. */
import { z } from "zod";
import { route } from "../../http/route.ts";
import { StatusResult, pageQuery, slicePage } from "../../schemas/common.ts";
import { unwrap } from "../../http/refusal.ts";
import { actorName } from "../../schemas/principal.ts";
import { TokenCreate, TokenCreated, TokenPage, TokenRecord } from "../../schemas/auth.ts";

const TokenId = z.object({ id: z.string().regex(/^[0-9a-f]{16}$/, "a token id (16 hex digits)") });

export const tokenRoutes = [
  route({
    method: "POST",
    path: "/api/v1/auth/tokens",
    section: "Authentication",
    summary: "Create a named token with a fixed role",
    description: "The plaintext (`bngtok_` + 30 random base62 characters + a 6-character CRC-32 checksum) is returned exactly once; only its SHA-256 is stored.",
    body: TokenCreate,
    response: { description: "the token record with its plaintext", schema: TokenCreated },
    errors: [409],
    handle: async (ctx) => {
      const created = unwrap(await ctx.appliance.stub.identity().createToken(ctx.body.name, ctx.body.role, ctx.body.expiresUtc ?? null, actorName(ctx.principal!)));
      ctx.responseHeaders.set("cache-control", "no-store");
      return created.token;
    },
  }),
  route({
    method: "GET",
    path: "/api/v1/auth/tokens",
    section: "Authentication",
    summary: "List tokens (never their plaintext)",
    floor: "super-user",
    query: pageQuery(100, 1000),
    response: { description: "a page of token records, newest first", schema: TokenPage },
    handle: async (ctx) => slicePage(await ctx.appliance.stub.identity().listTokens(), ctx.query.offset, ctx.query.limit),
  }),
  route({
    method: "GET",
    path: "/api/v1/auth/tokens/{id}",
    section: "Authentication",
    summary: "One token's record (never its plaintext)",
    floor: "super-user",
    params: TokenId,
    response: { description: "TokenRecord", schema: TokenRecord },
    errors: [404],
    handle: async (ctx) => unwrap(await ctx.appliance.stub.identity().getToken(ctx.params.id)).token,
  }),
  route({
    method: "DELETE",
    path: "/api/v1/auth/tokens/{id}",
    section: "Authentication",
    summary: "Revoke a token; it stops working at once",
    params: TokenId,
    response: { description: "StatusResult `deleted`", schema: StatusResult },
    errors: [404, 409],
    handle: async (ctx) => {
      unwrap(await ctx.appliance.stub.identity().revokeToken(ctx.params.id, actorName(ctx.principal!)));
      return { status: "deleted" as const };
    },
  }),
];
