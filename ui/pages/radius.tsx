/**
 * RADIUS: the authentication servers as the client sees them, alive or dead in colour, with their requests by outcome.
 */
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { Card, Facts } from "../components/card.tsx";
import type { PageContext } from "./context.ts";

export function Radius({ ctx }: { ctx: PageContext }) {
  const pool = useCall(contract.radius.servers, {}, { base: ctx.base, refreshMs: 10_000 });
  return (
    <>
      <h1>RADIUS servers</h1>
      <Loaded resource={pool}>
        {(p) => (
          <Card id="radius" title="Authentication servers">
            {!p.configured ? (
              <p class="muted">No RADIUS authentication is configured: subscribers are authorised locally.</p>
            ) : (
              <>
                <Facts
                  label="RADIUS pool"
                  items={[
                    ["Servers", String(p.totalServers)],
                    ["Alive", <span class={p.liveServers ? "tone-good" : "tone-bad"}>{p.liveServers}</span>],
                    ["Dead", <span class={p.deadServers ? "tone-bad" : undefined}>{p.deadServers}</span>],
                  ]}
                />
                <RecordTable
                  caption="RADIUS servers"
                  rows={p.servers.map((s) => ({
                    server: s.host,
                    port: s.port,
                    state: s.isDead ? "dead" : "alive",
                    weight: s.weight,
                    requestsSent: s.requestsSent,
                    accepted: s.requestsByResult.accept,
                    rejected: s.requestsByResult.reject,
                    timedOut: s.requestsByResult.timeout,
                    consecutiveFailures: s.consecutiveFailures,
                    lastSuccess: s.lastSuccess,
                    lastFailure: s.lastFailure,
                  }))}
                  labels={{ requestsSent: "Requests", timedOut: "Timed out", consecutiveFailures: "Failures in a row" }}
                />
              </>
            )}
          </Card>
        )}
      </Loaded>
    </>
  );
}
