/** API tokens: the list, a new token shown once with a copy button, and revoke. */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import type { Answer } from "../api.ts";
import { useCall } from "../resource.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";

export function Tokens() {
  const tokens = useCall(contract.tokens.list, { query: { limit: 500 } });
  const [created, setCreated] = useState<Answer<typeof contract.tokens.create> | null>(null);
  const [copied, setCopied] = useState(false);
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
        </section>
      )}
      <section class="card">
        <h2>Tokens</h2>
        <Loaded resource={tokens}>{(page) => <RecordTable rows={page.items as never} />}</Loaded>
      </section>
      <section class="actions" aria-label="Changes">
        <ActionForm
          operation={contract.tokens.create}
          title="Create a token"
          showResult={false}
          onDone={(result) => {
            setCopied(false);
            setCreated(result as Answer<typeof contract.tokens.create>);
            tokens.reload();
          }}
        />
        <ActionForm operation={contract.tokens.revoke} title="Revoke a token" confirm="Revoke this token? Whatever uses it stops working." onDone={tokens.reload} />
      </section>
    </>
  );
}
