/**
 * System, the wire contract: health, status, the hardware inventory and the interface table, and the section's
 * operations.
 */
import { z } from "zod";
import { DateTime } from "./common.ts";
import { operation } from "./contract.ts";

export const Health = z
  .object({
    status: z.enum(["ok", "down"]).meta({ description: "`ok` when the appliance answers and its storage reads" }),
    appliance: z.string(),
    softwareVersion: z.string().meta({
      description: "the running software, e.g. `bngfleet 0.1.0`; changes when an upgrade completes (see SystemUpgrade)",
    }),
    uptimeSeconds: z
      .int()
      .nullable()
      .meta({ description: "since the appliance's control plane (its Durable Object) started" }),
    timeUtc: z.iso.datetime(),
    checks: z.object({ storage: z.enum(["ok", "failed"]) }),
  })
  .meta({ id: "Health" });

const Percent = z.number().min(0).max(100);
const UpgradeStateEnum = z.enum(["idle", "staged", "applying", "draining", "rebooting", "failed"]);

export const SystemStatus = z
  .object({
    appliance: z.string().meta({ description: "the appliance's name in the fleet (the fleet proxy's `{appliance}`)" }),
    hostname: z.string().nullable().meta({ description: "configuration `webUi.hostname`; null = none" }),
    softwareVersion: z.string().meta({ description: "the running software, as health reports it" }),
    asOfUtc: DateTime.meta({ description: "the simulated instant every number below was read at" }),
    controlPlane: z.object({
      state: z.enum(["running", "draining", "rebooting"]).meta({
        description:
          "`running`; `draining` while an upgrade drains subscribers (no new sessions); " +
          "`rebooting` while an upgrade's reboot has the data plane down (this API stays up)",
      }),
      startedUtc: DateTime.meta({
        description: "when the control plane (the appliance's Durable Object) started, wall clock",
      }),
      uptimeSeconds: z.int().meta({ description: "since `startedUtc`, as health reports it" }),
    }),
    dataPlane: z.object({
      forwarding: z.boolean().meta({ description: "false while an upgrade's reboot has it down" }),
      acceptingSessions: z.boolean().meta({ description: "false while an upgrade drains or reboots" }),
      bootedUtc: DateTime.meta({
        description:
          "when the data plane last came up: first start, reseed, or the end of an upgrade's reboot (simulated time)",
      }),
      uptimeSeconds: z.int().meta({ description: "simulated seconds since `bootedUtc` (0 while rebooting)" }),
    }),
    simulation: z
      .object({
        profile: z.string(),
        seed: z.int().meta({ description: "the running seed (a scenario reseed changes it)" }),
        simulatedTimeUtc: DateTime.meta({
          description:
            "the simulation's clock (= `asOfUtc`), ahead of the wall clock after scenario `advance-clock` actions",
        }),
      })
      .meta({ description: "the twin's simulation profile and seed" }),
    sessions: z.object({
      total: z.int().meta({ description: "equals GET /sessions/summary `total`" }),
      licensed: z.int().meta({ description: "the licensed session capacity (`bandMax`)" }),
      utilisationPercent: Percent,
      setupsSinceBoot: z.int().min(0).meta({
        description: "sessions established since `dataPlane.bootedUtc` (the scrape's `bng_session_setups_total`)",
      }),
      teardownsSinceBoot: z
        .int()
        .min(0)
        .meta({ description: "sessions torn down since then (`bng_session_teardowns_total`)" }),
      setupFailuresSinceBoot: z
        .int()
        .min(0)
        .meta({
          description:
            "session setups that failed since then: AAA refusals, pool or CGN exhaustion " +
            "(`bng_session_setup_failures_total`)",
        }),
    }),
    traffic: z.object({ rxBps: z.number(), txBps: z.number() }).meta({
      description: "sums over the data-plane ports of the metrics history's newest point (rx = from subscribers)",
    }),
    cpu: z.object({
      cores: z.int(),
      utilisationPercent: Percent.meta({
        description:
          "3% idle, plus up to 35 points for the session table (share of the licensed " +
          "capacity) and up to 55 for forwarding (share of the ports' full-duplex capacity)",
      }),
    }),
    memory: z.object({
      totalBytes: z.int(),
      usedBytes: z.int().meta({ description: "2.5 GiB resident plus 96 KiB per session" }),
      utilisationPercent: Percent,
    }),
    alarms: z.object({
      count: z.int(),
      countBySeverity: z.record(z.string(), z.int()).meta({ description: "equals GET /alarms `countBySeverity`" }),
    }),
    configuration: z.object({
      version: z.int().meta({ description: "the active configuration version (GET /config/history)" }),
      committedUtc: DateTime,
      pendingRestart: z.boolean().meta({
        description:
          "true when a committed change applies only at a restart and the appliance has " +
          "not restarted (or rebooted for an upgrade) since",
      }),
      pendingRestartVersions: z.array(z.int()).meta({ description: "those commits' versions, oldest first" }),
    }),
    licence: z
      .object({
        state: z
          .string()
          .nullable()
          .meta({
            description:
              "the licence state, as GET /licensing reports it (`Dev`, `Licensed`, `Grace` or " +
              "`Lapsed`); null only if licensing reports none",
          }),
        meter: z.string(),
        bandMax: z.int(),
        currentCount: z.int(),
        peakCount: z.int(),
      })
      .meta({ description: "the licence meter, as GET /licensing counts it" }),
    upgrade: z.object({ state: UpgradeStateEnum.meta({ description: "as GET /system/upgrade reports it" }) }),
  })
  .meta({ id: "SystemStatus" });

