/**
 * The passkey (WebAuthn) policy: whether the sign-in page offers passkeys,
 * the relying party they are bound to, the user verification asked, and
 * whether a passkey stands in for the TOTP code; changed by a form that starts
 * from the policy in force (a box left unticked saves `false`). The passkeys
 * themselves are each account's own (My account).
 */
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import { Loaded } from "../components/problem.tsx";
import { Scalar } from "../components/json-view.tsx";
import { ActionForm } from "../components/action-form.tsx";
import { Card, Facts } from "../components/card.tsx";

export function PasskeyPolicy() {
  const policy = useCall(contract.providers.getPasskeyPolicy);
  return (
    <>
      <h1>Passkey policy</h1>
      <Loaded resource={policy}>
        {(p) => (
          <Card
            id="passkey-policy"
            title="Passkey sign-in"
            aside={p.enabled ? "offered on the sign-in page" : "not offered on the sign-in page"}
          >
            <Facts
              label="Passkey policy in force"
              items={[
                ["Passkey sign-in", <Scalar value={p.enabled} name="enabled" />],
                ["Relying party", p.rpId ?? "the listener's hostname"],
                ["User verification", p.userVerification],
                ["A passkey replaces the TOTP code", <Scalar value={p.replacesTotp} name="replacesTotp" />],
              ]}
            />
            <p class="muted">
              Passkeys registered before a change stay registered; while passkey sign-in is off they are not offered.
              Each account registers its own on <a href="/account">My account</a>.
            </p>
            {can(contract.providers.putPasskeyPolicy) && (
              <ActionForm
                operation={contract.providers.putPasskeyPolicy}
                current={p}
                title="Change the policy"
                submitLabel="Save the policy"
                onDone={policy.reload}
                renderResult={(stored) => `Saved: passkey sign-in is ${(stored as typeof p).enabled ? "on" : "off"}.`}
              />
            )}
          </Card>
        )}
      </Loaded>
    </>
  );
}
