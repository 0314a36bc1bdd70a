/**
 * Config-backed keyed-list resources (VRFs, source-VRF rules, GRE circuits,
 * local subscribers, BGP neighbors …) derived from the configuration
 * registry: the REST body, the mapping from body to configuration children
 * and the row a read answers all follow the list's child specs, so a new
 * child is one edit in src/config/registry.ts. The route table stays data in
 * each section's file (paths, floors, texts); the handlers that run the
 * configuration pipeline are built here, once.
 *
 * Shapes are checked by the body schema (400); values by configuration
 * validation (422), which knows ranges, references and uniqueness.
 */
import { z } from "zod";
import type { EditValue } from "../config/edit.ts";
import { REDACTED, configKey, isIntegerType, type FieldSpec, type ListKey } from "../config/registry.ts";
import type { ConfigItem, Value } from "../config/types.ts";
import type { ConfigOperation } from "../schemas/config.ts";
import { unwrap } from "../http/refusal.ts";
import { committed, tagConfigRead } from "../http/config-version.ts";
import type { RouteContext } from "../http/route.ts";
import { commitMeta, commitResult, type CommitResult } from "../schemas/commit.ts";

/** How a section writes its members; sections differ in bounds the spec gives them. */
export interface WireStyle {
  /** A text member (local subscribers bound free text to 1024 characters). */
  text: () => z.ZodString;
  /** An integer member (`z.int32()` where the spec says int32). */
  int: () => z.ZodType<number>;
  /** A list-mode member. */
  list: () => z.ZodType<string[]>;
  /** An integer child with a default: `apply` fills it in when absent; `nullable` takes absent or null as the default. */
  defaults: "apply" | "nullable";
}

/** Unbounded text and integers, defaults through null (most sections). */
export const PLAIN: WireStyle = { text: () => z.string(), int: () => z.int(), list: () => z.array(z.string()), defaults: "nullable" };

/** Descriptions of body (or row) members where the section words them differently from the registry; null = none. */
export type Descriptions = Readonly<Record<string, string | null>>;

export interface KeyedListOptions {
  /** The registry path of the keyed list, e.g. `vrfs` (or the list itself). */
  list: string | ListKey;
  style?: WireStyle;
  /** Body members' descriptions that differ from the registry's. */
  body?: Descriptions;
  /** Row members' descriptions; members not named here have none. */
  row?: Descriptions;
}

const COMMENT = "commit comment, recorded in the configuration history";
const Comment = z.string().max(1024).nullable().optional();
type Ctx = RouteContext<unknown, unknown, unknown>;
type Body = Record<string, unknown>;
type Mode = "create" | "replace" | "upsert";

const isBoolean = (spec: FieldSpec) => spec.type === "boolean";
const isInteger = (spec: FieldSpec) => isIntegerType(spec.type);
// An enum child's own schema (a z.enum) is its wire shape: the body and the row list its members.
const isEnum = (spec: FieldSpec) => spec.type === "enum";

/** The schema with its description: the section's wording where it has one (null: none), else `fallback`. */
function described<T extends z.ZodType>(schema: T, name: string, descriptions: Descriptions | undefined, fallback?: string): T {
  const text = descriptions && name in descriptions ? descriptions[name] : fallback;
  return typeof text === "string" ? schema.meta({ description: text }) : schema;
}

/** The commit comment of a body built from bodyFields. */
export const commentOf = (body: unknown): string | null => {
  const comment = (body as { comment?: unknown }).comment;
  return typeof comment === "string" ? comment : null;
};

/** One keyed list of the configuration as a REST resource. */
export class KeyedList {
  readonly path: string;
  readonly #style: WireStyle;
  readonly #options: KeyedListOptions;
  readonly #children: [string, FieldSpec][];

  constructor(options: KeyedListOptions) {
    const key = typeof options.list === "string" ? configKey(options.list) : options.list;
    if (key?.kind !== "list") throw new Error(`'${String(options.list)}' is not a keyed list of the registry`);
    this.path = key.path;
    this.#options = options;
    this.#style = options.style ?? PLAIN;
    this.#children = Object.entries(key.children);
  }

