/**
 * Address pools: each pool's utilisation as a share with a bar and its
 * blocks by state; a row opens the pool's subnets and the blocks it holds
 * (paged, each linked to its session).
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { count } from "../format.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { Card, Pager } from "../components/card.tsx";
import { RowButton } from "../components/row-action.tsx";
import type { PageContext } from "./context.ts";

const PAGE = 50;

export function Pools({ ctx }: { ctx: PageContext }) {
  const pools = useCall(contract.addressPools.list, {}, { base: ctx.base, refreshMs: 10_000 });
  // `/pools/<name>` (a session's page links there) opens that pool.
  const [open, setOpen] = useState<string | null>(ctx.rest[0] ?? null);
  const pool = pools.data?.find((p) => p.name === open);
  return (
    <>
      <h1>Address pools</h1>
      <Loaded resource={pools}>
        {(list) => (
          <Card id="pools" title="Pools" aside={`${list.length} configured`}>
            <RecordTable
              caption="Address pools"
              csvName="address-pools"
              rows={list.map((p) => ({
                pool: p.name,
                family: p.family,
                vrf: p.vrf ?? "default",
                perSubscriber: `/${p.delegationLength}`,
                utilisationPercent: p.utilisationPercent,
                used: p.used,
                free: p.free,
                size: p.size,
                allocationFailures: p.allocationFailures,
                cgn: p.cgnTranslated,
              }))}
              labels={{
                perSubscriber: "Per subscriber",
                utilisationPercent: "Utilisation",
                used: "Used blocks",
                cgn: "Behind CGN",
              }}
              rowAction={(row) => (
                <RowButton
                  verb="Blocks"
                  target={`of pool ${row.pool}`}
                  pressed={open === row.pool}
                  onClick={() => setOpen(open === row.pool ? null : String(row.pool))}
                />
              )}
            />
            <p class="muted">
              Used counts blocks committed to sessions, on offer and quarantined (a pool's subnets show each); used +
              free = size.
            </p>
          </Card>
        )}
      </Loaded>
      {pool && (
        <Card id="pool" title={`Pool ${pool.name}`} aside={pool.description}>
          <h3>Subnets</h3>
          <RecordTable
            caption={`Subnets of ${pool.name}`}
            rows={pool.subnets.map((s) => ({
              prefix: s.prefix,
              announced: s.announce,
              usedPercent: s.size ? (s.used / s.size) * 100 : 0,
              used: s.used,
              free: s.free,
              size: s.size,
              offered: s.offered,
              quarantined: s.quarantined,
            }))}
            labels={{ usedPercent: "Utilisation" }}
          />
          {pool.exclude.length > 0 && <p class="muted">Never allocated: {pool.exclude.join(", ")}</p>}
          <Allocations ctx={ctx} pool={pool.name} />
        </Card>
      )}
    </>
  );
}

function Allocations({ ctx, pool }: { ctx: PageContext; pool: string }) {
  const [offset, setOffset] = useState(0);
  const blocks = useCall(
    contract.addressPools.allocations,
    { params: { name: pool }, query: { offset, limit: PAGE } },
    { base: ctx.base },
  );
  const prefix = ctx.base;
  return (
    <>
      <h3>Blocks held</h3>
      <Loaded resource={blocks}>
        {(b) => (
          <>
            <p role="status">
              {b.total === 0
                ? "No blocks held."
                : `${count(b.offset + 1)}–${count(b.offset + b.items.length)} of ${count(b.total)}, by prefix`}
            </p>
            <RecordTable
              caption={`Blocks held in ${pool}`}
              dense
              rows={b.items.map((a) => ({
                prefix: a.prefix,
                kind: a.kind,
                sessionId: a.sessionId,
                username: a.username,
                vrf: a.vrf,
              }))}
              labels={{ sessionId: "Session" }}
              cells={{
                sessionId: (row) =>
                  row.sessionId ? (
                    <a href={`${prefix}/sessions/${row.sessionId}`}>{String(row.sessionId)}</a>
                  ) : (
                    <span class="muted">—</span>
                  ),
              }}
            />
            <Pager offset={offset} total={b.total} size={PAGE} go={setOffset} />
          </>
        )}
      </Loaded>
    </>
  );
}
