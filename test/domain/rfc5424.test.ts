/**
 * The syslog message format (src/syslog/rfc5424.ts) against hand-worked examples from RFC 5424 and RFC 6587,
 * in plain Node: a wrong PRI, escape or length is caught here, not only by the e2e test that runs rsyslogd.
 * Every expected value is written out from the RFCs' tables and grammar, never computed by the code under test.
 */
import { describe, expect, it } from "vitest";
import { FACILITIES, formatEntry, frame, priority, type Facility } from "../../src/syslog/rfc5424.ts";
import type { LogEntry } from "../../src/schemas/logs.ts";
import type { Severity } from "../../simulator/vocabulary.ts";

/** RFC 5424 §6.2.1, Table 1: facility codes (named as syslog(3) and rsyslog name them). */
const FACILITY_CODES: Record<Facility, number> = {
  kern: 0,
  user: 1,
  mail: 2,
  daemon: 3,
  auth: 4,
  syslog: 5,
  lpr: 6,
  news: 7,
  uucp: 8,
  cron: 9,
  authpriv: 10,
  ftp: 11,
  ntp: 12,
  audit: 13,
  alert: 14,
  clock: 15,
  local0: 16,
  local1: 17,
  local2: 18,
  local3: 19,
  local4: 20,
  local5: 21,
  local6: 22,
  local7: 23,
};
/** RFC 5424 §6.2.1, Table 2: severity codes. */
const SEVERITY_CODES: Record<Severity, number> = {
  emergency: 0,
  alert: 1,
  critical: 2,
  error: 3,
  warning: 4,
  notice: 5,
  info: 6,
  debug: 7,
};

const entry = (over: Partial<LogEntry> = {}): LogEntry => ({
  seq: 42,
  timestamp: "2026-03-02T09:00:15.402Z",
  severity: "warning",
  msgId: "alarm.raise",
  fields: {},
  ...over,
});

describe("PRI", () => {
  it("is RFC 5424's own examples: auth critical <34>, local4 notice <165>, and local0 debug <135>", () => {
    expect(priority("auth", "critical")).toBe(34);
    expect(priority("local4", "notice")).toBe(165);
    expect(priority("local0", "debug")).toBe(135);
  });

  it.each(Object.keys(FACILITY_CODES) as Facility[])(
    "is facility × 8 + severity for every severity of %s",
    (facility) => {
      expect(FACILITIES).toContain(facility);
      for (const [severity, code] of Object.entries(SEVERITY_CODES) as [Severity, number][]) {
        expect(priority(facility, severity), `${facility}.${severity}`).toBe(FACILITY_CODES[facility] * 8 + code);
        expect(formatEntry(entry({ severity }), facility, "edge-1")).toMatch(
          new RegExp(`^<${FACILITY_CODES[facility] * 8 + code}>1 `),
        );
      }
    },
  );

  it("knows exactly the 24 facilities", () => {
    expect([...FACILITIES].sort()).toEqual(Object.keys(FACILITY_CODES).sort());
  });
});

describe("the message", () => {
  it("is the header, the entry's seq and its fields as structured data, with no MSG", () => {
    const message = formatEntry(
      entry({ fields: { id: "cgn.pool.high", instance: null, usedChunks: 950, cleared: false } }),
      "local0",
      "edge-1",
    );
    // local0 (16) × 8 + warning (4) = 132; VERSION 1; the entry's TIMESTAMP; HOSTNAME; APP-NAME bng; PROCID -; MSGID; a
    // null field left out.
    expect(message).toBe(
      "<132>1 2026-03-02T09:00:15.402Z edge-1 bng - alarm.raise [entry@32473 " +
        'seq="42"][fields@32473 id="cgn.pool.high" usedChunks="950" cleared="false"]',
    );
  });

  it("escapes '\"', '\\\\' and ']' in a PARAM-VALUE with a backslash (§6.3.3), and nothing else", () => {
    const message = formatEntry(entry({ fields: { text: 'say "hi" \\ [x] ü' } }), "local0", "edge-1");
    expect(message.endsWith('[fields@32473 text="say \\"hi\\" \\\\ [x\\] ü"]')).toBe(true);
  });

  it("makes an SD-NAME of a field's key: no '=', SP, ']' or '\"' (§6.3.3), at most 32 characters", () => {
    const message = formatEntry(entry({ fields: { 'a=b c]"d': "v", ["k".repeat(40)]: "w" } }), "local0", "edge-1");
    expect(message.endsWith(`[fields@32473 a_b_c__d="v" ${"k".repeat(32)}="w"]`)).toBe(true);
  });

  it(
    "writes NILVALUE for an empty HOSTNAME, keeps only PRINTUSASCII in it, and cuts " + "MSGID at 32 characters (§6.2)",
    () => {
      expect(formatEntry(entry(), "local0", "")).toContain(" 2026-03-02T09:00:15.402Z - bng - alarm.raise ");
      expect(formatEntry(entry(), "local0", "edge 1")).toContain(" edge1 bng ");
      expect(formatEntry(entry({ msgId: "m".repeat(40) }), "local0", "edge-1")).toContain(` bng - ${"m".repeat(32)} [`);
    },
  );
});

describe("octet counting (RFC 6587 §3.4.1)", () => {
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

  it("prefixes the message with its length in octets and a space", () => {
    expect(text(frame("<34>1 - - - - - -"))).toBe("17 <34>1 - - - - - -");
  });

  it("counts octets, not characters: 'ü' is two, '€' three", () => {
    expect(text(frame("ü"))).toBe("2 ü");
    expect(text(frame("a€"))).toBe("4 a€");
    expect(frame("a€").length).toBe(6);
  });
});
