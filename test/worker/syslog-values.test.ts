/**
 * Issue #47: a log entry's field may hold what a client typed (a commit's comment, a user name), and a raw CR or
 * LF in a PARAM-VALUE, valid RFC 5424 inside an octet-counted frame, shows as a forged line of its own in a
 * line-oriented receiver or log file. Read back with the e2e suite's parser, written from the RFC's ABNF.
 */
import { describe, expect, it } from "vitest";
import { formatEntry } from "../../src/syslog/rfc5424.ts";
import { parse5424 } from "../e2e/rfc5424-parse.ts";

const entry = (comment: string) => ({
  seq: 7,
  timestamp: "2026-03-02T09:00:00.000Z",
  severity: "notice" as const,
  msgId: "config.commit",
  fields: { comment },
});

describe("syslog PARAM-VALUEs", () => {
  it("carry no control character: CR, LF, tab, ESC, DEL, NEL and U+2028 written as JSON writes them", () => {
    const forged = "ok\r\n<13>1 2026-03-02T09:00:00Z edge-1 bng - auth.login fake\ttab\u001b[31m\u007f\u0085\u2028";
    const message = formatEntry(entry(forged), "local0", "edge-1");
    expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
    expect(parse5424(message).structuredData["fields@32473"]).toEqual({
      comment:
        String.raw`ok\r\n<13>1 2026-03-02T09:00:00Z edge-1 bng - auth.login fake` +
        String.raw`\ttab\u001b[31m\u007f\u0085\u2028`,
    });
  });

  it("keep escaping the three characters RFC 5424 §6.3.3 names, and leave other text as it is", () => {
    const message = formatEntry(entry('a "quoted" \\ [b] é'), "local0", "edge-1");
    expect(message.endsWith(String.raw`[fields@32473 comment="a \"quoted\" \\ [b\] é"]`)).toBe(true);
    expect(parse5424(message).structuredData["fields@32473"]).toEqual({ comment: 'a "quoted" \\ [b] é' });
  });
});
