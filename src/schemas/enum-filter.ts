/**
 * A query filter over a fixed set of values. The spec: "string filters are
 * case-insensitive", and that includes enum-valued ones (`encap=PPPOE-LAC`
 * is `pppoe-lac`); a value outside the set stays a 400 listing the choices.
 *
 * The document states what the server accepts, so a validating client or
 * proxy (Prism) lets `PPPoE-LAC` through: a `pattern` of the values with
 * each letter as a two-case class (`[Pp][Pp][Pp][Oo][Ee]-[Ll][Aa][Cc]`).
 * JSON Schema's regular expressions (ECMA-262) have no case-insensitive
 * flag, and an `enum` of every spelling would run to 2^n entries. The
 * handlers receive the canonical spelling, which the operation's
 * description names.
 */
import { z } from "zod";

/** `value` as a pattern matching it in any case. */
const anyCase = (value: string) =>
  [...value]
    .map((c) =>
      c.toLowerCase() !== c.toUpperCase()
        ? `[${c.toUpperCase()}${c.toLowerCase()}]`
        : c.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"),
    )
    .join("");

/** A case-insensitive filter over `values`, giving the canonical spelling. */
export function enumFilter<const T extends string>(values: readonly T[]) {
  const canonical = (text: string) => values.find((v) => v.toLowerCase() === text.toLowerCase()) ?? text;
  return z
    .string()
    .transform(canonical)
    .pipe(z.enum(values as [T, ...T[]]))
    .meta({ pattern: `^(${values.map(anyCase).join("|")})$` });
}
