/**
 * Scenario control, the wire contract: the twin's own surface (outside
 * `/api/v1`) for scripting faults reproducibly. The scenario actions and the
 * scenario file are defined here, the single source of their validation,
 * their types (the simulator and the appliance import them) and their
 * OpenAPI description.
 */
import { z } from "zod";
import { operation } from "./contract.ts";

const Percent = z.number().min(0).max(100);
/**
 * Control-plane daemons a scenario can make unreachable (spec Errors 3: their endpoints then answer 200 with
 * `reachable` false).
 */
export const DAEMONS = ["routing", "ipsec"] as const;
const DisconnectFilter = z
  .strictObject({
    encap: z.string().optional(),
    ip: z.string().optional(),
    port: z
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .optional(),
    type: z.string().optional(),
    username: z.string().optional(),
    vrf: z.string().optional(),
    walledGarden: z.boolean().optional(),
  })
  .default({});

/** Every scenario action. */
export const ScenarioAction = z.discriminatedUnion("action", [
  z.strictObject({
    action: z.literal("advance-clock"),
    seconds: z
      .number()
      .min(0)
      .max(30 * 86_400),
  }),
  z.strictObject({ action: z.literal("set-churn-multiplier"), multiplier: z.number().min(0).max(1000) }),
  z.strictObject({ action: z.literal("fail-radius-server"), server: z.string().min(1).describe("host or host:port") }),
  z.strictObject({ action: z.literal("revive-radius-server"), server: z.string().min(1) }),
  z.strictObject({
    action: z.literal("fill-pool"),
    pool: z.string().min(1),
    percent: Percent.describe("share of the free blocks to reserve"),
  }),
  z.strictObject({ action: z.literal("drain-pool"), pool: z.string().min(1) }),
  z.strictObject({ action: z.literal("fill-cgn-group"), group: z.string().min(1), percent: Percent }),
  z.strictObject({ action: z.literal("drain-cgn-group"), group: z.string().min(1) }),
  z.strictObject({
    action: z.literal("disconnect-sessions"),
    share: z.number().min(0).max(1),
    filter: DisconnectFilter,
  }),
  z.strictObject({
    action: z.literal("reseed"),
    seed: z
      .int()
      .min(0)
      .max(2 ** 32 - 1),
  }),
  z.strictObject({
    action: z.literal("fail-daemon"),
    daemon: z.enum(DAEMONS).describe("`routing` (BGP and the IGP) or `ipsec` (the IKE daemon)"),
  }),
  z.strictObject({ action: z.literal("revive-daemon"), daemon: z.enum(DAEMONS) }),
  z.strictObject({
    action: z.literal("fail-l2tp-peer"),
    peer: z
      .string()
      .min(1)
      .describe("an L2TP peer's address or host name (`GET /l2tp/tunnels` shows `peerIp` and `peerHostname`)"),
  }),
  z.strictObject({ action: z.literal("revive-l2tp-peer"), peer: z.string().min(1) }),
]);
export type ScenarioAction = z.output<typeof ScenarioAction>;

/**
 * Actions beyond the data plane's: they act on the appliance's control plane
 * (routing, software upgrade, licence), so the appliance carries them out.
 */
export const ApplianceScenarioAction = z.discriminatedUnion("action", [
  z.strictObject({
    action: z.literal("reset-bgp"),
    neighbor: z
      .string()
      .min(1)
      .max(255)
      .nullable()
      .default(null)
      .describe("a configured global neighbor's address; null or absent resets every one (a hard `clear bgp *`)"),
  }),
  z.strictObject({
    action: z.literal("upgrade"),
    version: z
      .string()
      .regex(/^\d+\.\d+\.\d+$/)
      .describe("the version of the signed package staged and applied, e.g. `0.2.0`"),
    drain: z
      .boolean()
      .default(true)
      .describe("drain subscribers before the reboot, as POST /system/upgrade/apply `drain`"),
  }),
  z.strictObject({
    action: z.literal("load-lease"),
    days: z.int().min(1).max(3650).describe("the lease expires this many simulated days from now"),
    graceDays: z.int().min(0).max(365).default(30).describe("days of Grace after expiry before the licence is Lapsed"),
    bandMax: z.int().min(1).max(10_000_000).default(2000).describe("licensed sessions"),
  }),
]);
export type ApplianceScenarioAction = z.output<typeof ApplianceScenarioAction>;

