/**
 * Sections still shown by the generic page (generic.tsx): what each reads
 * and which changes it offers, named by the contract's operations. Every
 * other section has a designed page of its own (ui/pages/<section>.tsx).
 */
import { contract } from "bngfleet:contract";
import type { SectionSpec } from "./generic.tsx";

export const SECTIONS: Record<string, SectionSpec> = {
  "passkey-policy": {
    title: "Passkey policy",
    reads: [{ title: "Policy", operation: contract.providers.getPasskeyPolicy }],
    actions: [{ operation: contract.providers.putPasskeyPolicy, title: "Change the policy", prefill: contract.providers.getPasskeyPolicy }],
  },
};