  /**
   * The body members of every child, and the commit comment: a write is a
   * full replacement, so absent members take their defaults. A required
   * secret is required on `create` and optional on `replace` (absent keeps
   * the stored one).
   */
  bodyFields(mode: "create" | "replace"): Record<string, z.ZodType> {
    const style = this.#style;
    const member = (spec: FieldSpec): z.ZodType => {
      if (isBoolean(spec)) return z.boolean().default(spec.default === true);
      if (spec.listMode) return style.list().nullable().optional();
      const base = isInteger(spec) ? style.int() : isEnum(spec) ? spec.schema : style.text();
      if (spec.required) return spec.secret && mode === "replace" ? base.optional() : base;
      if (isInteger(spec) && typeof spec.default === "number" && style.defaults === "apply") return style.int().default(spec.default);
      return base.nullable().optional();
    };
    const fields = Object.fromEntries(this.#children.map(([name, spec]) => [name, described(member(spec), name, this.#options.body, spec.description)]));
    return { ...fields, comment: described(Comment, "comment", this.#options.body, COMMENT) };
  }

  /** The body as configuration children. A secret left out keeps the stored one on a replacement and is unset on a creation. */
  children(body: Body, mode: Mode): Record<string, EditValue> {
    return Object.fromEntries(
      this.#children.map(([name, spec]): [string, EditValue] => {
        const value = body[name];
        if (spec.secret) return [name, value === undefined ? (mode === "create" ? null : REDACTED) : (value as string | null)];
        if (spec.listMode) return [name, (value as string[] | null | undefined) ?? []];
        if (value === null || value === undefined) return [name, null];
        return [name, typeof value === "string" ? value : String(value)];
      }),
    );
  }

  /** The row members of every child but secrets (a section says whether one is set its own way). */
  rowFields(): Record<string, z.ZodType> {
    const member = (spec: FieldSpec): z.ZodType => {
      if (isBoolean(spec)) return z.boolean();
      if (spec.listMode) return z.array(z.string());
      const base = isInteger(spec) ? z.int() : isEnum(spec) ? spec.schema : z.string();
      return spec.required || spec.default !== null ? base : base.nullable();
    };
    return Object.fromEntries(this.#children.filter(([, spec]) => !spec.secret).map(([name, spec]) => [name, described(member(spec), name, this.#options.row)]));
  }

  /** An item's children as its row's members, each of its type (the default where the stored value is missing). */
  rowValues(item: ConfigItem): Record<string, Value> {
    const value = (spec: FieldSpec, stored: Value | undefined): Value => {
      if (spec.listMode) return Array.isArray(stored) ? stored : [];
      const expected = isBoolean(spec) ? "boolean" : isInteger(spec) ? "number" : "string";
      return typeof stored === expected ? stored! : spec.default;
    };
    return Object.fromEntries(this.#children.filter(([, spec]) => !spec.secret).map(([name, spec]) => [name, value(spec, item.values[name])]));
  }

  /** Whether the item holds a value for a secret child. */
  static secretSet = (item: ConfigItem, child: string): boolean => item.values[child] !== null && item.values[child] !== undefined;

  /** A handler committing the body as the item `keyOf` names (create: 409 if it exists; replace: 404 if not; upsert: either). */
  put(mode: Mode, operation: ConfigOperation, keyOf: (ctx: Ctx & { params: Record<string, string>; body: Body }) => string) {
    return async (ctx: Ctx): Promise<CommitResult> => {
      const typed = ctx as Ctx & { params: Record<string, string>; body: Body };
      const key = keyOf(typed);
      const comment = commentOf(typed.body);
      return commitResult(key, committed(ctx, await ctx.appliance.stub.config().putItem(this.path, key, this.children(typed.body, mode), mode, commitMeta(ctx, operation, comment))));
    };
  }

  /** A handler deleting the item the URL names (404 if there is none), with the `comment` query parameter. */
  remove(operation: ConfigOperation, param: string) {
    return async (ctx: Ctx): Promise<CommitResult> => {
      const key = (ctx.params as Record<string, string>)[param]!;
      const comment = (ctx.query as { comment?: string } | undefined)?.comment;
      return commitResult(key, committed(ctx, await ctx.appliance.stub.config().deleteItem(this.path, key, commitMeta(ctx, operation, comment))));
    };
  }

  /** The committed item the URL names, or 404. */
  async item(ctx: Ctx, key: string): Promise<ConfigItem> {
    tagConfigRead(ctx);
    return unwrap(await ctx.appliance.stub.config().item(this.path, key)).item;
  }

  /** Every committed item, in configuration order. */
  items(ctx: Ctx): Promise<ConfigItem[]> {
    tagConfigRead(ctx);
    return Promise.resolve(ctx.appliance.stub.config().items(this.path));
  }

  /** The `?comment=` of a DELETE. */
  static readonly deleteQuery = z.object({ comment: z.string().max(1024).optional().meta({ description: COMMENT }) });
}
