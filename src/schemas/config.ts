/** The Configuration section's wire shapes: the active values, and the history (one entry per committed version, and what started it). */
import { z } from "zod";
import { REDACTED } from "../config/registry.ts";
import { DateTime } from "./common.ts";

/** What started a commit; `user` is an account change (accounts live in the configuration document). */
export const ConfigOperation = z
  .enum(["seed", "config", "vrf", "source-vrf-rule", "rollback", "certificate", "acme", "gre-listener", "gre-circuit", "cgn-group", "cgn-settings", "local-subscriber", "user", "routing", "bgp-neighbor", "static-routes"]);
export type ConfigOperation = z.output<typeof ConfigOperation>;

const TextValue = z.string().nullable();

const ConfigListItem = z
  .object({ key: z.string(), values: z.record(z.string(), TextValue).meta({ description: "child path to text; null = unset" }) })
  .meta({ id: "ConfigListItem" });

export const ConfigValues = z
  .object({
    fields: z.record(z.string(), TextValue).meta({ description: `schema path to text; secrets read \`${REDACTED}\`; list-mode fields newline-joined; null = unset` }),
    lists: z.record(z.string(), z.array(ConfigListItem)).meta({ description: "list path to its items, in configuration order" }),
  })
  .meta({ id: "ConfigValues", description: "every active field, secrets redacted" });
export type ConfigValues = z.output<typeof ConfigValues>;

export const ConfigChange = z.object({ pointer: z.string(), before: TextValue, after: TextValue });
export type ConfigChange = z.output<typeof ConfigChange>;

export const ConfigHistoryEntry = z
  .object({
    version: z.int(),
    committedUtc: DateTime,
    actor: z.string().meta({ description: "`token:<name>`, `user:<name>`, or `system` for the seeded version 1" }),
    comment: z.string().nullable(),
    operation: ConfigOperation,
    rollbackTo: z.int().nullable().meta({ description: "for a rollback, the version restored" }),
    restartRequired: z.boolean(),
    changedPaths: z.array(z.string()),
    changes: z.array(ConfigChange).meta({ description: `each changed value before and after, in text form; secrets read \`${REDACTED}\`` }),
  })
  .meta({ id: "ConfigHistoryEntry" });
export type ConfigHistoryEntry = z.output<typeof ConfigHistoryEntry>;
