/**
 * Configuration, as a vendor's config tree: every key of GET /config/schema
 * in its section (web UI, ACME, routing, CGN, alarms, …), each edited with
 * the control its type calls for and said in a sentence, searchable, each
 * section and value deep-linkable (`/config/routing#routing.routerId`). Edits
 * gather in a candidate, shown as pending changes: checked as typed and by
 * the appliance (POST /config/validate) as they are made, each problem beside
 * its field, reviewed value by value, and committed with a comment, the
 * outcome shown where the button was. Rollback and compare are the history's
 * (./config-history.tsx); "All keys" lists every value as the API holds it.
 */
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import type { ComponentChildren } from "preact";
import { contract } from "bngfleet:contract";
import { ApiError, call } from "../api.ts";
import { useCall, type Resource } from "../resource.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { can } from "../session.ts";
import { sentence, utc } from "../format.ts";
import { hash } from "../router.ts";
import type { PageContext } from "./context.ts";
import { ConfigHistory, DiffTable } from "./config-history.tsx";
import { Tag, ValueControl } from "./config-controls.tsx";
import {
  EMPTY_CANDIDATE,
  candidateRows,
  candidateSize,
  changeSetOf,
  childLabel,
  childSentence,
  fieldPointer,
  itemPointer,
  keyLabel,
  keySentence,
  problemOf,
  treeOf,
  unitOf,
  wireText,
  type Candidate,
  type ConfigValues,
  type ItemEdit,
  type SchemaKey,
  type ValueSpec,
} from "./config-model.ts";

type Validation = {
  key: string;
  errors: { pointer: string; detail: string }[];
  restartRequired: boolean;
  changedPaths: string[];
} | null;
type Outcome = { text: string; tone: "good" | "bad" } | null;

/** Built-in names a reference takes beside its list's keys (the global table is VRF `default`). */
const BUILTINS: Record<string, string[]> = { vrfs: ["default"] };

export function Configuration({ ctx }: { ctx: PageContext }) {
  const values = useCall(contract.config.values, {}, { base: ctx.base });
  const schema = useCall(contract.config.schema, {}, { base: ctx.base });
  const view = ctx.rest[0] ?? "";
  return (
    <>
      <h1>Configuration</h1>
      <nav class="tabs" aria-label="Configuration views">
        <a href={`${ctx.base}/config`} aria-current={view !== "all" && view !== "history" ? "page" : undefined}>
          Settings
        </a>
        <a href={`${ctx.base}/config/history`} aria-current={view === "history" ? "page" : undefined}>
          History, rollback and compare
        </a>
        <a href={`${ctx.base}/config/all`} aria-current={view === "all" ? "page" : undefined}>
          All keys
        </a>
      </nav>
      {view === "history" ? (
        <ConfigHistory ctx={ctx} onRolledBack={values.reload} />
      ) : (
        <Loaded resource={schema}>
          {(s) => (
            <Loaded resource={values}>
              {(v) =>
                view === "all" ? (
                  <AllKeys values={v} schema={s.keys} />
                ) : (
                  <Settings
                    ctx={ctx}
                    values={values}
                    current={v}
                    keys={s.keys}
                    redacted={s.redactionPlaceholder}
                    section={view}
                  />
                )
              }
            </Loaded>
          )}
        </Loaded>
      )}
    </>
  );
}

interface SettingsProps {
  ctx: PageContext;
  values: Resource<ConfigValues>;
  current: ConfigValues;
  keys: SchemaKey[];
  redacted: string;
  section: string;
}

