/**
 * The appliance's hardware as the system endpoints show it: the chassis
 * model (chosen from the profile's ports), serial numbers and MACs derived
 * from the appliance name and its fleet seed (stable across reseeds and
 * reboots, as a box's are), one optic per data-plane port with digital
 * optical monitoring, power supplies, fans and temperature sensors. Sensor
 * readings drift smoothly with the simulated clock and follow the load, so
 * two reads at one instant agree and a read an hour later differs a little.
 * CPU and memory utilisation are derived from the same load.
 */
import type { Profile } from "./profile.ts";
import { mix32 } from "./random.ts";
import type { HardwareInventory as WireHardwareInventory, Optic } from "../src/schemas/system.ts";

/** Who the hardware belongs to: the appliance name and the seed of its fleet definition. */
export interface HardwareIdentity {
  appliance: string;
  seed: number;
}

/** A data-plane port with its newest rates (the metrics history's newest point). */
export interface PortLoad {
  portId: number;
  label: string;
  rxBps: number;
  txBps: number;
}

interface ChassisModel {
  model: string;
  description: string;
  maxSpeedMbps: number;
  maxPorts: number;
  memoryGiB: number;
  cpuCores: number;
  psus: number;
  psuWatts: number;
  fans: number;
  baseWatts: number;
}

/** The catalogue: the smallest chassis that holds the profile's ports is the one installed. */
const CHASSIS: readonly ChassisModel[] = [
  {
    model: "BNG-2010",
    description: "1RU subscriber edge, 8 x 10GbE SFP+",
    maxSpeedMbps: 10_000,
    maxPorts: 8,
    memoryGiB: 16,
    cpuCores: 8,
    psus: 2,
    psuWatts: 650,
    fans: 3,
    baseWatts: 180,
  },
  {
    model: "BNG-4100",
    description: "2RU subscriber edge, 4 x 100GbE QSFP28",
    maxSpeedMbps: 100_000,
    maxPorts: 4,
    memoryGiB: 32,
    cpuCores: 16,
    psus: 2,
    psuWatts: 1100,
    fans: 4,
    baseWatts: 340,
  },
  {
    model: "BNG-8100",
    description: "4RU subscriber edge, 2 line cards of 4 x 100GbE QSFP28",
    maxSpeedMbps: 100_000,
    maxPorts: 16,
    memoryGiB: 64,
    cpuCores: 32,
    psus: 4,
    psuWatts: 1600,
    fans: 6,
    baseWatts: 620,
  },
];

/** What a port's interface name says about it (Junos-style `ge-`, `xe-`, `et-` with FPC/PIC/port). */
export interface PortHardware {
  portId: number;
  label: string;
  name: string;
  description: string;
  speedMbps: number;
  formFactor: "SFP" | "SFP+" | "QSFP28";
  opticType: string;
  lanes: number;
  wavelengthNm: number;
  /** `<fpc>/<pic>` of the port's line card. */
  lineCard: string;
}

const MEDIA = {
  ge: { speedMbps: 1000, formFactor: "SFP", opticType: "1000BASE-LX", lanes: 1, wavelengthNm: 1310 },
  xe: { speedMbps: 10_000, formFactor: "SFP+", opticType: "10GBASE-LR", lanes: 1, wavelengthNm: 1310 },
  et: { speedMbps: 100_000, formFactor: "QSFP28", opticType: "100GBASE-LR4", lanes: 4, wavelengthNm: 1295 },
} as const;

/**
 * A port's hardware, read from its label (`et-0/1/2 OLT-7`: a 100GbE port on line card 0/1); unknown names are 10GbE on
 * card 0/0.
 */
export function portHardware(port: { portId: number; label: string }): PortHardware {
  const [name = port.label, ...rest] = port.label.trim().split(/\s+/);
  const match = /^(ge|xe|et)-(\d+)\/(\d+)\/(\d+)$/.exec(name);
  const media = MEDIA[(match?.[1] as keyof typeof MEDIA | undefined) ?? "xe"];
  return {
    portId: port.portId,
    label: port.label,
    name,
    description: rest.join(" "),
    ...media,
    lineCard: match ? `${match[2]}/${match[3]}` : "0/0",
  };
}

