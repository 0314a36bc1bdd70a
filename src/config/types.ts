/**
 * The configuration's value and document shapes: a leaf module. The registry
 * imports the field validators (gre.ts, cgn.ts, local-subscribers.ts, …) for
 * its checks, so they read these types from here, never from the registry or
 * the document module, and the import graph stays a tree.
 */

/** A field's value: a scalar, a list of scalars (list mode), or null (unset). */
export type Value = string | number | boolean | string[] | null;

/** One item of a keyed list: its key and its children's values. */
export interface ConfigItem {
  key: string;
  values: Record<string, Value>;
}

/** Every field's value and every keyed list's items, in insertion order. */
export interface ConfigDocument {
  fields: Record<string, Value>;
  lists: Record<string, ConfigItem[]>;
}
