/**
 * Names the UI gives to parts of the API's answers, all read from the
 * contract (`Answer<typeof contract.…>`: the operations' own zod schemas, as
 * types only), plus the two wire types no single answer carries: the problem
 * document and the role.
 */
import type { z } from "zod";
import type { contract } from "bngfleet:contract";
import type { Answer, Input } from "./api.ts";
import type { ProblemDetails as ProblemSchema } from "../src/schemas/common.ts";
import type { Role as RoleType } from "../src/auth/roles.ts";

export type Role = RoleType;
/** RFC 9457 problem details, as every failed call answers. */
export type Problem = z.output<typeof ProblemSchema>;
export type Whoami = Answer<typeof contract.authSession.whoami>;
export type Alarm = Answer<typeof contract.alarms.list>["active"][number];
export type LogEntry = Answer<typeof contract.logs.tail>["entries"][number];
export type ConfigHistoryEntry = Answer<typeof contract.config.history>["items"][number];
/** A configuration change set, as PUT /config and POST /config/validate take it. */
export type ConfigChangeSet = Input<typeof contract.config.apply>["body"];
export type FleetAppliance = Answer<typeof contract.fleet.appliances>[number];
