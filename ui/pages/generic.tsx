/**
 * A section page as data: the reads it shows and the changes it offers. Reads
 * go through the fleet proxy on a peer; changes are offered only locally and
 * only to a role that meets their floor.
 */
import { useState } from "preact/hooks";
import { useResource } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { JsonView } from "../components/json-view.tsx";
import { ActionForm, type ActionFormProps } from "../components/action-form.tsx";
import { readableOnPeer } from "../session.ts";
import type { PageContext } from "./context.ts";

export interface ReadSpec {
  title: string;
  path: string;
  query?: Record<string, string>;
  refreshMs?: number;
}

export interface SectionSpec {
  title: string;
  intro?: string;
  reads: ReadSpec[];
  /** Reads with a parameter the person types (a neighbor, a tunnel id). */
  lookups?: { title: string; path: string; param: string }[];
  actions?: Omit<ActionFormProps, "onDone">[];
}

function Read({ spec, ctx }: { spec: ReadSpec; ctx: PageContext }) {
  const resource = useResource<unknown>(`${ctx.base}${spec.path}`, spec.query, spec.refreshMs ?? 15_000);
  return (
    <section class="card" aria-labelledby={`read-${spec.path}`}>
      <h2 id={`read-${spec.path}`}>{spec.title}</h2>
      <Loaded resource={resource}>{(data) => <JsonView value={data} />}</Loaded>
    </section>
  );
}

function Lookup({ spec, ctx }: { spec: NonNullable<SectionSpec["lookups"]>[number]; ctx: PageContext }) {
  const [value, setValue] = useState("");
  const [asked, setAsked] = useState<string | null>(null);
  const resource = useResource<unknown>(asked === null ? null : `${ctx.base}${spec.path.replace(`{${spec.param}}`, encodeURIComponent(asked))}`);
  const id = `lookup-${spec.path.replace(/[^a-z0-9]+/gi, "-")}`;
  return (
    <section class="card">
      <h2>{spec.title}</h2>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setAsked(value.trim());
        }}
      >
        <label for={id}>{spec.param}</label>
        <input id={id} value={value} onInput={(e) => setValue(e.currentTarget.value)} required />
        <button type="submit">Show</button>
      </form>
      {asked !== null && <Loaded resource={resource}>{(data) => <JsonView value={data} />}</Loaded>}
    </section>
  );
}

export function SectionPage({ spec, ctx }: { spec: SectionSpec; ctx: PageContext }) {
  const [version, setVersion] = useState(0);
  const reads = ctx.peer ? spec.reads.filter((r) => readableOnPeer(r.path)) : spec.reads;
  return (
    <>
      <h1>{spec.title}</h1>
      {spec.intro && <p class="muted">{spec.intro}</p>}
      {ctx.peer && reads.length < spec.reads.length && <p class="notice">Some of this section is not readable through the fleet proxy; open the peer's own UI for it.</p>}
      {reads.map((r) => (
        <Read key={`${r.path}${JSON.stringify(r.query)}#${version}`} spec={r} ctx={ctx} />
      ))}
      {spec.lookups?.filter((l) => !ctx.peer || readableOnPeer(l.path)).map((l) => <Lookup key={l.path} spec={l} ctx={ctx} />)}
      {!ctx.peer && spec.actions && spec.actions.length > 0 && (
        <section class="actions" aria-label="Changes">
          {spec.actions.map((a) => (
            <ActionForm key={a.method + a.path} {...a} onDone={() => setVersion((v) => v + 1)} />
          ))}
        </section>
      )}
    </>
  );
}
