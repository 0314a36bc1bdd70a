/** OIDC providers and the passkey policy. */
import { destinationVerdict } from "../../../src/config/destinations.ts";
import type { OidcProviderWrite, PasskeyPolicy } from "../../../src/schemas/auth.ts";
import { providers } from "../../../src/schemas/auth/providers.ts";
import type { Caller } from "../../../src/schemas/operation.ts";
import { refuse } from "../../../src/schemas/outcome.ts";
import type { ApplianceCore } from "../../core.ts";
import type { PortsOf } from "../port-table.ts";
import { answerIn, serves } from "../serves.ts";

export function providerPorts(core: Pick<ApplianceCore, "providers" | "config">) {
  const store = () => core.providers();
  return {
    listOidc: serves(providers.listOidc, () => store().list()),
    getOidc: serves(providers.getOidc, (_, { params }) => answerIn(store().get(params.name), "provider")),
    putOidc: (_: Caller, name: string, provider: OidcProviderWrite) => {
      // The outbound policy at the door too (SSRF): a clear 422 now rather than a 502 at the first sign-in.
      const verdict = destinationVerdict(provider.issuer, "oidc", core.config().outboundAllowlist());
      if (!verdict.ok)
        return refuse("rejected", `issuer: ${verdict.detail}`, {
          errors: [{ in: "body", pointer: "#/issuer", detail: verdict.detail }],
        });
      return store().put(name, provider);
    },
    deleteOidc: (_: Caller, name: string) => store().delete(name),
    getPasskeyPolicy: serves(providers.getPasskeyPolicy, () => store().passkeyPolicy()),
    putPasskeyPolicy: (_: Caller, policy: PasskeyPolicy) => store().setPasskeyPolicy(policy),
  } satisfies PortsOf<"providers">;
}
