/**
 * OIDC providers: each provider's sign-in settings and role map; edit (from its current settings, the secret kept
 * unless typed) and delete on its row.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { call } from "../api.ts";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Fold } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { ROLES } from "../../src/auth/role-order.ts";

/** The role map, one row per rule (group, role), first match wins. */
const RECORDS = { roleMap: "rule" };
/** A rule's role is one of the three (the API also takes `admin` for super-user: not a fourth choice). */
const ROLE_CHOICES = { "roleMap/role": [...ROLES] };
/** Help in a person's words where the API's speaks to read-modify-write clients. */
const HINTS = {
  clientSecret:
    "The secret the provider issued to this appliance; never shown. Empty keeps the " +
    "one stored; a changed issuer needs it typed again.",
  issuer: "The provider's address; its discovery document is read from it. https, or http on loopback only.",
  redirectUri: "Where the provider sends the browser back. Empty: made from the appliance's host name.",
  roleMap: "Which role a member of a group gets; the first rule that matches wins.",
};

export function OidcProviders() {
  const providers = useCall(contract.providers.listOidc);
  const rows = useRowActions();
  const [editing, setEditing] = useState<string | null>(null);
  const edited = providers.data?.find((p) => p.name === editing);
  return (
    <>
      <h1>OIDC providers</h1>
      <Loaded resource={providers}>
        {(list) => (
          <Card id="providers" title="Providers" aside="each enabled one is a button on the sign-in page">
            {rows.note}
            <RecordTable
              caption="OIDC providers"
              rows={list.map((p) => ({
                name: p.name,
                displayName: p.displayName,
                enabled: p.enabled,
                issuer: p.issuer,
                clientId: p.clientId,
                secret: p.clientSecretSet ? "set" : "missing",
                scopes: p.scopes,
                roleMap: p.roleMap.map((r) => `${r.group} → ${r.role}`),
                callbackPath: p.callbackPath,
              }))}
              labels={{
                displayName: "Button label",
                clientId: "Client ID",
                roleMap: "Groups → roles",
                callbackPath: "Callback",
              }}
              cells={{
                secret: (row) => (
                  <span class={row.secret === "set" ? undefined : "tone-bad"}>{String(row.secret)}</span>
                ),
              }}
              rowAction={(row) => {
                const name = String(row.name);
                return (
                  <>
                    {can(contract.providers.putOidc) && (
                      <RowButton
                        verb="Edit"
                        target={`provider ${name}`}
                        pressed={editing === name}
                        onClick={() => setEditing(editing === name ? null : name)}
                      />
                    )}
                    {can(contract.providers.deleteOidc) && (
                      <RowButton
                        verb="Delete"
                        target={`provider ${name}`}
                        onClick={() =>
                          void rows.act(
                            `Delete OIDC provider ${name} (${row.displayName})? Its sign-in button goes.`,
                            () => call(contract.providers.deleteOidc, { params: { name } }),
                            `OIDC provider ${name} deleted.`,
                            providers.reload,
                          )
                        }
                      />
                    )}
                  </>
                );
              }}
              empty="No OIDC providers: sign-in is by password and second factor only."
            />
            {edited && (
              <ActionForm
                key={edited.name}
                operation={contract.providers.putOidc}
                params={{ name: edited.name }}
                current={{ ...edited, roleMap: edited.roleMap }}
                hide={["name"]}
                recordNames={RECORDS}
                choices={ROLE_CHOICES}
                hints={HINTS}
                title={`Edit provider ${edited.name}`}
                submitLabel="Save"
                onDone={providers.reload}
              />
            )}
            {can(contract.providers.putOidc) && (
              <Fold title="Add a provider">
                <ActionForm
                  operation={contract.providers.putOidc}
                  recordNames={RECORDS}
                  choices={ROLE_CHOICES}
                  hints={HINTS}
                  title="Add an OIDC provider"
                  onDone={providers.reload}
                />
              </Fold>
            )}
          </Card>
        )}
      </Loaded>
    </>
  );
}