function Settings({ ctx, values, current, keys, redacted, section }: SettingsProps) {
  const editable = !ctx.peer && can(contract.config.apply);
  const tree = useMemo(() => treeOf(keys), [keys]);
  const [search, setSearch] = useState("");
  const [candidate, setCandidate] = useState<Candidate>(EMPTY_CANDIDATE);
  const [validation, setValidation] = useState<Validation>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  // A value's link opens its section (`/config#routing.routerId` as well as `/config/routing#routing.routerId`).
  const linkedSection = tree.find((s) => s.keys.some((k) => `#${k.path}` === hash.value));
  const open = tree.find((s) => s.id === section) ?? linkedSection ?? tree[0]!;
  const candidateKey = JSON.stringify(candidate);

  // The appliance checks the candidate as it is made (every rule, not only the syntax checked as typed): each refusal
  // stands beside its field.
  useEffect(() => {
    if (candidateSize(candidate) === 0) {
      setValidation(null);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      call(contract.config.validate, { body: changeSetOf(candidate, "") })
        .then(
          (r) =>
            live &&
            setValidation({
              key: candidateKey,
              errors: r.errors,
              restartRequired: r.restartRequired,
              changedPaths: r.changedPaths,
            }),
        )
        .catch(() => live && setValidation(null));
    }, 400);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [candidateKey]);

  // A deep link to a value (`#routing.routerId`) brings it into view with the cursor in it.
  const linked = decodeURIComponent(hash.value.slice(1));
  // A link to a value shows it, whatever was being searched.
  useEffect(() => {
    if (linked) setSearch("");
  }, [linked]);
  useEffect(() => {
    if (!linked) return;
    // The section a value lives in opens first (a link from another section, or from a search).
    const row = document.getElementById(`cfg-${linked}`);
    row?.scrollIntoView({ block: "center" });
    row?.querySelector<HTMLElement>("input, select, button")?.focus({ preventScroll: true });
  }, [linked, open.id, search]);

  const serverErrors = validation?.key === candidateKey ? validation.errors : [];
  const errorsAt = (pointer: string) =>
    serverErrors.filter((e) => e.pointer === pointer).map((e) => sentence(e.detail));
  const setField = (path: string, next: string | null | undefined) => {
    setOutcome(null);
    setCandidate((c) => {
      const fields = { ...c.fields };
      if (next === undefined) delete fields[path];
      else fields[path] = next;
      return { ...c, fields };
    });
  };
  const setItem = (edit: ItemEdit | null, listPath: string, key: string) => {
    setOutcome(null);
    setCandidate((c) => ({
      ...c,
      items: [...c.items.filter((i) => !(i.listPath === listPath && i.key === key)), ...(edit ? [edit] : [])],
    }));
  };
  const listKeys = (listPath: string) => [
    ...(BUILTINS[listPath] ?? []),
    ...(current.lists[listPath] ?? []).map((i) => i.key),
  ];

  const needle = search.trim().toLowerCase();
  const matches = (k: SchemaKey) =>
    !needle ||
    [k.path, keyLabel(k.path), keySentence(k), ...k.children.map((c) => `${c.name} ${childLabel(c.name)}`)].some((t) =>
      t.toLowerCase().includes(needle),
    );
  const shownSections = needle
    ? tree.map((s) => ({ ...s, keys: s.keys.filter(matches) })).filter((s) => s.keys.length)
    : [open];

  const keyBlock = (k: SchemaKey) =>
    k.keyedList ? (
      <KeyedList
        key={k.path}
        listKey={k}
        items={current.lists[k.path] ?? []}
        candidate={candidate}
        editable={editable}
        setItem={setItem}
        errorsAt={errorsAt}
        listKeys={listKeys}
        ctx={ctx}
      />
    ) : (
      <FieldRow
        key={k.path}
        k={k}
        current={current.fields[k.path] ?? null}
        draft={candidate.fields[k.path]}
        editable={editable}
        errors={errorsAt(fieldPointer(k.path))}
        onChange={(next) => setField(k.path, next)}
      />
    );

  return (
    <div class="config">
      <div class="config-search">
        <label for="config-search">Find a setting</label>
        <input
          id="config-search"
          type="search"
          placeholder="a name, a word of its description, a key (bgp.localAs)"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
        />
      </div>
      <div class="config-body">
        <nav class="config-tree" aria-label="Configuration sections">
          <ul>
            {tree.map((s) => {
              const pending = s.keys.filter(
                (k) => k.path in candidate.fields || candidate.items.some((i) => i.listPath === k.path),
              ).length;
              return (
                <li key={s.id}>
                  <a
                    href={`${ctx.base}/config/${s.id}`}
                    aria-current={!needle && s.id === open.id ? "page" : undefined}
                    onClick={() => setSearch("")}
                  >
                    {s.title}
                    {pending > 0 && <span class="tag tag-changed">{pending} changed</span>}
                  </a>
                </li>
              );
            })}
          </ul>
        </nav>
        <div class="config-panel">
          {needle && shownSections.length === 0 && <p class="muted">No setting matches “{search}”.</p>}
          {shownSections.map((s) => (
            <section key={s.id} class="card" aria-labelledby={`cfg-section-${s.id}`}>
              <h2 id={`cfg-section-${s.id}`}>
                {needle ? <a href={`${ctx.base}/config/${s.id}`}>{s.title}</a> : s.title}
              </h2>
              {/* The section's single values first, then its lists. */}
              {[...s.keys.filter((k) => !k.keyedList), ...s.keys.filter((k) => k.keyedList)].map(keyBlock)}
            </section>
          ))}
        </div>
      </div>
      {editable && (
        <PendingChanges
          candidate={candidate}
          current={current}
          keys={keys}
          redacted={redacted}
          validation={validation?.key === candidateKey ? validation : null}
          outcome={outcome}
          discard={() => {
            setCandidate(EMPTY_CANDIDATE);
            setOutcome(null);
          }}
          committed={(text) => {
            setCandidate(EMPTY_CANDIDATE);
            setOutcome({ text, tone: "good" });
            values.reload();
          }}
        />
      )}
    </div>
  );
}

