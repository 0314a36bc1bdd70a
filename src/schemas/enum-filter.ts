/**
 * A query filter over a fixed set of values. The spec: "string filters are
 * case-insensitive", and that includes enum-valued ones (`encap=PPPOE-LAC`
 * is `pppoe-lac`); a value outside the set stays a 400 listing the choices.
 * The document shows the canonical values (`enum`), which are what the
 * handlers receive.
 */
import { z } from "zod";

/** A case-insensitive filter over `values`, giving the canonical spelling. */
export function enumFilter<const T extends string>(values: readonly T[]) {
  const canonical = (text: string) => values.find((v) => v.toLowerCase() === text.toLowerCase()) ?? text;
  return z
    .string()
    .transform(canonical)
    .pipe(z.enum(values as [T, ...T[]]))
    .meta({ enum: [...values] });
}
