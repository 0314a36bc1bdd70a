/**
 * Results of configuration commits, shared by every config-changing section (VRFs, source-VRF rules, and later GRE
 * circuits, local subscribers and CGN).
 */
import { z } from "zod";
import { actorName, type Principal } from "./principal.ts";

/** What started a commit; `user` is an account change (accounts live in the configuration document). */
export const ConfigOperation = z.enum([
  "seed",
  "config",
  "vrf",
  "source-vrf-rule",
  "rollback",
  "certificate",
  "acme",
  "gre-listener",
  "gre-circuit",
  "cgn-group",
  "cgn-settings",
  "local-subscriber",
  "user",
  "routing",
  "bgp-neighbor",
  "static-routes",
]);
export type ConfigOperation = z.output<typeof ConfigOperation>;

/**
 * What a configuration store's commit reports: the version it made active, when, whether a restart is needed, and the
 * paths it changed.
 */
export interface CommitSummary {
  version: number;
  committedUtc: string;
  restartRequired: boolean;
  changedPaths: string[];
}

/** A commit as a keyed list's answer reports it (the paths it changed are the item's own). */
export type CommitStamp = Omit<CommitSummary, "changedPaths">;

const committed = {
  status: z.literal("committed"),
  committedUtc: z.iso.datetime().nullable().meta({
    description: "when the version was committed; for a change that changed nothing, when the active version was",
  }),
  version: z.int().min(1).meta({ description: "configuration version now active (unchanged when nothing changed)" }),
  restartRequired: z.boolean().meta({ description: "true when a touched key only takes full effect after a restart" }),
};

export const CommitResult = z
  .object({ ...committed, name: z.string().meta({ description: "the touched object" }) })
  .meta({
    id: "CommitResult",
    description:
      "result of a config-changing operation on one named object; the change is in the configuration history",
  });
export type CommitResult = z.infer<typeof CommitResult>;

export const ConfigCommitResult = z
  .object({
    ...committed,
    changedPaths: z.array(z.string()).meta({
      description: "pointers of every changed field, list item and item child (see the Configuration section)",
    }),
  })
  .meta({ id: "ConfigCommitResult", description: "result of a configuration change set or rollback" });
export type ConfigCommitResult = z.output<typeof ConfigCommitResult>;

/** The CommitResult of a store's commit summary. */
export const commitResult = (name: string, summary: CommitStamp): CommitResult => ({
  status: "committed",
  name,
  committedUtc: summary.committedUtc,
  version: summary.version,
  restartRequired: summary.restartRequired,
});

/** The ConfigCommitResult of a store's commit summary. */
export const configCommitResult = (summary: CommitSummary): ConfigCommitResult => ({
  status: "committed",
  committedUtc: summary.committedUtc,
  version: summary.version,
  restartRequired: summary.restartRequired,
  changedPaths: summary.changedPaths,
});

/**
 * Who made a commit and why, as the configuration history records it: the acting principal, the operation, the caller's
 * comment;
 * and the request's `If-Match`, the version the commit must find active.
 */
export const commitMeta = <O extends ConfigOperation>(
  request: { principal: Principal | null; ifMatch: string | null },
  operation: O,
  comment?: string | null,
) => ({
  actor: actorName(request.principal!),
  operation,
  comment,
  ifMatch: request.ifMatch,
});