/**
 * One value: its label (with what is pending or how a change applies), its control, its sentence, and any problem
 * beside it.
 */
function FieldRow({
  k,
  current,
  draft,
  editable,
  errors,
  onChange,
}: {
  k: SchemaKey;
  current: string | null;
  draft: string | null | undefined;
  editable: boolean;
  errors: string[];
  onChange: (next: string | null | undefined) => void;
}) {
  const id = `cfg-input-${k.path}`;
  const typed = draft === undefined || draft === null ? null : problemOf(k.path, k, draft);
  // What was typed is checked first; the appliance's own words stand when the syntax is right (its rules across
  // values).
  const problems = typed ? [typed] : errors;
  return (
    <Row
      id={`cfg-${k.path}`}
      inputId={id}
      label={keyLabel(k.path)}
      path={k.path}
      apply={k.apply}
      changed={draft !== undefined}
      problems={problems}
      sentence={keySentence(k)}
      defaultText={k.default}
      spec={k}
    >
      <ValueControl
        id={id}
        name={k.path}
        label={keyLabel(k.path)}
        spec={k}
        current={current}
        draft={draft}
        onChange={(next) => onChange(next === undefined || next === null ? next : wireText(k, next))}
        describedBy={`${id}-about${problems.length ? ` ${id}-problem` : ""}`}
        invalid={problems.length > 0}
        readOnly={!editable}
      />
    </Row>
  );
}

interface RowProps {
  id: string;
  inputId: string;
  label: string;
  path: string;
  apply: string;
  changed: boolean;
  problems: string[];
  sentence: string;
  defaultText: string | null;
  spec: ValueSpec;
  children: ComponentChildren;
  /** Set for a value of a list item: the control is not a field of its own, so the row has no deep link. */
  inItem?: boolean;
}