/** The chassis that holds a profile's ports. */
export function chassisOf(profile: Profile): ChassisModel {
  const ports = profile.ports.map(portHardware);
  const fastest = Math.max(...ports.map((p) => p.speedMbps));
  return CHASSIS.find((c) => c.maxSpeedMbps >= fastest && c.maxPorts >= ports.length) ?? CHASSIS[CHASSIS.length - 1]!;
}

/** A stable 32-bit hash of the identity and a salt. */
function identityHash(id: HardwareIdentity, salt: string): number {
  let h = mix32(id.seed ^ 0x5bd1e995);
  for (const text of [id.appliance, salt]) {
    for (let i = 0; i < text.length; i++) h = mix32(h ^ Math.imul(text.charCodeAt(i) + 1, 0x9e3779b1));
    h = mix32(h ^ 0x27d4eb2d);
  }
  return h;
}

const SERIAL_ALPHABET = "0123456789ABCDEFGHJKLMNPRSTUVWXY";

/** A serial number: a prefix and `length` characters of an unambiguous base-32 alphabet. */
export function serialNumber(id: HardwareIdentity, salt: string, prefix: string, length = 9): string {
  let out = prefix;
  let h = identityHash(id, salt);
  for (let i = 0; i < length; i++) {
    if (i % 6 === 0 && i > 0) h = mix32(h ^ i);
    out += SERIAL_ALPHABET[h & 31];
    h >>>= 5;
  }
  return out;
}

/** The chassis base MAC: locally administered (a twin owns no OUI), unicast. */
export function baseMac(id: HardwareIdentity): [number, number, number, number, number, number] {
  const h = identityHash(id, "mac");
  const g = identityHash(id, "mac2");
  // The low byte leaves room for 64 interface addresses above the base.
  return [0x02, (g >>> 8) & 255, h & 255, (h >>> 8) & 255, (h >>> 16) & 255, ((h >>> 24) & 0xc0) >>> 0];
}

/** The MAC `offset` addresses above the base (0 = the chassis, 1 = management, then the ports). */
export function macAt(id: HardwareIdentity, offset: number): string {
  const b = baseMac(id);
  b[5] = (b[5] + offset) & 255;
  return b.map((x) => x.toString(16).padStart(2, "0")).join(":");
}

/** A smooth wave in [-1, 1] of a period, phase-shifted per sensor: sensor readings drift with it. */
function wave(nowMs: number, periodMs: number, phase: number): number {
  return Math.sin(2 * Math.PI * (nowMs / periodMs + phase));
}

const unit = (h: number) => h / 4294967296;
const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The load the sensors and utilisation follow, from sessions and traffic at one instant. */
export interface SystemLoad {
  /** Σ(rx + tx) over the ports as a share of their full-duplex capacity, 0-1. */
  traffic: number;
  /** Sessions as a share of the licensed capacity, 0-1. */
  sessions: number;
  cpuPercent: number;
  cpuCores: number;
  memoryTotalBytes: number;
  memoryUsedBytes: number;
  memoryPercent: number;
}

const GiB = 1024 ** 3;
/** Resident memory of the control and data plane with no subscriber. */
const BASE_MEMORY_BYTES = 2.5 * GiB;
/** Per-session state (AAA, address, accounting, shaper, CGN binding). */
const SESSION_MEMORY_BYTES = 96 * 1024;

/**
 * CPU and memory from load: 3% idle, up to 35 points for the session table
 * (keepalives, accounting, lease renewals) and up to 55 for forwarding (the
 * control cores also run the slow path); memory grows by 96 KiB a session.
 */
export function systemLoad(profile: Profile, sessions: number, ports: readonly PortLoad[]): SystemLoad {
  const chassis = chassisOf(profile);
  const capacity = profile.ports.map(portHardware).reduce((n, p) => n + p.speedMbps * 1e6, 0);
  const carried = ports.reduce((n, p) => n + p.rxBps + p.txBps, 0);
  const traffic = capacity > 0 ? Math.min(1, carried / (2 * capacity)) : 0;
  const share = Math.min(1, sessions / profile.population.licensedSessions);
  const memoryTotalBytes = chassis.memoryGiB * GiB;
  const memoryUsedBytes = Math.min(memoryTotalBytes, Math.round(BASE_MEMORY_BYTES + sessions * SESSION_MEMORY_BYTES));
  return {
    traffic,
    sessions: share,
    cpuPercent: round(Math.min(100, 3 + 35 * share + 55 * traffic), 1),
    cpuCores: chassis.cpuCores,
    memoryTotalBytes,
    memoryUsedBytes,
    memoryPercent: round((memoryUsedBytes / memoryTotalBytes) * 100, 1),
  };
}

