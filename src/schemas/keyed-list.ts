/**
 * Config-backed keyed-list resources (VRFs, source-VRF rules, GRE circuits,
 * local subscribers, BGP neighbors …), their wire shapes: the REST body and
 * the row a read answers follow the list's child specs in the configuration
 * registry, so a new child is one edit in src/config/registry.ts. Each
 * section's contract declares its lists here and its operations with these
 * shapes; the handlers that map a body to configuration children and run the
 * configuration pipeline are in src/routes/keyed-list.ts.
 *
 * Shapes are checked by the body schema (400); values by configuration
 * validation (422), which knows ranges, references and uniqueness. An
 * integer's range is still documented on the body member (`configInt`), read
 * from the registry's own schema, so generated clients and tests send values
 * in range and the one definition of the range stays the registry's. The
 * registry is loaded at run time, so the web UI's bundle carries it.
 */
import { z } from "zod";
import { configKey, isIntegerType, type FieldSpec, type ListKey } from "../config/registry.ts";

/** The range a registry schema accepts (`uint(16, 64, 32768)`: 64 and 32768), as JSON Schema keywords. */
function rangeOf(spec: FieldSpec): { minimum: number; maximum: number } {
  const { minValue, maxValue } = spec.schema as z.ZodNumber;
  if (
    minValue === null ||
    maxValue === null ||
    Math.abs(minValue) >= Number.MAX_SAFE_INTEGER ||
    Math.abs(maxValue) >= Number.MAX_SAFE_INTEGER
  ) {
    throw new Error(`a ${spec.type} configuration value without a range`);
  }
  return { minimum: minValue, maximum: maxValue };
}

/**
 * A request's integer for a configuration value (a keyed-list child, or a
 * field such as `cgn.maxBindings`): its wire shape (`int`, default any
 * integer) documented with the registry's range, which configuration
 * validation enforces (422, with every other rejected value).
 */
export function configInt(spec: FieldSpec | string, int: () => z.ZodType<number> = () => z.int()): z.ZodType<number> {
  const field = typeof spec === "string" ? configField(spec) : spec;
  return int().meta(rangeOf(field));
}

/** A field's spec, or a keyed-list child's as `<list>/<child>` (`cgn.groups/chunkSize`). */
function configField(path: string): FieldSpec {
  const [key, child] = path.split("/");
  const found = configKey(key!);
  const spec = found?.kind === "list" ? (child ? found.children[child] : undefined) : found;
  if (!spec) throw new Error(`no configuration value '${path}'`);
  return spec;
}

/** How a section writes its members; sections differ in bounds the spec gives them. */
export interface WireStyle {
  /** A text member (local subscribers bound free text to 1024 characters). */
  text: () => z.ZodString;
  /** An integer member (`z.int32()` where the spec says int32). */
  int: () => z.ZodType<number>;
  /** A list-mode member. */
  list: () => z.ZodType<string[]>;
  /**
   * An integer child with a default: `apply` fills it in when absent; `nullable` takes absent or null as the default.
   */
  defaults: "apply" | "nullable";
}

/** Unbounded text and integers, defaults through null (most sections). */
export const PLAIN: WireStyle = {
  text: () => z.string(),
  int: () => z.int(),
  list: () => z.array(z.string()),
  defaults: "nullable",
};

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

/** A boolean child: a JSON boolean on the wire. */
export const isBoolean = (spec: FieldSpec) => spec.type === "boolean";
/** An integer child: a JSON number on the wire. */
export const isInteger = (spec: FieldSpec) => isIntegerType(spec.type);
// An enum child's own schema (a z.enum) is its wire shape: the body and the row list its members.
const isEnum = (spec: FieldSpec) => spec.type === "enum";

/** The schema with its description: the section's wording where it has one (null: none), else `fallback`. */
function described<T extends z.ZodType>(
  schema: T,
  name: string,
  descriptions: Descriptions | undefined,
  fallback?: string,
): T {
  const text = descriptions && name in descriptions ? descriptions[name] : fallback;
  return typeof text === "string" ? schema.meta({ description: text }) : schema;
}

/** One keyed list of the configuration as a REST resource's shapes. */
export class KeyedList {
  readonly path: string;
  /** The list's children and their specs, in registry order. */
  readonly specs: readonly [string, FieldSpec][];
  readonly #style: WireStyle;
  readonly #options: KeyedListOptions;

  constructor(options: KeyedListOptions) {
    const key = typeof options.list === "string" ? configKey(options.list) : options.list;
    if (key?.kind !== "list") throw new Error(`'${String(options.list)}' is not a keyed list of the registry`);
    this.path = key.path;
    this.#options = options;
    this.#style = options.style ?? PLAIN;
    this.specs = Object.entries(key.children);
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
      const base = isInteger(spec) ? configInt(spec, style.int) : isEnum(spec) ? spec.schema : style.text();
      if (spec.required) return spec.secret && mode === "replace" ? base.optional() : base;
      if (isInteger(spec) && typeof spec.default === "number" && style.defaults === "apply")
        return configInt(spec, style.int).default(spec.default);
      return base.nullable().optional();
    };
    const fields = Object.fromEntries(
      this.specs.map(([name, spec]) => [name, described(member(spec), name, this.#options.body, spec.description)]),
    );
    return { ...fields, comment: described(Comment, "comment", this.#options.body, COMMENT) };
  }

  /** The row members of every child but secrets (a section says whether one is set its own way). */
  rowFields(): Record<string, z.ZodType> {
    const member = (spec: FieldSpec): z.ZodType => {
      if (isBoolean(spec)) return z.boolean();
      if (spec.listMode) return z.array(z.string());
      const base = isInteger(spec) ? z.int() : isEnum(spec) ? spec.schema : z.string();
      return spec.required || spec.default !== null ? base : base.nullable();
    };
    return Object.fromEntries(
      this.specs
        .filter(([, spec]) => !spec.secret)
        .map(([name, spec]) => [name, described(member(spec), name, this.#options.row)]),
    );
  }

  /** The `?comment=` of a DELETE. */
  static readonly deleteQuery = z.object({ comment: z.string().max(1024).optional().meta({ description: COMMENT }) });
}