/** Every action POST /twin/v1/scenario and a scenario file accept. */
export const TwinScenarioAction = z.discriminatedUnion("action", [
  ...ScenarioAction.options,
  ...ApplianceScenarioAction.options,
]);
export type TwinScenarioAction = z.output<typeof TwinScenarioAction>;

const MAX_SECONDS = 366 * 86_400;

const At = z
  .number()
  .min(0)
  .max(MAX_SECONDS)
  .describe("simulated seconds since the scenario started (the file's time zero)");
// Each action's own strict object plus `at`: an intersection would let the strict objects refuse `at`.
const Step = z.discriminatedUnion(
  "action",
  TwinScenarioAction.options.map((o) => o.extend({ at: At })) as unknown as [(typeof ScenarioAction.options)[0]],
) as unknown as z.ZodType<TwinScenarioAction & { at: number }, z.input<typeof TwinScenarioAction> & { at: number }>;

/** A scenario file. */
export const ScenarioFile = z
  .strictObject({
    description: z.string().max(4096).optional().describe("what the scenario tells, for the reader of the file"),
    seed: z
      .int()
      .min(0)
      .max(2 ** 32 - 1)
      .optional()
      .describe("reseed the data plane at time zero (a fresh data plane: the same seed and file give the same state)"),
    steps: z
      .array(Step)
      .max(10_000)
      .describe(
        "actions in order of `at` (equal times run in file order); each is one POST /twin/v1/scenario body plus `at`",
      ),
    until: z
      .number()
      .min(0)
      .max(MAX_SECONDS)
      .optional()
      .describe("run the clock on to this many seconds after time zero once the last step has run"),
  })
  .superRefine((file, ctx) => {
    file.steps.forEach((step, i) => {
      const before = file.steps[i - 1];
      if (before && step.at < before.at)
        ctx.addIssue({
          code: "custom",
          path: ["steps", i, "at"],
          message: `steps must be in time order: ${step.at} s comes after ${before.at} s`,
        });
    });
    const last = file.steps.at(-1)?.at ?? 0;
    if (file.until !== undefined && file.until < last)
      ctx.addIssue({
        code: "custom",
        path: ["until"],
        message: `until (${file.until} s) is before the last step (${last} s)`,
      });
  })
  .meta({ id: "ScenarioFile" });
export type ScenarioFile = z.output<typeof ScenarioFile>;

export const ScenarioState = z
  .object({
    appliance: z.string(),
    profile: z.string(),
    seed: z.int(),
    simulatedTimeUtc: z.string(),
    clockLeadSeconds: z
      .int()
      .meta({ description: "how far simulated time runs ahead of the wall clock after advance-clock actions" }),
    sessions: z.int(),
    lastSeq: z.int(),
  })
  .meta({ id: "ScenarioState" });
export type ScenarioState = z.output<typeof ScenarioState>;

/**
 * The faults scenario actions left in force: what a CI pipeline checks before it declares the appliance back to normal.
 */
export const ScenarioFaults = z
  .object({
    churnMultiplier: z
      .number()
      .min(0)
      .meta({ description: "the factor `set-churn-multiplier` last set; 1 is the profile's own churn" }),
    failedDaemons: z.array(z.enum(DAEMONS)).meta({
      description:
        "control-plane daemons `fail-daemon` made unreachable and no `revive-daemon` " +
        "brought back (their endpoints answer `reachable` false), in name order",
    }),
  })
  .meta({ id: "ScenarioFaults" });
export type ScenarioFaults = z.output<typeof ScenarioFaults>;

export const ScenarioRunResult = z
  .object({ ok: z.literal(true), steps: z.int(), state: ScenarioState })
  .meta({ id: "ScenarioRunResult" });
export type ScenarioRunResult = z.output<typeof ScenarioRunResult>;

/**
 * What one action did, and the state after it (the simulator's own outcome is `ScenarioResult`, simulator/scenario.ts).
 */
export const ScenarioActionResult = z
  .object({
    ok: z.literal(true),
    action: z.string(),
    detail: z.record(z.string(), z.union([z.number(), z.string()])),
    state: ScenarioState,
  })
  .meta({ id: "ScenarioResult" });
export type ScenarioActionResult = z.output<typeof ScenarioActionResult>;

