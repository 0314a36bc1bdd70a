/**
 * Syslog shipping (spec Events §1: the log ring holds "the same events that
 * are shipped to syslog"): every entry the ring receives that meets a
 * destination's severity floor is sent there as an RFC 5424 message, octet
 * counted (RFC 6587 §3.4.1), over TCP or TLS (RFC 5425) from the runtime's
 * own sockets (outbound-socket.ts, behind the outbound policy).
 *
 * A receiver that is down or slow never slows the appliance: each
 * destination has a bounded queue that the logging path only appends to, and
 * a pump in the background drains it (nothing awaits it), reconnecting with
 * capped exponential backoff. An entry that finds its destination's queue
 * full is dropped and counted (`bng_syslog_dropped_total`); the first write
 * that succeeds after losses logs `syslog.entries.lost` with how many, once.
 * Plain syslog over TCP has no acknowledgement, so an entry the kernel
 * accepted just before the receiver went away cannot be known lost: "lost"
 * counts what the appliance itself dropped (docs/observability.md).
 *
 * A destination of stream `cgn` is the CGN compliance logger's syslog driver:
 * it gets the port-block records the model tells of (allocated, released,
 * identified) instead of the log ring, and what it drops is the driver's
 * loss that GET /cgn/status reports (`eventsLostByDriver.syslog`).
 */
import type { LogEntry } from "../src/schemas/logs.ts";
import type { FieldValue, PortBlockRecord, Severity } from "../simulator/index.ts";
import { SEVERITIES } from "../simulator/vocabulary.ts";
import { isoTime } from "../simulator/clock.ts";
import { SD_RECORD, formatEntry, frame } from "../src/syslog/rfc5424.ts";
import type { SyslogDestination } from "../src/config/syslog.ts";
import { DestinationRefused } from "../src/config/destinations.ts";
import { outboundConnect } from "./outbound-socket.ts";

/**
 * Compliance records as syslog messages: their msgIds and severities (an Identify is the notice the log ring's
 * cgn.identify is).
 */
const RECORD_MSG: Record<PortBlockRecord["kind"], { msgId: string; severity: Severity }> = {
  allocated: { msgId: "cgn.block.allocated", severity: "info" },
  released: { msgId: "cgn.block.released", severity: "info" },
  identified: { msgId: "cgn.identify", severity: "notice" },
};

/** The first wait after a failed connection or write, doubled after each further failure up to the cap. */
export const BACKOFF_FIRST_MS = 500;
export const BACKOFF_MAX_MS = 30_000;
/** Frames written to the socket in one write, at most (a full queue drains in a few hundred writes). */
const BATCH_BYTES = 64 * 1024;

type Log = (severity: Severity, msgId: string, fields: Record<string, FieldValue>) => void;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const sameTarget = (a: SyslogDestination, b: SyslogDestination) =>
  a.host === b.host && a.port === b.port && a.transport === b.transport;

/** One destination: its queue of framed messages, its connection and its pump. */
class Pump {
  settings: SyslogDestination;
  #queue: Uint8Array[] = [];
  #socket: Socket | null = null;
  #writer: WritableStreamDefaultWriter<Uint8Array> | null = null;
  #running = false;
  #stopped = false;
  #backoffMs = 0;
  /** Entries dropped since the last write that reached the receiver. */
  #unreported = 0;
  readonly #shipper: SyslogShipper;

  constructor(settings: SyslogDestination, shipper: SyslogShipper) {
    this.settings = settings;
    this.#shipper = shipper;
  }

  /** Queues a framed message and wakes the pump; false (dropped) when the queue is full. */
  offer(message: Uint8Array): boolean {
    if (this.#queue.length >= this.settings.queueSize) {
      this.#unreported++;
      return false;
    }
    this.#queue.push(message);
    if (!this.#running) {
      this.#running = true;
      void this.#run().finally(() => (this.#running = false));
    }
    return true;
  }

  /**
   * New settings: a new host, port or transport closes the connection (the queue is kept and goes to the new target).
   */
  update(settings: SyslogDestination): void {
    if (!sameTarget(this.settings, settings)) this.#disconnect();
    this.settings = settings;
  }

  stop(): void {
    this.#stopped = true;
    this.#queue = [];
    this.#disconnect();
  }

