/** Schemas shared by several sections: problem details, status results, paging. */
import { z } from "zod";

/**
 * Where a rejected value sat, with the reason (the `in` names the request part, or `config` for the configuration
 * document).
 */
export const FieldError = z.object({
  in: z.enum(["path", "query", "body", "header", "config"]),
  pointer: z
    .string()
    .meta({ description: "JSON Pointer (RFC 6901) to the rejected value within that part, e.g. `#/username`" }),
  detail: z.string(),
});
export type FieldError = z.output<typeof FieldError>;

export const ProblemDetails = z
  .object({
    type: z.string().nullable(),
    title: z.string().nullable(),
    status: z.int().nullable(),
    detail: z.string().nullable(),
    instance: z.string().nullable().meta({ description: "request path the problem relates to" }),
    errors: z.array(FieldError).optional().meta({
      description: "every rejected field with its reason (400 validation failures and 422 configuration rejections)",
    }),
  })
  .meta({
    id: "ProblemDetails",
    description: "RFC 9457 problem details; every error body, `application/problem+json`",
  });

export const StatusResult = z
  .object({
    status: z.enum(["loggedOut", "enrolled", "created", "updated", "deleted"]),
    username: z.string().optional().meta({ description: "affected account when the action targets one" }),
  })
  .meta({ id: "StatusResult", description: "small result of several auth actions" });
export type StatusResult = z.infer<typeof StatusResult>;

/** A session id in a path (`/sessions/{id}`, the session's capture). */
export const SessionIdParams = z.object({
  id: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .meta({ description: "uint32 session id" }),
});

/**
 * A boolean query parameter: documented as `type: boolean`, which OpenAPI
 * tools serialise as the text `true` or `false` (style form), the text read
 * here. Only those two spellings, in any case.
 */
export function queryBoolean() {
  return z.stringbool({ truthy: ["true"], falsy: ["false"] }).meta({ type: "boolean" });
}

export const DateTime = z.iso.datetime().meta({ description: "ISO 8601 UTC" });

/**
 * A count a query clamps (`limit`, the log tail's `count`): the spec's int32,
 * so any int32 is taken and clamped, and a value past int32 is a 400 like any
 * other malformed number.
 */
export const clampedInt32 = (defaultValue: number, min: number, max: number) =>
  z.coerce
    .number()
    .int()
    .min(-(2 ** 31))
    .max(2 ** 31 - 1)
    .default(defaultValue)
    .transform((n) => Math.min(max, Math.max(min, n)));

/** `offset` (default 0) and `limit` (default, clamped to 1..max): the spec clamps rather than rejects. */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return z.object({
    offset: z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(0),
    limit: clampedInt32(defaultLimit, 1, maxLimit).meta({
      description: `page size (int32), default ${defaultLimit}, clamped to 1-${maxLimit}`,
    }),
  });
}

/** A page of items as the spec's list endpoints return them. */
export function page<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({ total: z.int(), offset: z.int(), limit: z.int(), items: z.array(item) })
    .meta({ id, description: "`total` counts items before paging" });
}

/** Clamps and slices a list the way every paged endpoint does. */
export function slicePage<T>(items: T[], offset: number, limit: number) {
  return { total: items.length, offset, limit, items: items.slice(offset, offset + limit) };
}