function Row({
  id,
  inputId,
  label,
  path,
  apply,
  changed,
  problems,
  sentence: about,
  defaultText,
  spec,
  children,
  inItem,
}: RowProps) {
  // A list's rows and a set of choices are groups of controls, named by their group rather than one control's label.
  const isGroup = spec.listMode && !spec.secret;
  return (
    <div
      class={`cfg-field${problems.length ? " invalid" : ""}${changed ? " changed" : ""}`}
      id={inItem ? undefined : id}
    >
      <div class="cfg-label">
        {isGroup ? (
          <span class="label" id={`${inputId}-label`}>
            {label}
          </span>
        ) : (
          <label for={inputId}>{label}</label>
        )}
        {changed && <Tag tone="changed">changed</Tag>}
        {apply === "restart" && <Tag tone="restart">applies at restart</Tag>}
        {!inItem && (
          <a class="cfg-link muted" href={`#${path}`} title="a link to this setting">
            {path}
          </a>
        )}
      </div>
      <div class="cfg-control">
        {children}
        {problems.length > 0 && (
          <small class="field-error" id={`${inputId}-problem`}>
            {problems.join(" ")}
          </small>
        )}
        <p class="cfg-about" id={`${inputId}-about`}>
          {about}
          {defaultText !== null && defaultText !== "" && !spec.secret && spec.type !== "boolean" && (
            <span> Default: {defaultText.replace(/\n/g, ", ")}.</span>
          )}
        </p>
      </div>
    </div>
  );
}

interface KeyedListProps {
  listKey: SchemaKey;
  items: ConfigValues["lists"][string];
  candidate: Candidate;
  editable: boolean;
  setItem: (edit: ItemEdit | null, listPath: string, key: string) => void;
  errorsAt: (pointer: string) => string[];
  listKeys: (listPath: string) => string[];
  ctx: PageContext;
}

/** A child's text in a list's table: yes or no for a boolean, a number with its unit, a list comma separated. */
const cellText = (c: SchemaKey["children"][number], v: string): string => {
  if (c.type === "boolean") return v === "true" ? "yes" : "no";
  const unit = unitOf(c.name);
  return unit && /^\d+$/.test(v) ? `${v} ${unit}` : v.replace(/\n/g, ", ");
};

/** The children a list's table shows (the editor shows all): the first few that are not secret and not long text. */
const tableChildren = (k: SchemaKey) => k.children.filter((c) => !c.secret && c.name !== "description").slice(0, 4);

