/**
 * A severity as every page shows it: a small badge in the severity's colour
 * with its name (colour is never alone), the same for an alarm's four and a
 * log entry's eight (RFC 5424): critical and worse red, major and error
 * orange, minor and warning amber, notice blue, info and debug grey.
 */
import { ALARM_SEVERITIES } from "../../simulator/vocabulary.ts";

/** The colour of each severity, alarm or syslog. */
const COLOUR: Record<string, string> = {
  emergency: "critical",
  alert: "critical",
  critical: "critical",
  error: "major",
  major: "major",
  minor: "minor",
  warning: "warning",
  notice: "notice",
  info: "info",
  debug: "debug",
};

/** The colour class of a severity, alarm or syslog. */
export const severityClass = (severity: string): string => `sev sev-${COLOUR[severity] ?? "info"}`;

export function Severity({ severity }: { severity: string }) {
  return <span class={severityClass(severity)}>{severity}</span>;
}

/** The worst severity with a count above zero, from a count by severity (most severe first), or null. */
export const worstOf = (counts: Record<string, number>): string | null =>
  ALARM_SEVERITIES.find((s) => (counts[s] ?? 0) > 0) ?? null;
