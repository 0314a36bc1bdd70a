/**
 * Users: the accounts with their role, second factor and lockouts; change
 * role, set password, reset TOTP, unlock and delete on each row, each with a
 * confirm naming the account; the open browser sessions, each one ended from
 * its row.
 */
import { useState } from "preact/hooks";
import { contract } from "bngfleet:contract";
import { call } from "../api.ts";
import { useCall } from "../resource.ts";
import { can, me } from "../session.ts";
import { Loaded } from "../components/problem.tsx";
import { RecordTable } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Fold } from "../components/card.tsx";
import { RowButton, useRowActions } from "../components/row-action.tsx";
import { ROLES } from "../../src/auth/role-order.ts";

type Editing = { username: string; what: "role" | "password" } | null;

export function Users() {
  const users = useCall(contract.users.list, { query: { limit: 1000 } });
  const sessions = useCall(
    can(contract.browserSessions.list) ? contract.browserSessions.list : null,
    { query: { limit: 1000 } },
    { refreshMs: 30_000 },
  );
  const rows = useRowActions();
  const sessionRows = useRowActions();
  const [editing, setEditing] = useState<Editing>(null);
  const toggle = (username: string, what: "role" | "password") =>
    setEditing(editing?.username === username && editing.what === what ? null : { username, what });
  const edited = users.data?.items.find((u) => u.username === editing?.username);
  return (
    <>
      <h1>Users</h1>
      <Loaded resource={users}>
        {(page) => (
          <Card id="accounts" title="Accounts" aside={`${page.total}`}>
            {rows.note}
            <RecordTable
              caption="Accounts"
              rows={page.items.map((u) => ({
                username: u.username,
                role: u.role,
                totp: u.totpEnrolled ? "enrolled" : u.enrolmentRequired ? "at next sign-in" : "not enrolled",
                lastLogin: u.lastLoginUtc,
                passwordChanged: u.passwordChangedUtc,
                created: u.createdUtc,
                locked: u.lockouts
                  .filter((l) => l.lockedUntilUtc !== null)
                  .map((l) => (l.sourceIp === "*" ? "all sources" : l.sourceIp)),
              }))}
              labels={{ totp: "TOTP" }}
              cells={{
                locked: (row) =>
                  Array.isArray(row.locked) && row.locked.length ? (
                    <span class="tone-bad">{row.locked.join(", ")}</span>
                  ) : (
                    <span class="muted">no</span>
                  ),
              }}
              rowAction={(row) => {
                const name = String(row.username);
                const self = me.value?.username === name;
                return (
                  <>
                    {can(contract.users.update) && (
                      <RowButton
                        verb="Role"
                        target={`of ${name}`}
                        pressed={editing?.username === name && editing.what === "role"}
                        onClick={() => toggle(name, "role")}
                      />
                    )}
                    {can(contract.users.setPassword) && (
                      <RowButton
                        verb="Password"
                        target={`of ${name}`}
                        pressed={editing?.username === name && editing.what === "password"}
                        onClick={() => toggle(name, "password")}
                      />
                    )}
                    {can(contract.users.resetTotp) && (
                      <RowButton
                        verb="Reset TOTP"
                        target={`of ${name}`}
                        onClick={() =>
                          void rows.act(
                            `Reset the TOTP of ${name}? They enrol a new authenticator at their next sign-in.`,
                            () => call(contract.users.resetTotp, { params: { username: name } }),
                            `TOTP of ${name} reset.`,
                            users.reload,
                          )
                        }
                      />
                    )}
                    {can(contract.users.unlock) && Array.isArray(row.locked) && row.locked.length > 0 && (
                      <RowButton
                        verb="Unlock"
                        target={name}
                        onClick={() =>
                          void rows.act(
                            `Unlock ${name}?`,
                            () => call(contract.users.unlock, { params: { username: name } }),
                            `${name} unlocked.`,
                            users.reload,
                          )
                        }
                      />
                    )}
                    {can(contract.users.remove) && !self && (
                      <RowButton
                        verb="Delete"
                        target={`account ${name}`}
                        onClick={() =>
                          void rows.act(
                            `Delete account ${name}? Its sessions end and its API tokens are revoked.`,
                            () => call(contract.users.remove, { params: { username: name } }),
                            `Account ${name} deleted.`,
                            users.reload,
                          )
                        }
                      />
                    )}
                  </>
                );
              }}
            />
            {edited && editing?.what === "role" && (
              <ActionForm
                key={`role/${edited.username}`}
                operation={contract.users.update}
                params={{ username: edited.username }}
                current={{ role: edited.role }}
                choices={{ role: [...ROLES] }}
                title={`Change the role of ${edited.username}`}
                submitLabel="Save"
                onDone={users.reload}
              />
            )}
            {edited && editing?.what === "password" && (
              <ActionForm
                key={`password/${edited.username}`}
                operation={contract.users.setPassword}
                params={{ username: edited.username }}
                title={`Set the password of ${edited.username}`}
                submitLabel="Set password"
                onDone={() => setEditing(null)}
              />
            )}
            {can(contract.users.create) && (
              <Fold title="Add an account">
                <ActionForm
                  operation={contract.users.create}
                  title="Add an account"
                  choices={{ role: [...ROLES] }}
                  onDone={users.reload}
                />
              </Fold>
            )}
          </Card>
        )}
      </Loaded>
      {sessions.data && (
        <Card id="browser-sessions" title="Signed-in browsers">
          {sessionRows.note}
          <RecordTable
            caption="Browser sessions"
            rows={sessions.data.items.map((s) => ({
              username: s.username,
              role: s.role,
              from: s.sourceIp,
              signedIn: s.createdUtc,
              lastSeen: s.lastSeenUtc,
              expires: s.expiresUtc,
              thisBrowser: s.current,
              id: s.id,
            }))}
            labels={{ id: "Handle" }}
            rowAction={(row) =>
              can(contract.browserSessions.end) ? (
                <RowButton
                  verb="End"
                  target={`session of ${row.username} from ${row.from}`}
                  onClick={() =>
                    void sessionRows.act(
                      `End the session of ${row.username} ` +
                        `from ${row.from}${row.thisBrowser ? " (this browser: you will be signed out)" : ""}?`,
                      () => call(contract.browserSessions.end, { params: { id: String(row.id) } }),
                      `Session of ${row.username} ended.`,
                      sessions.reload,
                    )
                  }
                />
              ) : null
            }
          />
        </Card>
      )}
    </>
  );
}
