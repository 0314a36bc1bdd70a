/**
 * The handlers of config-backed keyed-list resources, built once for every
 * section that has one: a body becomes configuration children and runs the
 * configuration pipeline; a stored item becomes its row. The shapes (body,
 * row, the DELETE's query) are the contract's, src/schemas/keyed-list.ts.
 */
import type { EditValue } from "../config/edit.ts";
import { REDACTED, type FieldSpec } from "../config/registry.ts";
import type { ConfigItem, Value } from "../config/types.ts";
import { isBoolean, isInteger, type KeyedList } from "../schemas/keyed-list.ts";
import { committed } from "../http/config-version.ts";
import type { WorkerContext } from "../http/route.ts";
import type { Outcome } from "../schemas/outcome.ts";
import { commitResult, type CommitResult, type CommitStamp } from "../schemas/commit.ts";

type InWorker = WorkerContext<unknown, unknown, unknown>;
/** A commit port of a keyed list (durable-objects/ports/keyed-list.ts), as the Worker calls it. */
type CommitPort = (
  key: string,
  fields: Record<string, EditValue>,
  comment: string | null,
) => Promise<Outcome<CommitStamp>>;
type RemovePort = (key: string, comment: string | null) => Promise<Outcome<CommitStamp>>;
type Body = Record<string, unknown>;
type Mode = "create" | "replace" | "upsert";

/** The commit comment of a body built from bodyFields. */
export const commentOf = (body: unknown): string | null => {
  const comment = (body as { comment?: unknown }).comment;
  return typeof comment === "string" ? comment : null;
};

/** One keyed list of the configuration as its handlers read and write it. */
export class ConfigList {
  readonly path: string;
  readonly #specs: readonly [string, FieldSpec][];

  constructor(list: KeyedList) {
    this.path = list.path;
    this.#specs = list.specs;
  }

  /**
   * The body as configuration children. A secret left out keeps the stored one on a replacement and is unset on a
   * creation.
   */
  children(body: Body, mode: Mode): Record<string, EditValue> {
    return Object.fromEntries(
      this.#specs.map(([name, spec]): [string, EditValue] => {
        const value = body[name];
        if (spec.secret)
          return [name, value === undefined ? (mode === "create" ? null : REDACTED) : (value as string | null)];
        if (spec.listMode) return [name, (value as string[] | null | undefined) ?? []];
        if (value === null || value === undefined) return [name, null];
        return [name, typeof value === "string" ? value : String(value)];
      }),
    );
  }

  /** An item's children as its row's members, each of its type (the default where the stored value is missing). */
  rowValues(item: ConfigItem): Record<string, Value> {
    const value = (spec: FieldSpec, stored: Value | undefined): Value => {
      if (spec.listMode) return Array.isArray(stored) ? stored : [];
      const expected = isBoolean(spec) ? "boolean" : isInteger(spec) ? "number" : "string";
      return typeof stored === expected ? stored! : spec.default;
    };
    return Object.fromEntries(
      this.#specs.filter(([, spec]) => !spec.secret).map(([name, spec]) => [name, value(spec, item.values[name])]),
    );
  }

  /** Whether the item holds a value for a secret child. */
  static secretSet = (item: ConfigItem, child: string): boolean =>
    item.values[child] !== null && item.values[child] !== undefined;

  /**
   * A handler in the Worker committing the body as the item `keyOf` names through the operation's port (create: 409 if
   * it exists; replace: 404 if not; upsert: either).
   */
  write(
    mode: Mode,
    keyOf: (ctx: InWorker & { params: Record<string, string>; body: Body }) => string,
    port: (ctx: InWorker) => CommitPort,
  ) {
    return async (ctx: InWorker): Promise<CommitResult> => {
      const typed = ctx as InWorker & { params: Record<string, string>; body: Body };
      const key = keyOf(typed);
      return commitResult(
        key,
        committed(ctx, await port(ctx)(key, this.children(typed.body, mode), commentOf(typed.body))),
      );
    };
  }

  /**
   * A handler in the Worker deleting the item the URL names through the operation's port (404 if there is none), with
   * the `comment` query parameter.
   */
  erase(param: string, port: (ctx: InWorker) => RemovePort) {
    return async (ctx: InWorker): Promise<CommitResult> => {
      const key = (ctx.params as Record<string, string>)[param]!;
      return commitResult(
        key,
        committed(ctx, await port(ctx)(key, (ctx.query as { comment?: string } | undefined)?.comment ?? null)),
      );
    };
  }
}