/** A keyed list: its items as a table with Edit and Delete on each row, an editor for one item, and a new one added. */
function KeyedList({ listKey: k, items, candidate, editable, setItem, errorsAt, listKeys, ctx }: KeyedListProps) {
  const [editing, setEditing] = useState<string | null>(null);
  const [adding, setAdding] = useState<string | null>(null);
  const edits = candidate.items.filter((i) => i.listPath === k.path);
  const added = edits
    .filter((e) => e.isNew && !e.delete)
    .map((e) => ({ key: e.key, values: {} as Record<string, string | null> }));
  const rows = [...items, ...added];
  const columns = tableChildren(k);
  const label = keyLabel(k.path);
  const editOf = (key: string) => edits.find((e) => e.key === key);
  const problemsOf = (key: string) =>
    errorsAt(itemPointer(k.path, key)).concat(
      ...k.children.map((c) => errorsAt(itemPointer(k.path, key, c.name)).map((d) => `${childLabel(c.name)}: ${d}`)),
    );
  const editingItem = editing === null ? null : rows.find((r) => r.key === editing);
  return (
    <div class="cfg-list" id={`cfg-${k.path}`}>
      <h3>
        {label}{" "}
        <span class="aside">
          {rows.length} {rows.length === 1 ? "item" : "items"}
        </span>
        {k.apply === "restart" && <Tag tone="restart">applies at restart</Tag>}
        <a class="cfg-link muted" href={`#${k.path}`} title="a link to this list">
          {k.path}
        </a>
      </h3>
      <p class="cfg-about">{keySentence(k)}</p>
      {rows.length === 0 ? (
        <p class="muted">None.</p>
      ) : (
        <div class="table-wrap">
          <table class="records dense">
            <caption>{label}</caption>
            <thead>
              <tr>
                <th scope="col">{childLabel(k.key?.name ?? "key")}</th>
                {columns.map((c) => (
                  <th scope="col" key={c.name}>
                    {childLabel(c.name)}
                  </th>
                ))}
                {editable && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {rows.map((item) => {
                const edit = editOf(item.key);
                const problems = problemsOf(item.key);
                return (
                  <tr
                    key={item.key}
                    class={edit?.delete ? "deleted" : problems.length ? "invalid" : edit ? "changed" : undefined}
                  >
                    <th scope="row">
                      {item.key}
                      {edit && (
                        <Tag tone="changed">{edit.delete ? "to be deleted" : edit.isNew ? "new" : "changed"}</Tag>
                      )}
                      {problems.length > 0 && <small class="field-error block">{problems.join(" ")}</small>}
                    </th>
                    {columns.map((c) => {
                      const pendingValue = edit?.fields[c.name];
                      const v = pendingValue !== undefined ? pendingValue : (item.values[c.name] ?? null);
                      return (
                        <td key={c.name}>{v === null || v === "" ? <span class="muted">—</span> : cellText(c, v)}</td>
                      );
                    })}
                    {editable && (
                      <td class="row-actions">
                        {edit?.delete ? (
                          <button
                            type="button"
                            class="secondary"
                            aria-label={`Keep ${label} ${item.key}`}
                            onClick={() => setItem(null, k.path, item.key)}
                          >
                            Keep
                          </button>
                        ) : (
                          <>
                            <button
                              type="button"
                              class="secondary"
                              aria-pressed={editing === item.key}
                              aria-label={`Edit ${label} ${item.key}`}
                              onClick={() => setEditing(editing === item.key ? null : item.key)}
                            >
                              Edit
                            </button>
                            <button
                              type="button"
                              class="secondary"
                              aria-label={`Delete ${label} ${item.key}`}
                              onClick={() => {
                                if (editing === item.key) setEditing(null);
                                setItem(
                                  edit?.isNew
                                    ? null
                                    : { listPath: k.path, key: item.key, isNew: false, delete: true, fields: {} },
                                  k.path,
                                  item.key,
                                );
                              }}
                            >
                              Delete
                            </button>
                          </>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {editable && editingItem && (
        <ItemEditor
          key={editingItem.key}
          listKey={k}
          itemKey={editingItem.key}
          current={editingItem.values}
          edit={editOf(editingItem.key)}
          isNew={!items.some((i) => i.key === editingItem.key)}
          setItem={setItem}
          errorsAt={errorsAt}
          listKeys={listKeys}
          close={() => setEditing(null)}
        />
      )}
      {editable &&
        (adding === null ? (
          <button type="button" class="secondary" onClick={() => setAdding("")}>
            Add to {label}
          </button>
        ) : (
          <form
            class="cfg-add"
            onSubmit={(e) => {
              e.preventDefault();
              const key = adding.trim();
              if (!key || rows.some((r) => r.key === key)) return;
              setItem({ listPath: k.path, key, isNew: true, delete: false, fields: {} }, k.path, key);
              setAdding(null);
              setEditing(key);
            }}
          >
            <label for={`cfg-add-${k.path}`}>{childLabel(k.key?.name ?? "key")} of the new item</label>
            <input
              id={`cfg-add-${k.path}`}
              value={adding}
              spellcheck={false}
              onInput={(e) => setAdding(e.currentTarget.value)}
              aria-describedby={`cfg-add-${k.path}-about`}
            />
            <small class="hint" id={`cfg-add-${k.path}-about`}>
              {k.key ? sentence(k.key.description.replace(/`/g, "")) : ""}
              {rows.some((r) => r.key === adding.trim()) ? " That one exists already." : ""}
            </small>
            <button type="submit">Add</button>
            <button type="button" class="secondary" onClick={() => setAdding(null)}>
              Cancel
            </button>
          </form>
        ))}
    </div>
  );
}

interface ItemEditorProps {
  listKey: SchemaKey;
  itemKey: string;
  current: Record<string, string | null>;
  edit: ItemEdit | undefined;
  isNew: boolean;
  setItem: (edit: ItemEdit | null, listPath: string, key: string) => void;
  errorsAt: (pointer: string) => string[];
  listKeys: (listPath: string) => string[];
  close: () => void;
}

/** One item's children, each with its control, sentence and problem; every change goes straight into the candidate. */
function ItemEditor({
  listKey: k,
  itemKey,
  current,
  edit,
  isNew,
  setItem,
  errorsAt,
  listKeys,
  close,
}: ItemEditorProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const setChild = (child: string, next: string | null | undefined) => {
    const fields = { ...(edit?.fields ?? {}) };
    if (next === undefined) delete fields[child];
    else fields[child] = next;
    setItem(
      isNew || Object.keys(fields).length ? { listPath: k.path, key: itemKey, isNew, delete: false, fields } : null,
      k.path,
      itemKey,
    );
  };
  return (
    <section class="cfg-item" aria-labelledby={`cfg-item-${k.path}`}>
      <h4 id={`cfg-item-${k.path}`} tabIndex={-1} ref={heading}>
        {isNew ? "New" : "Editing"} {keyLabel(k.path).replace(/s$/, "")} {itemKey}
      </h4>
      {k.children.map((c) => {
        const id = `cfg-input-${k.path}-${itemKey}-${c.name}`.replace(/[^\w.-]+/g, "-");
        const draft = edit?.fields[c.name];
        const spec: ValueSpec = { ...c, managedBy: null };
        const typed = draft === undefined || draft === null ? null : problemOf(`${k.path}/${c.name}`, spec, draft);
        const problems = typed ? [typed] : errorsAt(itemPointer(k.path, itemKey, c.name));
        return (
          <Row
            key={c.name}
            id={id}
            inputId={id}
            label={`${childLabel(c.name)}${c.required ? " *" : ""}`}
            path={`${k.path}/${c.name}`}
            apply={k.apply}
            changed={draft !== undefined}
            problems={problems}
            sentence={childSentence(k.path, c)}
            defaultText={c.default}
            spec={spec}
            inItem
          >
            <ValueControl
              id={id}
              name={c.name}
              label={childLabel(c.name)}
              spec={spec}
              current={current[c.name] ?? null}
              draft={draft}
              options={c.references ? listKeys(c.references) : undefined}
              onChange={(next) => setChild(c.name, next === undefined || next === null ? next : wireText(spec, next))}
              describedBy={`${id}-about${problems.length ? ` ${id}-problem` : ""}`}
              invalid={problems.length > 0}
            />
          </Row>
        );
      })}
      <button type="button" class="secondary" onClick={close}>
        Done
      </button>
    </section>
  );
}

interface PendingProps {
  candidate: Candidate;
  current: ConfigValues;
  keys: SchemaKey[];
  redacted: string;
  validation: Validation;
  outcome: Outcome;
  discard: () => void;
  committed: (text: string) => void;
}

/**
 * The candidate, always in view at the bottom of the page while it holds a
 * change: how many, whether the appliance accepts them, then the review
 * (each value before and after), the comment and the commit. What the commit
 * did is said here, where the button was.
 */
function PendingChanges({ candidate, current, keys, redacted, validation, outcome, discard, committed }: PendingProps) {
  const [reviewing, setReviewing] = useState(false);
  const [comment, setComment] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<ApiError | null>(null);
  const status = useRef<HTMLParagraphElement>(null);
  const size = candidateSize(candidate);
  const rows = candidateRows(candidate, current, keys, redacted);
  useEffect(() => {
    if (size === 0) setReviewing(false);
    setProblem(null);
  }, [JSON.stringify(candidate)]);
  useEffect(() => {
    if (outcome) status.current?.focus();
  }, [outcome]);
  if (size === 0 && !outcome) return null;

  async function commit() {
    setBusy(true);
    setProblem(null);
    try {
      // The comment as it is now, typed before or after the review opened.
      const result = await call(contract.config.apply, { body: changeSetOf(candidate, comment) });
      setComment("");
      setReviewing(false);
      committed(
        result.changedPaths.length === 0
          ? "Nothing changed: the values were already so."
          : `Committed as version ${result.version}` +
              `${result.committedUtc ? ` at ${utc(result.committedUtc)}` : ""}` +
              `${result.restartRequired ? "; it applies at the next restart" : ""}.`,
      );
    } catch (failure) {
      setProblem(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
    } finally {
      setBusy(false);
    }
  }

  const refused = validation?.errors.length ?? 0;
  return (
    <section class={`pending${reviewing ? " open" : ""}`} aria-label="Pending changes" data-testid="pending-changes">
      {size === 0 && outcome ? (
        <p class={`outcome tone-${outcome.tone}`} role="status" tabIndex={-1} ref={status} data-testid="config-outcome">
          {outcome.text}
        </p>
      ) : (
        <>
          <div class="pending-line">
            <strong>
              {size} pending change{size === 1 ? "" : "s"}
            </strong>
            <span role="status" data-testid="pending-check">
              {validation === null
                ? "checking…"
                : refused > 0
                  ? `${refused} value${refused === 1 ? " is" : "s are"} refused: see the ` +
                    `field${refused === 1 ? "" : "s"} marked above.`
                  : `The appliance accepts ${size === 1 ? "it" : "them"}` +
                    `${validation.restartRequired ? "; some apply at the next restart" : ""}.`}
            </span>
            <span class="pending-buttons">
              {!reviewing && (
                <button type="button" onClick={() => setReviewing(true)} disabled={refused > 0}>
                  Review and commit
                </button>
              )}
              <button type="button" class="secondary" onClick={discard}>
                Discard all
              </button>
            </span>
          </div>
          {reviewing && (
            <div class="review" role="region" aria-label="Changes to commit" data-testid="commit-review">
              <DiffTable
                rows={rows.map((r) => ({ place: r.place, from: r.from, to: r.to }))}
                fromLabel="Now"
                toLabel="After the commit"
              />
              <div class="commit-line">
                <label for="cfg-comment">Comment for the history</label>
                <input
                  id="cfg-comment"
                  value={comment}
                  maxLength={1024}
                  placeholder="why, a ticket number"
                  onInput={(e) => setComment(e.currentTarget.value)}
                />
                <button type="button" disabled={busy || refused > 0} onClick={() => void commit()}>
                  {busy ? "Committing…" : `Commit ${size} change${size === 1 ? "" : "s"}`}
                </button>
                <button type="button" class="secondary" onClick={() => setReviewing(false)}>
                  Keep editing
                </button>
              </div>
              <ProblemNote error={problem} />
            </div>
          )}
        </>
      )}
    </section>
  );
}

/** Every value as the API holds it, by key: the raw view for one who knows the keys. */
function AllKeys({ values, schema }: { values: ConfigValues; schema: SchemaKey[] }) {
  const [filter, setFilter] = useState("");
  const lists = Object.entries(values.lists).filter(([path]) => path.includes(filter));
  return (
    <section class="card" aria-labelledby="all-keys-h">
      <h2 id="all-keys-h">All keys</h2>
      <label for="all-keys-filter">Show keys containing</label>
      <input id="all-keys-filter" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      <div class="table-wrap">
        <table class="records dense" data-testid="config-fields">
          <caption>Every field</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Value</th>
              <th scope="col">Applies</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(values.fields)
              .filter(([k]) => k.includes(filter))
              .map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">
                    <code>{k}</code>
                  </th>
                  <td class="wrap">
                    {v === null ? <span class="muted">unset</span> : <code>{v.replace(/\n/g, ", ")}</code>}
                  </td>
                  <td>{schema.find((s) => s.path === k)?.apply === "restart" ? "at restart" : "at once"}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </div>
      {lists.map(([path, items]) => (
        <details key={path}>
          <summary>
            <code>{path}</code> ({items.length})
          </summary>
          <div class="table-wrap">
            <table class="records dense">
              <caption>{path}</caption>
              <thead>
                <tr>
                  <th scope="col">Key</th>
                  {Object.keys(items[0]?.values ?? {}).map((c) => (
                    <th scope="col" key={c}>
                      <code>{c}</code>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {items.map((i) => (
                  <tr key={i.key}>
                    <th scope="row">{i.key}</th>
                    {Object.values(i.values).map((v, n) => (
                      <td key={n}>{v === null ? <span class="muted">—</span> : v.replace(/\n/g, ", ")}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </details>
      ))}
    </section>
  );
}
