/** What a change did, said as a person says it: its answer as one sentence. Pure. */
const DONE: Record<string, string> = {
  created: "Created",
  updated: "Saved",
  deleted: "Deleted",
  committed: "Saved",
  stopped: "Stopped",
  disconnected: "Disconnected",
  revoked: "Revoked",
  cleared: "Cleared",
  unlocked: "Unlocked",
  reset: "Reset",
  loggedOut: "Signed out",
  applied: "Applied",
  activated: "Activated",
  renewed: "Renewed",
};

/**
 * A change's answer as one sentence (`Created noc1.`, `Saved as
 * configuration version 12 at 2026-03-02 09:00:00 UTC.`) where the answer is
 * a status and the object it concerns; undefined for an answer that is more
 * than that (the page shows it its own way).
 */
export function resultSentence(result: unknown, utc: (iso: string) => string): string | undefined {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return undefined;
  const r = result as Record<string, unknown>;
  const verb = typeof r.status === "string" ? DONE[r.status] : undefined;
  if (!verb) return undefined;
  const name = [r.username, r.name, r.id, r.key, r.sessionId].find(
    (v) => typeof v === "string" || typeof v === "number",
  );
  const version =
    typeof r.version === "number"
      ? ` as configuration ` +
        `version ${r.version}${typeof r.committedUtc === "string" ? ` at ${utc(r.committedUtc)}` : ""}`
      : "";
  const restart = r.restartRequired === true ? "; it applies at the next restart" : "";
  return `${verb}${name === undefined ? "" : ` ${String(name)}`}${version}${restart}.`;
}
