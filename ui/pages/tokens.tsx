/**
 * API tokens: the list (sortable, CSV) with Revoke on each row a person may
 * revoke, a new token made with its expiry said as a person says it (30d, a
 * date from the picker, never) and its role from the three roles, and the
 * new token shown once with a copy button.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { ApiError, call, type Answer } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { Loaded, ProblemNote } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { Card } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { sentence, utc } from "../format.ts";
import { ROLES } from "../../src/auth/role-order.ts";
import { expiryOf } from "./token-expiry.ts";

type Created = Answer<typeof contract.tokens.create>;

export function Tokens() {
  const tokens = useCall(contract.tokens.list, { query: { limit: 500 } });
  const [created, setCreated] = useState<Created | null>(null);
  const [copied, setCopied] = useState(false);
  const rows = useRowActions();
  return (
    <>
      <h1>Tokens</h1>
      {created && (
        <section class="card once" aria-labelledby="new-token-h" role="status">
          <h2 id="new-token-h">New token “{created.name}”</h2>
          <p>This is the only time the token is shown: copy it now.</p>
          <p>
            <code data-testid="new-token">{created.token}</code>{" "}
            <button
              type="button"
              onClick={() => {
                void navigator.clipboard?.writeText(created.token).then(() => setCopied(true));
              }}
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </p>
          <p class="muted">
            {created.role}, {created.expiresUtc ? `until ${utc(created.expiresUtc)}` : "with no expiry"}.
          </p>
        </section>
      )}
      <Loaded resource={tokens}>
        {(page) => (
          <Card id="tokens" title="Tokens" aside={`${page.total}`}>
            {rows.note}
            <RecordTable
              caption="API tokens"
              csvName="tokens"
              testid="token-table"
              rows={page.items.map((t) => ({
                name: t.name,
                role: t.role,
                prefix: t.prefix,
                createdUtc: t.createdUtc,
                createdBy: t.createdBy,
                lastUsedUtc: t.lastUsedUtc,
                expiresUtc: t.expiresUtc,
                source: t.source === "config" ? "configuration" : "API",
              }))}
              labels={{
                prefix: "Starts with",
                createdUtc: "Created",
                createdBy: "By",
                lastUsedUtc: "Last used",
                expiresUtc: "Expires",
                source: "From",
              }}
              cells={{
                expiresUtc: (row) =>
                  row.expiresUtc === null ? (
                    <span class="muted">never</span>
                  ) : (
                    <span>{utc(String(row.expiresUtc))}</span>
                  ),
                // A token the fleet configuration provisions is revoked by changing the configuration, not from here.
                source: (row) =>
                  row.source === "configuration" ? (
                    <span title="Provisioned by the fleet configuration: change the configuration to revoke it">
                      configuration
                    </span>
                  ) : (
                    <span>API</span>
                  ),
              }}
              rowAction={(row) =>
                can(contract.tokens.revoke) && row.source === "API" ? (
                  <RowButton
                    verb="Revoke"
                    target={`token ${String(row.name)}`}
                    onClick={() =>
                      void rows.act(
                        `Revoke token ${String(row.name)} (${String(row.prefix)}…)? Whatever uses it ` +
                          `stops working at once.`,
                        () =>
                          call(contract.tokens.revoke, {
                            params: { id: page.items.find((t) => t.name === row.name && t.prefix === row.prefix)!.id },
                          }),
                        `Token ${String(row.name)} revoked.`,
                        tokens.reload,
                      )
                    }
                  />
                ) : null
              }
            />
          </Card>
        )}
      </Loaded>
      {can(contract.tokens.create) && (
        <NewToken
          onCreated={(t) => {
            setCopied(false);
            setCreated(t);
            tokens.reload();
          }}
        />
      )}
    </>
  );
}

/** A new token: its name, one of the three roles, and when it expires (30d, a date, never). */
function NewToken({ onCreated }: { onCreated: (token: Created) => void }) {
  const [name, setName] = useState("");
  const [role, setRole] = useState("read-only");
  const [expires, setExpires] = useState("90d");
  const [problem, setProblem] = useState<ApiError | null>(null);
  const [busy, setBusy] = useState(false);
  const expiry = expiryOf(expires, new Date());
  const fieldError = (field: string) => problem?.fieldErrors.find((e) => e.pointer === `#/${field}`)?.detail;
  async function create(event: Event) {
    event.preventDefault();
    if (!expiry.ok) return;
    setBusy(true);
    setProblem(null);
    try {
      onCreated(
        await call(contract.tokens.create, {
          body: { name: name.trim(), role: role as (typeof ROLES)[number], expiresUtc: expiry.utc },
        }),
      );
      setName("");
    } catch (failure) {
      setProblem(failure instanceof ApiError ? failure : new ApiError(0, { detail: String(failure) }, null));
    } finally {
      setBusy(false);
    }
  }
  const nameError = fieldError("name");
  return (
    <form class="action token-form" onSubmit={create} aria-labelledby="new-token-title">
      <h3 id="new-token-title">Create a token</h3>
      <div class="field-row">
        <div class={nameError ? "field invalid" : "field"}>
          <label for="token-name">Name *</label>
          <input
            id="token-name"
            required
            value={name}
            spellcheck={false}
            placeholder="grafana edge-1"
            onInput={(e) => setName(e.currentTarget.value)}
            aria-invalid={!!nameError}
            aria-describedby={nameError ? "token-name-error" : undefined}
          />
          {nameError && (
            <small class="field-error" id="token-name-error">
              {sentence(nameError)}
            </small>
          )}
        </div>
        <div class="field">
          <label for="token-role">Role *</label>
          <select id="token-role" value={role} onChange={(e) => setRole(e.currentTarget.value)}>
            {ROLES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </div>
        <div class={expiry.ok ? "field" : "field invalid"}>
          <label for="token-expires">Expires</label>
          <span class="expiry">
            <input
              id="token-expires"
              list="token-expiry-spans"
              value={expires}
              spellcheck={false}
              onInput={(e) => setExpires(e.currentTarget.value)}
              aria-invalid={!expiry.ok}
              aria-describedby="token-expires-about"
            />
            <input
              type="date"
              aria-label="Pick the day it expires"
              value={/^\d{4}-\d{2}-\d{2}$/.test(expires.trim()) ? expires.trim() : ""}
              onInput={(e) => setExpires(e.currentTarget.value)}
            />
          </span>
          <datalist id="token-expiry-spans">
            {["never", "30d", "90d", "1y"].map((s) => (
              <option key={s} value={s} />
            ))}
          </datalist>
          <small class={expiry.ok ? "hint" : "field-error"} id="token-expires-about">
            {expiry.ok ? (expiry.utc ? `Until ${utc(expiry.utc)}.` : "Never expires.") : expiry.problem}
          </small>
        </div>
      </div>
      {problem && problem.fieldErrors.every((e) => e.pointer !== "#/name") && <ProblemNote error={problem} />}
      <button type="submit" disabled={busy || !expiry.ok}>
        {busy ? "Creating…" : "Create the token"}
      </button>
    </form>
  );
}