/** The section's operations. */
export const scenario = {
  state: operation({
    method: "GET",
    path: "/twin/v1/scenario",
    section: "Scenario control",
    summary: "The simulation's clock, seed, profile and size",
    description:
      "The twin's state for a CI pipeline to check before and after its actions: the " +
      "appliance, its simulation profile and seed, the simulated time, how far it runs " +
      "ahead of the wall clock, the live session count and the newest log sequence number.",
    floor: "super-user",
    response: { description: "ScenarioState", schema: ScenarioState },
    examples: {
      response: {
        appliance: "edge-1",
        profile: "small",
        seed: 1001,
        simulatedTimeUtc: "2026-11-26T20:35:10.000Z",
        clockLeadSeconds: 0,
        sessions: 1999,
        lastSeq: 113,
      },
    },
  }),
  faults: operation({
    method: "GET",
    path: "/twin/v1/scenario/faults",
    section: "Scenario control",
    summary: "The faults scenario actions left in force",
    description:
      "What the scenario actions set that is still in force: the churn multiplier and " +
      "the control-plane daemons made unreachable. A reseed starts the simulation " +
      "again with neither (multiplier 1, no daemon failed).",
    floor: "super-user",
    response: { description: "ScenarioFaults", schema: ScenarioFaults },
    examples: { response: { churnMultiplier: 3, failedDaemons: ["routing"] } },
  }),
  apply: operation({
    method: "POST",
    path: "/twin/v1/scenario",
    section: "Scenario control",
    summary: "Apply one scenario action",
    description:
      "Actions: `advance-clock {seconds}`, `set-churn-multiplier {multiplier}`, " +
      "`fail-radius-server {server}`, `revive-radius-server {server}`, " +
      ("`fill-pool {pool, percent}`, `drain-pool {pool}`, `fill-cgn-group {group, " +
        "percent}`, `drain-cgn-group {group}`, ") +
      ("`disconnect-sessions {share, filter}`, `reseed {seed}`, `fail-daemon {daemon}` " +
        "and `revive-daemon {daemon}` (`routing` or `ipsec`: their endpoints then answer " +
        "`reachable` false; a reseed starts them again), ") +
      ("`reset-bgp {neighbor}` (the session, or every global neighbor's, starts afresh: " +
        "a flap), `upgrade {version, drain}` (applies the signed package of that version " +
        "staged through POST /system/upgrade/stage, as the apply endpoint would: 409 " +
        "when none is; the local launcher's scenario files bring packages signed with " +
        "its development key) and ") +
      ("`load-lease {days, graceDays, bandMax}` (the twin issues and loads an offline " +
        "lease expiring in `days` simulated days). Same seed and same actions give the " +
        "same state."),
    floor: "super-user",
    body: TwinScenarioAction,
    response: {
      description: "what the action did, and the state after it",
      schema: ScenarioActionResult,
    },
    errors: [404, 409, 422],
    examples: {
      body: { action: "revive-radius-server", server: "radius-2.isp.example" },
      response: {
        ok: true,
        action: "revive-radius-server",
        detail: { server: "radius-2.isp.example:1812" },
        state: {
          appliance: "edge-1",
          profile: "small",
          seed: 1001,
          simulatedTimeUtc: "2026-11-26T20:35:10.000Z",
          clockLeadSeconds: 0,
          sessions: 1999,
          lastSeq: 111,
        },
      },
      errors: { 404: "no such server in this appliance's profile" },
    },
  }),
  run: operation({
    method: "POST",
    path: "/twin/v1/scenario/run",
    section: "Scenario control",
    summary: "Run a scenario file: a timeline of scenario actions at simulated times",
    description:
      "Runs the file's steps in order: a reseed first when it names a `seed`, then for " +
      "each step the clock is advanced to its `at` (simulated seconds since the run " +
      "started) and its action applied, then the clock runs on to `until`. " +
      ("The same seed and the same file give the same state. A refused step stops the " +
        "run with that step's error (`steps[n]` names it); the steps before it stay applied. ") +
      ("`npm start` runs one at start-up on every appliance when `BNG_SCENARIO` names a " +
        "file; examples are in `scenarios/`."),
    floor: "super-user",
    body: ScenarioFile,
    response: {
      description: "the number of steps run and the state after the last one",
      schema: ScenarioRunResult,
    },
    errors: [404, 409, 422],
    examples: {
      body: { description: "IKE daemon restart", steps: [{ at: 0, action: "revive-daemon", daemon: "ipsec" }] },
      response: {
        ok: true,
        steps: 1,
        state: {
          appliance: "edge-1",
          profile: "small",
          seed: 1001,
          simulatedTimeUtc: "2026-11-26T20:35:10.000Z",
          clockLeadSeconds: 0,
          sessions: 1999,
          lastSeq: 113,
        },
      },
      errors: { 404: "steps[0] (at 0 s, drain-pool): no such pool in this appliance's profile" },
    },
  }),
};