/** Digital optical monitoring of one optic at an instant (SFF-8472 / SFF-8636 style thresholds). */
type OpticDom = Optic["dom"];

const OPTIC_VENDORS = [
  { vendor: "FINISAR CORP.", part: { SFP: "FTLF1318P3BTL", "SFP+": "FTLX1471D3BCL", QSFP28: "FTLC1154RDPL" } },
  { vendor: "INNOLIGHT", part: { SFP: "TR-PX13L-N00", "SFP+": "TR-PX13L-NS0", QSFP28: "T-DL4CNT-N00" } },
  { vendor: "SOURCE PHOTONICS", part: { SFP: "SPP-10E-LR-CDFB", "SFP+": "SPP-10E-LR-IDFB", QSFP28: "SPQ-CE-LR-CDFB" } },
] as const;

/** One optic: its identity (fixed) and DOM readings at `nowMs`, warmed by the port's load. */
function optic(id: HardwareIdentity, port: PortHardware, load: number, ambientCelsius: number, nowMs: number) {
  const h = identityHash(id, `optic-${port.portId}`);
  const maker = OPTIC_VENDORS[h % OPTIC_VENDORS.length]!;
  const phase = unit(mix32(h ^ 1));
  // Fibre span loss is a property of the plant: fixed per port, 2-6 dB.
  const spanLossDb = 2 + 4 * unit(mix32(h ^ 2));
  const txNominal = port.formFactor === "QSFP28" ? 0.5 : -1.5;
  const lanes = Array.from({ length: port.lanes }, (_, lane) => {
    const lanePhase = phase + lane * 0.21;
    const tx = txNominal + 0.3 * wave(nowMs, 6 * 3_600_000, lanePhase) + 0.05 * wave(nowMs, 7 * 60_000, lanePhase * 3);
    const rx =
      txNominal -
      spanLossDb +
      0.4 * wave(nowMs, 5 * 3_600_000, lanePhase + 0.5) +
      0.1 * wave(nowMs, 11 * 60_000, lanePhase * 5);
    const bias = 32 + 2 * wave(nowMs, 6 * 3_600_000, lanePhase) + 4 * load;
    return { lane: lane + 1, biasMilliamps: round(bias, 2), txPowerDbm: round(tx, 2), rxPowerDbm: round(rx, 2) };
  });
  const dom: OpticDom = {
    temperatureCelsius: round(ambientCelsius + 14 + 6 * load + 0.8 * wave(nowMs, 37 * 60_000, phase), 2),
    supplyVolts: round(3.3 + 0.02 * wave(nowMs, 3 * 3_600_000, phase), 3),
    lanes,
    thresholds: {
      temperatureCelsius: { lowAlarm: -5, lowWarning: 0, highWarning: 70, highAlarm: 75 },
      txPowerDbm: {
        lowAlarm: round(txNominal - 8.2, 1),
        lowWarning: round(txNominal - 7.2, 1),
        highWarning: round(txNominal + 3, 1),
        highAlarm: round(txNominal + 4, 1),
      },
      rxPowerDbm: { lowAlarm: -14.4, lowWarning: -13.4, highWarning: 2.5, highAlarm: 3.5 },
    },
  };
  return {
    formFactor: port.formFactor,
    type: port.opticType,
    wavelengthNm: port.wavelengthNm,
    vendor: maker.vendor,
    partNumber: maker.part[port.formFactor],
    serialNumber: serialNumber(id, `optic-${port.portId}`, "", 12),
    dom,
  };
}

/**
 * The hardware inventory at an instant: the wire HardwareInventory without its `asOfUtc`, which the data plane adds.
 */
export type HardwareInventory = Omit<WireHardwareInventory, "asOfUtc">;

/**
 * The inventory: chassis, line cards with their ports (the profile's, with
 * the session summary's `portId` and `label`) and optics, power supplies,
 * fans and temperature sensors at `nowMs` under `ports`' load.
 */
