/**
 * IPsec: each peer's IKE SA (state in colour, algorithms, age, next rekey) and its child SAs with traffic and rekey
 * times.
 */
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable, Scalar } from "../components/json-view.tsx";
import { Card, Facts } from "../components/card.tsx";
import type { PageContext } from "./context.ts";

export function Ipsec({ ctx }: { ctx: PageContext }) {
  const status = useCall(contract.ipsec.status, {}, { base: ctx.base, refreshMs: 10_000 });
  return (
    <>
      <h1>IPsec</h1>
      <Loaded resource={status}>
        {(s) => (
          <>
            <Card id="ike" title="Peers (IKE SAs)">
              <Facts
                label="IPsec"
                items={[
                  ["Enabled", <Scalar value={s.enabled} name="enabled" />],
                  ["Daemon", <Scalar value={s.reachable} name="reachable" />],
                  ["Established", `${s.establishedCount} of ${s.peers.length}`],
                ]}
              />
              {s.lastError && <p class="problem">Last apply or load failure: {s.lastError}</p>}
              <RecordTable
                caption="IPsec peers"
                rows={s.peers.map((p) => ({
                  peer: p.name,
                  state: p.state,
                  remote: p.remoteHost ?? p.configuredRemote,
                  localId: p.localId,
                  remoteId: p.remoteId,
                  ikeVersion: p.ikeVersion,
                  proposal: p.proposal,
                  establishedSeconds: p.establishedSeconds,
                  rekeyInSeconds: p.rekeyInSeconds,
                  childSas: p.children.length,
                  configured: p.configured,
                }))}
                labels={{
                  ikeVersion: "IKE",
                  establishedSeconds: "Established for",
                  rekeyInSeconds: "Rekey in",
                  childSas: "Child SAs",
                }}
                empty="No IPsec peers."
              />
            </Card>
            <Card id="child" title="Child SAs">
              <RecordTable
                caption="IPsec child SAs"
                rows={s.peers.flatMap((p) =>
                  p.children.map((c) => ({
                    peer: p.name,
                    childSa: c.name,
                    state: c.state.toLowerCase() === "installed" ? "installed" : c.state,
                    mode: c.mode.toLowerCase(),
                    espProposal: c.espProposal,
                    installedSeconds: c.installedSeconds,
                    rekeyInSeconds: c.rekeyInSeconds,
                    expiresInSeconds: c.expiresInSeconds,
                    inBytes: c.inBytes,
                    outBytes: c.outBytes,
                    localTs: c.localTs,
                    remoteTs: c.remoteTs,
                  })),
                )}
                labels={{
                  childSa: "Child SA",
                  espProposal: "ESP",
                  installedSeconds: "Installed for",
                  rekeyInSeconds: "Rekey in",
                  expiresInSeconds: "Expires in",
                  inBytes: "In",
                  outBytes: "Out",
                  localTs: "Local selectors",
                  remoteTs: "Remote selectors",
                }}
                empty="No child SAs."
              />
              <p class="muted">A child SA's byte counts start again at each rekey.</p>
            </Card>
          </>
        )}
      </Loaded>
    </>
  );
}
