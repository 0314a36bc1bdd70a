/**
 * Log-stream readers for the soak and the streams bench: read-only tokens, and subscribers that count every entry and
 * any gap in their seqs.
 */
import { EventSource } from "eventsource";
import { auth } from "./fleet.ts";

/** Log streams one owner (token) may hold (durable-objects/data-plane.ts STREAMS_PER_OWNER). */
export const STREAMS_PER_TOKEN = 4;

/**
 * One subscriber's counts: entries read, gaps (an entry's seq not the last one's + 1) and the entries they skipped, and
 * the stream's events.
 */
export interface LogStreamReader {
  es: EventSource;
  last: number | null;
  events: number;
  gaps: number;
  lost: number;
  overflows: number;
  closed: number;
  errors: number;
}

/** A new read-only token on the appliance at `base` (the bench's token creates it). */
export async function readOnlyToken(base: string, name: string): Promise<string> {
  const response = await fetch(`${base}/api/v1/auth/tokens`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ name, role: "read-only" }),
  });
  if (!response.ok)
    throw new Error(`a read-only token on ${base} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/**
 * Subscribes to the log stream of the appliance at `base` as `token` (npm `eventsource`); `onEntry` runs for each entry
 * read.
 */
export function readLogStream(base: string, token: string, onEntry: () => void = () => undefined): LogStreamReader {
  const es = new EventSource(`${base}/api/v1/logs/stream`, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers as Record<string, string>), authorization: `Bearer ${token}` },
      }),
  });
  const reader: LogStreamReader = { es, last: null, events: 0, gaps: 0, lost: 0, overflows: 0, closed: 0, errors: 0 };
  es.addEventListener("log", (event) => {
    const seq = Number(event.lastEventId);
    if (reader.last !== null && seq !== reader.last + 1) {
      reader.gaps++;
      reader.lost += Math.max(0, seq - reader.last - 1);
    }
    reader.last = seq;
    reader.events++;
    onEntry();
  });
  es.addEventListener("overflow", () => reader.overflows++);
  es.addEventListener("closed", () => reader.closed++);
  es.addEventListener("error", () => reader.errors++);
  return reader;
}
