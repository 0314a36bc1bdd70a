/** Logs: the ring's tail (or the audit trail's), and the live stream. */
import { logs } from "../../src/schemas/logs.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import { refuse } from "../../src/schemas/outcome.ts";
import type { ApplianceCore } from "../core.ts";
import type { PortsOf } from "./port-table.ts";
import { actor } from "./caller.ts";
import { serves } from "./serves.ts";

export function logPorts(core: Pick<ApplianceCore, "auditTail" | "dataPlane" | "logStream">) {
  return {
    tail: serves(logs.tail, (_, { query }) =>
      query.source === "audit"
        ? core.auditTail(query.count, query.sinceSeq ?? null)
        : core.dataPlane().model.logs.tail({ count: query.count, sinceSeq: query.sinceSeq ?? null }),
    ),
    // The one port that answers a stream (docs/architecture.md): the object produces it for as long as the client
    // reads, and ends it when the credential that opened it stops authenticating.
    stream: (caller: Caller, resumeAfter: number | null) =>
      caller.credential
        ? core.logStream(resumeAfter, caller.credential, actor(caller))
        : refuse("unauthenticated", "a bearer token or session cookie is required"),
  } satisfies PortsOf<"logs">;
}