  async #run(): Promise<void> {
    while (!this.#stopped && this.#queue.length > 0) {
      try {
        const writer = this.#writer ?? (await this.#connect());
        let count = 0;
        let bytes = 0;
        while (count < this.#queue.length && (count === 0 || bytes + this.#queue[count]!.length <= BATCH_BYTES))
          bytes += this.#queue[count++]!.length;
        const batch = new Uint8Array(bytes);
        let offset = 0;
        for (const message of this.#queue.slice(0, count)) {
          batch.set(message, offset);
          offset += message.length;
        }
        await writer.write(batch);
        this.#queue.splice(0, count);
        this.#backoffMs = 0;
        if (this.#unreported > 0) {
          // Logged after the write, so this entry itself joins the queue of a destination that works again.
          const lost = this.#unreported;
          this.#unreported = 0;
          this.#shipper.reportLoss(this.settings.name, lost);
        }
      } catch (error) {
        this.#disconnect();
        // The cause goes to the console, not the log ring (read-only accounts read it; and every
        // retry would log an entry that itself waits in the queue).
        console.warn(
          `syslog destination ` +
            `'${this.settings.name}': ${error instanceof DestinationRefused ? error.message : "connection failed"}`,
        );
        this.#backoffMs = Math.min(BACKOFF_MAX_MS, this.#backoffMs === 0 ? BACKOFF_FIRST_MS : this.#backoffMs * 2);
        await sleep(this.#backoffMs);
      }
    }
  }

  async #connect(): Promise<WritableStreamDefaultWriter<Uint8Array>> {
    const { host, port, transport } = this.settings;
    const socket = await outboundConnect(host, port, "syslog", this.#shipper.allowlist, transport === "tls");
    this.#socket = socket;
    await socket.opened;
    const writer = socket.writable.getWriter();
    this.#writer = writer;
    void this.#watchClose(socket);
    return writer;
  }

  /**
   * A receiver sends nothing back; its end of the stream means it closed, so the next write reconnects rather than
   * writing into a dead connection.
   */
  async #watchClose(socket: Socket): Promise<void> {
    try {
      const reader = socket.readable.getReader();
      while (!(await reader.read()).done);
    } catch {
      // A reset: closed as well.
    }
    if (this.#socket === socket) this.#disconnect();
  }

  #disconnect(): void {
    const socket = this.#socket;
    this.#socket = null;
    this.#writer = null;
    socket?.close().catch(() => {});
  }
}

export class SyslogShipper {
  readonly #pumps = new Map<string, Pump>();
  /**
   * Entries dropped per destination since the object started (the counter survives a destination's reconfiguration).
   */
  readonly #dropped = new Map<string, number>();
  /**
   * Compliance records the syslog driver dropped since the object started (cgn destinations, removed ones included).
   */
  #cgnLost = 0;
  /** The compliance records' own sequence (the log ring's seq numbers its entries only). */
  #recordSeq = 0;
  #allowlist: readonly string[] = [];
  readonly #hostname: string;
  readonly #log: Log;

  constructor(hostname: string, log: Log) {
    this.#hostname = hostname;
    this.#log = log;
  }

  /** The outbound allowlist as configured now (`alarms.webhookAllowlist`). */
  get allowlist(): readonly string[] {
    return this.#allowlist;
  }

  /** Hot-applies `logging.syslog` and the allowlist: kept destinations keep their queues, removed ones stop. */
  set(destinations: SyslogDestination[], allowlist: readonly string[]): void {
    this.#allowlist = [...allowlist];
    const names = new Set(destinations.map((d) => d.name));
    for (const [name, pump] of this.#pumps) {
      if (names.has(name)) continue;
      pump.stop();
      this.#pumps.delete(name);
      this.#dropped.delete(name);
    }
    for (const destination of destinations) {
      const pump = this.#pumps.get(destination.name);
      if (pump) pump.update(destination);
      else this.#pumps.set(destination.name, new Pump(destination, this));
      if (!this.#dropped.has(destination.name)) this.#dropped.set(destination.name, 0);
    }
  }

  /** Ships one log ring entry to every `log` destination whose floor it meets; never throws, never waits. */
  observe(entry: LogEntry): void {
    this.#ship("log", entry);
  }

  /** Ships one CGN compliance record to every `cgn` destination whose floor it meets. */
  observePortBlock(record: PortBlockRecord): void {
    const { kind, timeMs, ...fields } = record;
    this.#ship("cgn", { seq: ++this.#recordSeq, timestamp: isoTime(timeMs), ...RECORD_MSG[kind], fields });
  }

  /** Compliance records lost per logger driver (GET /cgn/status `eventsLostByDriver`). */
  driverLosses(): Record<string, number> {
    return { syslog: this.#cgnLost };
  }

  #ship(stream: SyslogDestination["stream"], entry: LogEntry): void {
    const rank = SEVERITIES.indexOf(entry.severity);
    for (const pump of this.#pumps.values()) {
      const { name, severity, facility } = pump.settings;
      if (pump.settings.stream !== stream || rank > SEVERITIES.indexOf(severity)) continue;
      if (pump.offer(frame(formatEntry(entry, facility, this.#hostname, stream === "cgn" ? SD_RECORD : undefined))))
        continue;
      this.#dropped.set(name, (this.#dropped.get(name) ?? 0) + 1);
      if (stream === "cgn") this.#cgnLost++;
    }
  }

  /** Entries dropped per configured destination (`bng_syslog_dropped_total`). */
  dropped(): Record<string, number> {
    return Object.fromEntries(this.#dropped);
  }

  /**
   * Shipping to `destination` works again after `lost` entries were dropped: said once, in the log (and so to every
   * destination).
   */
  reportLoss(destination: string, lost: number): void {
    this.#log("warning", "syslog.entries.lost", { destination, lost });
  }
}
