/**
 * The data-plane simulator's public surface: the Gateway façade, the profile
 * schema, scenario actions, snapshot encoding and the log and alarm
 * catalogues. Pure ES2023: nothing here touches Workers or Node.
 */
export { Gateway, type GatewayOptions, type StepReport } from "./gateway.ts";
export type { LicenceMeter, ModelViews } from "./views.ts";
export { Profile, parseProfile, ENCAPS, type Encap, type PoolConfig, type CgnGroupConfig } from "./profile.ts";
export type { ScenarioResult } from "./scenario.ts";
export { timeline, type TimelineStep } from "./scenario-file.ts";
export {
  encodeSnapshot,
  decodeSnapshot,
  profileFingerprint,
  DEFAULT_CHUNK_BYTES,
  SNAPSHOT_FORMAT,
  type GatewaySnapshot,
  type Json,
} from "./snapshot.ts";
export * from "./vocabulary.ts";
export { isSeverity, type FieldValue, type ModelMsgId } from "./log-catalogue.ts";
export type { LogListener } from "./logs.ts";
export type { LogEntry, LogTail } from "../src/schemas/logs.ts";
export type { AlarmId } from "./alarms.ts";
export type { Alarm, AlarmClearResult, AlarmsResponse, AlertNotification } from "../src/schemas/alarms.ts";
export { METRICS_CAPACITY, RANGES, type MetricsRange } from "./metrics.ts";
export type { MetricsHistory } from "../src/schemas/metrics.ts";
export { SUB_STEP_SECONDS } from "./clock.ts";
export type { RadiusReconfigureReport, RadiusServerSettings } from "./aaa.ts";
export type {
  AccessOutcome,
  AccessRequestRecord,
  AcceptedAttributes,
  AccountingRecord,
  Pacing,
  ServerHealth,
} from "./radius-records.ts";
export type { RadiusPoolStatus } from "../src/schemas/radius.ts";
export {
  MAX_POOLS,
  MAX_SUBNETS,
  delegationFits,
  poolIssues,
  withStatics,
  type PoolDefinition,
  type PoolFamily,
  type PoolIssue,
  type PoolSettings,
  type StaticAllocation,
} from "./pool-rules.ts";
export type { PoolReconfigureReport, PoolReconfigureResult } from "./pool-reconfigure.ts";
export type { CaptureStopReason } from "./captures.ts";
export type { CaptureRecord, CaptureRow } from "../src/schemas/captures.ts";
export type { BindingQuery, PortBlockRecord } from "./cgn.ts";
export type { CgnBindingRow, CgnBindingsPage, CgnGroup, CgnStatus } from "../src/schemas/cgn.ts";
export type {
  AddressPool as AddressPoolView,
  AddressPoolAllocation,
  AddressPoolAllocationsPage,
} from "../src/schemas/address-pools.ts";
export {
  LOCAL_KINDS,
  placeAddress,
  placePrefix,
  type LocalKind,
  type LocalSubscriber,
  type LocalSubscriberStatus,
  type Placement,
} from "./local-subscribers.ts";
export { LOCAL_RETRY_MS, type LocalInstallReport } from "./local-sessions.ts";
export type { SessionDetail, SessionQuery } from "./session-queries.ts";
export type { SessionList, SessionRates, SessionSummary, SessionSummaryCounts } from "../src/schemas/sessions.ts";
export {
  compileSteering,
  matchSteering,
  sessionSteering,
  type SourceVrfRule,
  type SteeringMatch,
  type SteeringTable,
} from "./steering.ts";
export { frameBytes, type InjectRefusal } from "./inject.ts";
export type { InjectRequest, InjectResult, PingResult, TraceStep } from "../src/schemas/diagnostics.ts";
export { PORT_MTU } from "./frame-sizes.ts";
export { PPPOE_MTU, L2TP_MTU, type PingOutcome, type PingReply, type PingRequest, type PingRoute } from "./ping.ts";
export { l2tpSettings, type L2tpDirection, type L2tpSettings, type L2tpTunnelState } from "./l2tp.ts";
export type { L2tpTunnel, L2tpTunnelDetail, L2tpTunnelSession } from "../src/schemas/l2tp.ts";
export {
  DAY_MS,
  DEV_TERMS,
  licenceState,
  offlineTerms,
  onlineTerms,
  renewedTerms,
  type LeaseGrant,
  type LicenceGrant,
  type LicenceTerms,
} from "./licence.ts";
export type { LicenceStatus } from "../src/schemas/licensing.ts";
export { planUpgrade, upgradePhase, type Maintenance, type UpgradePhase, type UpgradePlan } from "./upgrade-plan.ts";
export {
  chassisOf,
  portHardware,
  type HardwareIdentity,
  type HardwareInventory,
  type PortLoad,
  type SystemLoad,
} from "./hardware.ts";