export const Thresholds = z
  .object({ lowAlarm: z.number(), lowWarning: z.number(), highWarning: z.number(), highAlarm: z.number() })
  .meta({ id: "DomThresholds" });

export const Optic = z
  .object({
    formFactor: z.enum(["SFP", "SFP+", "QSFP28"]),
    type: z.string().meta({ description: "e.g. `10GBASE-LR`, `100GBASE-LR4`" }),
    wavelengthNm: z.int(),
    vendor: z.string(),
    partNumber: z.string(),
    serialNumber: z.string(),
    dom: z
      .object({
        temperatureCelsius: z.number(),
        supplyVolts: z.number(),
        lanes: z
          .array(z.object({ lane: z.int(), biasMilliamps: z.number(), txPowerDbm: z.number(), rxPowerDbm: z.number() }))
          .meta({ description: "one per optical lane (4 for QSFP28 LR4)" }),
        thresholds: z.object({ temperatureCelsius: Thresholds, txPowerDbm: Thresholds, rxPowerDbm: Thresholds }),
      })
      .meta({
        description:
          "digital optical monitoring at `asOfUtc`: readings drift slowly with the " +
          "simulated clock and warm with the port's load",
      }),
  })
  .meta({ id: "Optic" });

export const Inventory = z
  .object({
    asOfUtc: DateTime,
    chassis: z.object({
      model: z.string(),
      description: z.string(),
      serialNumber: z.string().meta({
        description:
          "derived from the appliance name and its fleet-file seed: stable across restarts, reseeds and upgrades",
      }),
      hardwareRevision: z.string(),
      baseMac: z.string().meta({ description: "locally administered; interfaces take the addresses above it" }),
      cpuCores: z.int(),
      memoryBytes: z.int(),
    }),
    lineCards: z.array(
      z.object({
        slot: z.string().meta({ description: "`<fpc>/<pic>` as in the ports' interface names" }),
        model: z.string(),
        serialNumber: z.string(),
        state: z.enum(["online"]),
        ports: z.array(z.object({ portId: z.int(), label: z.string(), name: z.string(), optic: Optic })).meta({
          description:
            "the data-plane ports: `portId` and `label` as the session summary's `byPort` " +
            "and the metrics history's `ports` show them",
        }),
      }),
    ),
    psus: z.array(
      z.object({
        slot: z.int(),
        model: z.string(),
        serialNumber: z.string(),
        state: z.enum(["ok"]),
        capacityWatts: z.int(),
        inputVolts: z.number(),
        outputWatts: z.number(),
      }),
    ),
    fans: z.array(z.object({ tray: z.int(), state: z.enum(["ok"]), speedPercent: z.number(), rpm: z.int() })),
    temperatures: z.array(
      z.object({
        sensor: z.string().meta({ description: "`inlet`, `outlet`, `cpu`, `npu`" }),
        celsius: z.number(),
        warningCelsius: z.number(),
        criticalCelsius: z.number(),
      }),
    ),
  })
  .meta({ id: "HardwareInventory" });

