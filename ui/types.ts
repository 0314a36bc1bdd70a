/**
 * The API's wire types, read from the server's own zod schemas (type-only
 * imports: no server code reaches the browser bundle).
 */
import type { z } from "zod";
import type { LoginResponse as LoginResponseSchema, Whoami as WhoamiSchema, TokenCreated as TokenCreatedSchema, OidcSignInOptions as OidcSignInOptionsSchema } from "../src/schemas/auth.ts";
import type { ProblemDetails as ProblemSchema } from "../src/schemas/common.ts";
import type { Health as HealthSchema, SystemStatus as SystemStatusSchema } from "../src/schemas/system.ts";
import type { SessionList as SessionListSchema, SessionSummaryCounts as SummarySchema, SessionDetail as SessionDetailSchema, SessionRates as SessionRatesSchema } from "../src/schemas/sessions.ts";
import type { MetricsHistory as MetricsHistorySchema } from "../src/schemas/metrics.ts";
import type { AlarmsResponse as AlarmsSchema, Alarm as AlarmSchema } from "../src/schemas/alarms.ts";
import type { LogEntry as LogEntrySchema, LogTail as LogTailSchema } from "../src/schemas/logs.ts";
import type { ConfigValues as ConfigValuesSchema, ConfigHistoryEntry as ConfigHistoryEntrySchema, ConfigValidationResult as ConfigValidationSchema, ConfigChangeSet as ConfigChangeSetSchema } from "../src/schemas/config.ts";
import type { ConfigCommitResult as ConfigCommitSchema } from "../src/schemas/commit.ts";
import type { FleetAppliance as FleetApplianceSchema } from "../src/schemas/fleet.ts";
import type { Role as RoleType } from "../src/auth/roles.ts";

export type Role = RoleType;
export type LoginResponse = z.output<typeof LoginResponseSchema>;
export type OidcSignInOptions = z.output<typeof OidcSignInOptionsSchema>;
export type Whoami = z.output<typeof WhoamiSchema>;
export type TokenCreated = z.output<typeof TokenCreatedSchema>;
export type Problem = z.output<typeof ProblemSchema>;
export type Health = z.output<typeof HealthSchema>;
export type SystemStatus = z.output<typeof SystemStatusSchema>;
export type SessionList = z.output<typeof SessionListSchema>;
export type SessionSummaryCounts = z.output<typeof SummarySchema>;
export type SessionDetail = z.output<typeof SessionDetailSchema>;
export type SessionRates = z.output<typeof SessionRatesSchema>;
export type MetricsHistory = z.output<typeof MetricsHistorySchema>;
export type AlarmsResponse = z.output<typeof AlarmsSchema>;
export type Alarm = z.output<typeof AlarmSchema>;
export type LogEntry = z.output<typeof LogEntrySchema>;
export type LogTail = z.output<typeof LogTailSchema>;
export type ConfigValues = z.output<typeof ConfigValuesSchema>;
export type ConfigHistoryEntry = z.output<typeof ConfigHistoryEntrySchema>;
export type ConfigValidationResult = z.output<typeof ConfigValidationSchema>;
export type ConfigChangeSet = z.input<typeof ConfigChangeSetSchema>;
export type ConfigCommitResult = z.output<typeof ConfigCommitSchema>;
export type FleetAppliance = z.output<typeof FleetApplianceSchema>;
import type { UpgradeStatus as UpgradeStatusSchema } from "../src/schemas/upgrade.ts";
import type { TokenPage as TokenPageSchema, PasskeyRecord as PasskeyRecordSchema } from "../src/schemas/auth.ts";
export type UpgradeStatus = z.output<typeof UpgradeStatusSchema>;
export type TokenPage = z.output<typeof TokenPageSchema>;
export type PasskeyRecord = z.output<typeof PasskeyRecordSchema>;
