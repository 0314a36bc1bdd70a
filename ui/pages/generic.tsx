/**
 * A section page as data: the reads it shows and the changes it offers. Reads
 * go through the fleet proxy on a peer; changes are offered only locally and
 * only to a role that meets their floor.
 */
import { useState } from "preact/hooks";
import { useCall } from "../resource.ts";
import { pathOf, type OperationRef } from "../api.ts";
import { Loaded } from "../components/problem.tsx";
import { JsonView } from "../components/json-view.tsx";
import { ActionForm, type ActionFormProps } from "../components/action-form.tsx";
import { can, readableOnPeer } from "../session.ts";
import { operationFor, resolve } from "../openapi.ts";
import type { PageContext } from "./context.ts";

export interface ReadSpec {
  title: string;
  /** A GET of the contract (`contract.<section>.<operation>`). */
  operation: OperationRef;
  /** Its path parameters, where the page fixes them (the global route table's VRF). */
  params?: Record<string, string>;
  query?: Record<string, string>;
  refreshMs?: number;
}

export interface SectionSpec {
  title: string;
  intro?: string;
  reads: ReadSpec[];
  actions?: Omit<ActionFormProps, "onDone">[];
}

/** The query parameters of a GET (its filters and paging), from the OpenAPI document, as inputs. */
function QueryFields({ operation, values, onChange, idPrefix }: { operation: OperationRef; values: Record<string, string>; onChange: (v: Record<string, string>) => void; idPrefix: string }) {
  const params = operationFor(operation)?.parameters.filter((p) => p.in === "query") ?? [];
  return (
    <>
      {params.map((p) => {
        const schema = resolve(p.schema);
        const id = `${idPrefix}-${p.name}`;
        return (
          <span class="query-field" key={p.name}>
            <label for={id}>{p.name}</label>
            {schema.enum ? (
              <select id={id} value={values[p.name] ?? ""} onChange={(e) => onChange({ ...values, [p.name]: e.currentTarget.value })}>
                <option value="">any</option>
                {schema.enum.map((o) => (
                  <option key={String(o)}>{String(o)}</option>
                ))}
              </select>
            ) : (
              <input id={id} value={values[p.name] ?? ""} title={p.description ?? schema.description ?? ""} onInput={(e) => onChange({ ...values, [p.name]: e.currentTarget.value })} />
            )}
          </span>
        );
      })}
    </>
  );
}

const slug = (path: string) => path.replace(/[^a-z0-9]+/gi, "-");

/** The generic pages read any GET of the contract: their input is the spec's, not typed per operation. */
type AnyInput = { params?: Record<string, string>; query?: Record<string, string> };

function Read({ spec, ctx }: { spec: ReadSpec; ctx: PageContext }) {
  const [draft, setDraft] = useState<Record<string, string>>(spec.query ?? {});
  const [query, setQuery] = useState<Record<string, string>>(spec.query ?? {});
  const resource = useCall(spec.operation, { ...(spec.params ? { params: spec.params } : {}), query } as AnyInput as never, { base: ctx.base, refreshMs: spec.refreshMs ?? 15_000 });
  const hasQuery = (operationFor(spec.operation)?.parameters ?? []).some((p) => p.in === "query");
  const path = pathOf(spec.operation, spec.params);
  return (
    <section class="card" aria-labelledby={`read${slug(path)}`}>
      <h2 id={`read${slug(path)}`}>{spec.title}</h2>
      {hasQuery && (
        <form
          class="query"
          aria-label={`${spec.title}: filters`}
          onSubmit={(e) => {
            e.preventDefault();
            setQuery(draft);
          }}
        >
          <QueryFields operation={spec.operation} values={draft} onChange={setDraft} idPrefix={`q${slug(path)}`} />
          <button type="submit">Show</button>
        </form>
      )}
      <Loaded resource={resource}>{(data) => <JsonView value={data} />}</Loaded>
    </section>
  );
}

export function SectionPage({ spec, ctx }: { spec: SectionSpec; ctx: PageContext }) {
  const [version, setVersion] = useState(0);
  const reads = (ctx.peer ? spec.reads.filter((r) => readableOnPeer(r.operation)) : spec.reads).filter((r) => can(r.operation));
  return (
    <>
      <h1>{spec.title}</h1>
      {spec.intro && <p class="muted">{spec.intro}</p>}
      {ctx.peer && reads.length < spec.reads.length && <p class="notice">Some of this section is not readable through the fleet proxy; open the peer's own UI for it.</p>}
      {reads.map((r) => (
        <Read key={`${pathOf(r.operation, r.params)}${JSON.stringify(r.query)}#${version}`} spec={r} ctx={ctx} />
      ))}
      {!ctx.peer && spec.actions && spec.actions.length > 0 && (
        <section class="actions" aria-label="Changes">
          {spec.actions.map((a) => (
            <ActionForm key={a.operation.method + a.operation.path} {...a} onDone={() => setVersion((v) => v + 1)} />
          ))}
        </section>
      )}
    </>
  );
}