export const Interface = z
  .object({
    name: z.string().meta({
      description:
        "interface name: the first word of the port's label (`et-0/0/0`), a core " +
        "uplink's (`uplink0`, as the IGP configuration names it), `lo0` or `mgmt0`",
    }),
    description: z.string(),
    type: z.enum(["ethernet", "loopback", "management"]),
    portId: z.int().nullable().meta({
      description:
        "the subscriber-facing port id (sessions, metrics, diagnostics); null for the core uplinks, lo0 and mgmt0",
    }),
    label: z
      .string()
      .nullable()
      .meta({ description: "the port's label as the metrics history and session summary show it" }),
    adminState: z.enum(["up", "down"]),
    operState: z
      .enum(["up", "down"])
      .meta({ description: "data-plane ports are `down` while an upgrade's reboot has the data plane down" }),
    speedMbps: z.int().nullable(),
    mtu: z.int().meta({ description: "IP MTU" }),
    mac: z.string().nullable(),
    rxBps: z.number().meta({
      description:
        "a subscriber-facing port's equals the metrics history's newest `rxBps` point " +
        "for the port (received from subscribers); a core uplink's is its last 10 s " +
        "step's (received from the core)",
    }),
    txBps: z.number().meta({
      description:
        "a subscriber-facing port's equals the metrics history's newest `txBps` point " +
        "for the port; a core uplink's is its last 10 s step's",
    }),
    counters: z
      .object({
        rxBytes: z.int(),
        txBytes: z.int(),
        rxPackets: z.int(),
        txPackets: z.int(),
        rxErrors: z.int(),
        txErrors: z.int(),
        rxDiscards: z.int().meta({ description: "policed out-of-contract subscriber traffic" }),
        txDiscards: z.int().meta({ description: "egress shaper drops" }),
      })
      .meta({
        description:
          "frames on the wire: a subscriber-facing port's count its sessions' packets with " +
          "their Ethernet, VLAN and PPPoE headers and their control plane (LCP echo, " +
          "DHCP); a core uplink's every session's traffic to and from the core " +
          "(L2TP-tunnelled ones with their tunnel headers) and transit. Only grow while " +
          "the data plane runs; they restart at its boot (`countersSinceUtc`). lo0 and " +
          "mgmt0 traffic is not modelled (0)",
      }),
    countersSinceUtc: DateTime,
    sessions: z.int().nullable().meta({
      description:
        "subscriber sessions on the port: equals the session summary's `byPort` count; null for lo0 and mgmt0",
    }),
  })
  .meta({ id: "Interface" });

export const InterfaceTable = z
  .object({
    asOfUtc: DateTime.meta({
      description: "the instant the counters were read: it moves with them between the model's 10 s steps",
    }),
    interfaces: z.array(Interface).meta({
      description: "the subscriber-facing ports in the profile's order, the core uplinks, then lo0 and mgmt0",
    }),
    tunnels: z
      .array(
        z.object({
          name: z.string().meta({ description: "`gre-<circuit id>`" }),
          circuitId: z.string(),
          vrf: z.string(),
          operState: z.enum(["up", "down"]),
          tunnelState: z
            .string()
            .meta({ description: "as GET /gre-circuits/status shows it: `up`, `down` or `provisioning`" }),
          lastChangeUtc: DateTime,
        }),
      )
      .meta({ description: "one GRE tunnel interface per configured circuit, in configuration order" }),
  })
  .meta({ id: "InterfaceTable" });