export function hardwareInventory(
  id: HardwareIdentity,
  profile: Profile,
  nowMs: number,
  ports: readonly PortLoad[],
  load: SystemLoad,
): HardwareInventory {
  const chassis = chassisOf(profile);
  const hardware = profile.ports.map(portHardware);
  // Room temperature follows the local day (warmest mid-afternoon), plus a small air-handling wobble.
  const localHour = (((nowMs / 3_600_000 + profile.utcOffsetMinutes / 60) % 24) + 24) % 24;
  const inlet =
    24 +
    3 * Math.cos((2 * Math.PI * (localHour - 15)) / 24) +
    0.3 * wave(nowMs, 17 * 60_000, unit(identityHash(id, "inlet")));
  const portLoad = (portId: number) => {
    const port = ports.find((p) => p.portId === portId);
    const speed = (hardware.find((p) => p.portId === portId)?.speedMbps ?? 10_000) * 1e6;
    return port ? Math.min(1, (port.rxBps + port.txBps) / (2 * speed)) : 0;
  };
  const cards = [...new Set(hardware.map((p) => p.lineCard))].sort();
  const lineCards = cards.map((slot) => {
    const own = hardware.filter((p) => p.lineCard === slot);
    const fastest = Math.max(...own.map((p) => p.speedMbps));
    const media = fastest >= 100_000 ? "100GE" : fastest >= 10_000 ? "10GE" : "GE";
    return {
      slot,
      model: `LC-${Math.max(4, own.length)}X${media}`,
      serialNumber: serialNumber(id, `card-${slot}`, "LC"),
      state: "online" as const,
      ports: own.map((p) => ({
        portId: p.portId,
        label: p.label,
        name: p.name,
        optic: optic(id, p, portLoad(p.portId), inlet, nowMs),
      })),
    };
  });
  const watts =
    chassis.baseWatts +
    hardware.length * (chassis.maxSpeedMbps >= 100_000 ? 4.5 : 1) +
    chassis.baseWatts * 0.6 * load.traffic +
    chassis.baseWatts * 0.15 * load.sessions;
  const psus = Array.from({ length: chassis.psus }, (_, i) => {
    const phase = unit(identityHash(id, `psu-${i}`));
    return {
      slot: i,
      model: `PSU-${chassis.psuWatts}-AC`,
      serialNumber: serialNumber(id, `psu-${i}`, "PS"),
      state: "ok" as const,
      capacityWatts: chassis.psuWatts,
      inputVolts: round(230 + 2.5 * wave(nowMs, 23 * 60_000, phase), 1),
      // Load-shared: each supply carries its share, within a few percent of the others.
      outputWatts: round((watts / chassis.psus) * (1 + 0.03 * wave(nowMs, 41 * 60_000, phase)), 1),
    };
  });
  const fanDuty = Math.min(100, Math.max(30, 35 + 4 * (inlet - 22) + 35 * load.traffic));
  const fans = Array.from({ length: chassis.fans }, (_, i) => {
    const jitter = wave(nowMs, 13 * 60_000, unit(identityHash(id, `fan-${i}`)));
    return {
      tray: i,
      state: "ok" as const,
      speedPercent: round(fanDuty, 1),
      rpm: Math.round(fanDuty * 140 + 60 * jitter),
    };
  });
  const sensor = (name: string, celsius: number, warning: number, critical: number) => ({
    sensor: name,
    celsius: round(celsius, 1),
    warningCelsius: warning,
    criticalCelsius: critical,
  });
  const temperatures = [
    sensor("inlet", inlet, 40, 45),
    sensor("outlet", inlet + 8 + 10 * load.traffic, 60, 70),
    sensor("cpu", inlet + 20 + 0.25 * load.cpuPercent + 0.5 * wave(nowMs, 5 * 60_000, 0.1), 85, 95),
    sensor("npu", inlet + 25 + 30 * load.traffic + 0.5 * wave(nowMs, 7 * 60_000, 0.6), 95, 105),
  ];
  return {
    chassis: {
      model: chassis.model,
      description: chassis.description,
      serialNumber: serialNumber(id, "chassis", "BF", 10),
      hardwareRevision: `REV ${String.fromCharCode(65 + (identityHash(id, "rev") % 3))}`,
      baseMac: macAt(id, 0),
      cpuCores: chassis.cpuCores,
      memoryBytes: chassis.memoryGiB * GiB,
    },
    lineCards,
    psus,
    fans,
    temperatures,
  };
}
