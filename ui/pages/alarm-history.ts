/**
 * Alarm history, read from the log ring: every `alarm.raise` and
 * `alarm.clear` entry it still holds (the ring keeps the newest
 * LOG_CAPACITY entries), newest first, each clear with the severity and text
 * of the raise it ends, and the page each alarm's object has. Pure.
 */
import type { LogEntry } from "../../src/schemas/logs.ts";

export interface AlarmEvent {
  seq: number;
  timestamp: string;
  event: "raised" | "cleared";
  id: string;
  instance: string | null;
  /** The alarm's severity (a clear takes its raise's; null when the raise has aged out of the ring). */
  severity: string | null;
  text: string | null;
  /** A clear by an operator rather than by its condition. */
  manual: boolean;
}

const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

/** The alarm events among log entries (in any order), newest first. */
export function alarmEvents(entries: readonly LogEntry[]): AlarmEvent[] {
  const oldestFirst = [...entries]
    .filter((e) => e.msgId === "alarm.raise" || e.msgId === "alarm.clear")
    .sort((a, b) => a.seq - b.seq);
  const raised = new Map<string, { severity: string | null; text: string | null }>();
  const events = oldestFirst.map((e): AlarmEvent => {
    const id = String(e.fields.id ?? "");
    const instance = str(e.fields.instance);
    const key = `${id}\u0000${instance ?? ""}`;
    if (e.msgId === "alarm.raise") {
      const raise = { severity: str(e.fields.severity), text: str(e.fields.text) };
      raised.set(key, raise);
      return { seq: e.seq, timestamp: e.timestamp, event: "raised", id, instance, ...raise, manual: false };
    }
    const raise = raised.get(key);
    return {
      seq: e.seq,
      timestamp: e.timestamp,
      event: "cleared",
      id,
      instance,
      severity: raise?.severity ?? null,
      text: raise?.text ?? null,
      manual: e.fields.manual === true,
    };
  });
  return events.reverse();
}

/**
 * The `sinceSeq` of each read that together cover the whole ring, newest
 * window first: the ring holds the `capacity` entries up to `lastSeq`, and a
 * read answers up to `pageSize` entries after its `sinceSeq`.
 */
export function ringWindows(lastSeq: number, capacity: number, pageSize: number): number[] {
  const oldest = Math.max(0, lastSeq - capacity);
  const windows: number[] = [];
  for (let since = lastSeq - pageSize; ; since -= pageSize) {
    windows.push(Math.max(oldest, since));
    if (since <= oldest) return windows;
  }
}

/** The page an alarm's object is on, for the alarm's id and instance (a pool, a peer, a circuit …), or null. */
export function objectPage(id: string, instance: string | null): string | null {
  const family = id.split(".")[0];
  if (id === "pool.utilisation.high" && instance) return `/pools/${encodeURIComponent(instance)}`;
  const pages: Record<string, string> = {
    pool: "/pools",
    cgn: "/cgn",
    radius: "/radius",
    bgp: "/routing",
    igp: "/routing",
    gre: "/gre",
    ipsec: "/ipsec",
    licence: "/licensing",
    sessions: "/sessions",
  };
  return family ? (pages[family] ?? null) : null;
}

export interface AlarmFilter {
  /** An alarm severity, or "" for any. */
  severity: string;
  /** Text the alarm's id or object contains (any case), or "". */
  object: string;
  /** "raised", "cleared" or "" for both. */
  event: string;
}

export function matches(e: AlarmEvent, f: AlarmFilter): boolean {
  const text = f.object.trim().toLowerCase();
  return (
    (!f.severity || e.severity === f.severity) &&
    (!f.event || e.event === f.event) &&
    (!text || `${e.id} ${e.instance ?? ""}`.toLowerCase().includes(text))
  );
}