export type Health = z.output<typeof Health>;
export type SystemStatus = z.output<typeof SystemStatus>;
export type DomThresholds = z.output<typeof Thresholds>;
export type Optic = z.output<typeof Optic>;
export type HardwareInventory = z.output<typeof Inventory>;
export type Interface = z.output<typeof Interface>;
export type InterfaceTable = z.output<typeof InterfaceTable>;

/** The section's operations. */
export const system = {
  health: operation({
    method: "GET",
    path: "/api/v1/system/health",
    section: "System",
    summary: "Appliance health; needs no credential",
    description: "200 with status `ok`, or 503 with status `down` when the appliance's state cannot be read.",
    floor: "anonymous",
    fp: true,
    response: { description: "Health", schema: Health },
    // 404: deployed, a hostname no appliance of the fleet answers to (a load
    // balancer's health check pointed at the wrong name must see that).
    errors: [404, 503],
    examples: {
      response: {
        status: "ok",
        appliance: "edge-1",
        timeUtc: "2026-11-26T20:35:12.611Z",
        softwareVersion: "bngfleet 0.1.0",
        uptimeSeconds: 12,
        checks: { storage: "ok" },
      },
    },
  }),
  status: operation({
    method: "GET",
    path: "/api/v1/system/status",
    section: "System",
    summary: "Appliance status: software, uptime, load, sessions, alarms, configuration, licence",
    description:
      "Read at one instant: `sessions.total` equals GET /sessions/summary `total`, " +
      "`alarms.countBySeverity` equals GET /alarms, `traffic` is the sum of the " +
      "metrics history's newest port rates, " +
      ("`configuration.version` is the active configuration version. CPU and memory " +
        "utilisation are derived deterministically from that load (see the fields). ") +
      ("`pendingRestart` lists committed changes to keys that apply at restart (`GET " +
        "/config/schema` `apply: restart`, e.g. CGN) made since the appliance last " +
        "started or rebooted for an upgrade."),
    fp: true,
    response: { description: "SystemStatus", schema: SystemStatus },
    examples: {
      response: {
        appliance: "edge-1",
        hostname: "edge-1.bng.localhost",
        softwareVersion: "bngfleet 0.1.0",
        asOfUtc: "2026-11-26T20:35:10.000Z",
        controlPlane: { state: "running", startedUtc: "2026-11-26T20:34:59.655Z", uptimeSeconds: 12 },
        dataPlane: {
          forwarding: true,
          acceptingSessions: true,
          bootedUtc: "2026-11-26T20:34:50.000Z",
          uptimeSeconds: 20,
        },
        simulation: { profile: "small", seed: 1001, simulatedTimeUtc: "2026-11-26T20:35:10.000Z" },
        sessions: {
          total: 1999,
          licensed: 2500,
          utilisationPercent: 80,
          setupsSinceBoot: 2000,
          teardownsSinceBoot: 1,
          setupFailuresSinceBoot: 20,
        },
        traffic: { rxBps: 752527462, txBps: 6702349761 },
        cpu: { cores: 8, utilisationPercent: 41.2 },
        memory: { totalBytes: 17179869184, usedBytes: 2880864256, utilisationPercent: 16.8 },
        alarms: { count: 0, countBySeverity: { critical: 0, major: 0, minor: 0, warning: 0 } },
        configuration: {
          version: 8,
          committedUtc: "2026-11-26T20:35:12.335Z",
          pendingRestartVersions: [],
          pendingRestart: false,
        },
        licence: { state: "Dev", meter: "sessions", bandMax: 2500, currentCount: 1999, peakCount: 1999 },
        upgrade: { state: "idle" },
      },
    },
  }),
  inventory: operation({
    method: "GET",
    path: "/api/v1/system/inventory",
    section: "System",
    summary: "Hardware inventory: chassis, line cards with their ports and optics, power supplies, fans, temperatures",
    description:
      "The chassis is the smallest model that holds the profile's data-plane ports " +
      "(`BNG-2010` 10GbE, `BNG-4100` 4 x 100GbE, `BNG-8100` two 100GbE line cards); a " +
      "port's speed, optic and line card follow its interface name " +
      ("(`xe-` 10GbE SFP+, `et-` 100GbE QSFP28, `ge-` 1GbE SFP; `<fpc>/<pic>/<port>`). " +
        "Serial numbers and MACs are derived from the appliance name and its fleet-file seed. ") +
      ("Sensor and optical readings drift deterministically with the simulated clock " +
        "and follow the load: the same instant gives the same readings."),
    fp: true,
    response: { description: "HardwareInventory", schema: Inventory },
    examples: {
      response: {
        asOfUtc: "2026-11-26T20:35:10.000Z",
        chassis: {
          model: "BNG-2010",
          description: "1RU subscriber edge, 8 x 10GbE SFP+",
          serialNumber: "BFMV2DUE5LCS",
          hardwareRevision: "REV C",
          baseMac: "02:b3:3a:4d:d2:40",
          cpuCores: 8,
          memoryBytes: 17179869184,
        },
        lineCards: [
          {
            slot: "0/0",
            model: "LC-4X10GE",
            serialNumber: "LC6DTUT45LC",
            state: "online",
            ports: [
              {
                portId: 1,
                label: "xe-0/0/0 OLT-north",
                name: "xe-0/0/0",
                optic: {
                  formFactor: "SFP+",
                  type: "10GBASE-LR",
                  wavelengthNm: 1310,
                  vendor: "SOURCE PHOTONICS",
                  partNumber: "SPP-10E-LR-IDFB",
                  serialNumber: "YKRWCWDXLT06",
                  dom: {
                    temperatureCelsius: 39.24,
                    supplyVolts: 3.293,
                    lanes: [{ lane: 1, biasMilliamps: 32.6, txPowerDbm: -1.57, rxPowerDbm: -4.22 }],
                    thresholds: {
                      temperatureCelsius: { lowAlarm: -5, lowWarning: 0, highWarning: 70, highAlarm: 75 },
                      txPowerDbm: { lowAlarm: -9.7, lowWarning: -8.7, highWarning: 1.5, highAlarm: 2.5 },
                      rxPowerDbm: { lowAlarm: -14.4, lowWarning: -13.4, highWarning: 2.5, highAlarm: 3.5 },
                    },
                  },
                },
              },
              {
                portId: 2,
                label: "xe-0/0/1 OLT-south",
                name: "xe-0/0/1",
                optic: {
                  formFactor: "SFP+",
                  type: "10GBASE-LR",
                  wavelengthNm: 1310,
                  vendor: "SOURCE PHOTONICS",
                  partNumber: "SPP-10E-LR-IDFB",
                  serialNumber: "YEMRUB5LCS9J",
                  dom: {
                    temperatureCelsius: 37.97,
                    supplyVolts: 3.32,
                    lanes: [{ lane: 1, biasMilliamps: 30.89, txPowerDbm: -1.81, rxPowerDbm: -4.22 }],
                    thresholds: {
                      temperatureCelsius: { lowAlarm: -5, lowWarning: 0, highWarning: 70, highAlarm: 75 },
                      txPowerDbm: { lowAlarm: -9.7, lowWarning: -8.7, highWarning: 1.5, highAlarm: 2.5 },
                      rxPowerDbm: { lowAlarm: -14.4, lowWarning: -13.4, highWarning: 2.5, highAlarm: 3.5 },
                    },
                  },
                },
              },
            ],
          },
        ],
        psus: [
          {
            slot: 0,
            model: "PSU-650-AC",
            serialNumber: "PS645CBD88K",
            state: "ok",
            capacityWatts: 650,
            inputVolts: 232.2,
            outputWatts: 108.5,
          },
          {
            slot: 1,
            model: "PSU-650-AC",
            serialNumber: "PS38Y7CH5LC",
            state: "ok",
            capacityWatts: 650,
            inputVolts: 228.1,
            outputWatts: 115.2,
          },
        ],
        fans: [
          { tray: 0, state: "ok", speedPercent: 47.5, rpm: 6601 },
          { tray: 1, state: "ok", speedPercent: 47.5, rpm: 6637 },
        ],
        temperatures: [
          { sensor: "inlet", celsius: 23.5, warningCelsius: 40, criticalCelsius: 45 },
          { sensor: "outlet", celsius: 33.4, warningCelsius: 60, criticalCelsius: 70 },
        ],
      },
    },
  }),
  interfaces: operation({
    method: "GET",
    path: "/api/v1/system/interfaces",
    section: "System",
    summary: "Interface table: state, speed, rates, counters and sessions per port, plus GRE tunnels",
    description:
      "One row per data-plane port (the profile's, with the metrics history's `portId` " +
      "and `label`), then `lo0` and `mgmt0`. Read at one instant: `rxBps`/`txBps` " +
      "equal the metrics history's newest point " +
      ("and `sessions` the session summary's `byPort` count. Byte and packet counters " +
        "accumulate the same per-step rates, so they only grow while the data plane runs " +
        "and restart when it boots ") +
      ("(`countersSinceUtc`); errors and discards are a fixed tiny share of the " +
        "packets. `tunnels` lists the GRE circuits' tunnel interfaces with their state " +
        "from GET /gre-circuits/status."),
    fp: true,
    response: { description: "InterfaceTable", schema: InterfaceTable },
    examples: {
      response: {
        asOfUtc: "2026-11-26T20:35:10.000Z",
        interfaces: [
          {
            name: "xe-0/0/0",
            description: "OLT-north",
            type: "ethernet",
            portId: 1,
            label: "xe-0/0/0 OLT-north",
            adminState: "up",
            operState: "up",
            speedMbps: 10000,
            mtu: 1500,
            mac: "02:b3:3a:4d:d2:42",
            rxBps: 371812849,
            txBps: 3319147134,
            counters: {
              rxBytes: 585071552,
              txBytes: 5224867947,
              rxPackets: 1462678,
              txPackets: 4749880,
              rxErrors: 0,
              txErrors: 0,
              rxDiscards: 2,
              txDiscards: 23,
            },
            countersSinceUtc: "2026-11-26T20:34:50.000Z",
            sessions: 954,
          },
          {
            name: "xe-0/0/1",
            description: "OLT-south",
            type: "ethernet",
            portId: 2,
            label: "xe-0/0/1 OLT-south",
            adminState: "up",
            operState: "up",
            speedMbps: 10000,
            mtu: 1500,
            mac: "02:b3:3a:4d:d2:43",
            rxBps: 380714613,
            txBps: 3383202627,
            counters: {
              rxBytes: 600577026,
              txBytes: 5339212985,
              rxPackets: 1501442,
              txPackets: 4853829,
              rxErrors: 0,
              txErrors: 0,
              rxDiscards: 3,
              txDiscards: 24,
            },
            countersSinceUtc: "2026-11-26T20:34:50.000Z",
            sessions: 952,
          },
        ],
        tunnels: [
          {
            name: "gre-acme-hq",
            circuitId: "acme-hq",
            vrf: "default",
            operState: "down",
            tunnelState: "provisioning",
            lastChangeUtc: "2026-11-26T20:34:50.000Z",
          },
          {
            name: "gre-globex-branch",
            circuitId: "globex-branch",
            vrf: "wholesale",
            operState: "down",
            tunnelState: "provisioning",
            lastChangeUtc: "2026-11-26T20:34:50.000Z",
          },
        ],
      },
    },
  }),
};
