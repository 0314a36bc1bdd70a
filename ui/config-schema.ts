/**
 * GET /config/schema, read once a session may read it: what each configuration
 * value is (its type, choices, range), so a form of a config-backed resource
 * (a GRE circuit, a VRF, a BGP neighbor) checks what was typed before it is
 * sent, with the configuration page's own checks (ui/pages/config-model.ts).
 */
import { signal } from "@preact/signals";
import { contract } from "bngfleet:contract";
import { call } from "./api.ts";
import { can } from "./session.ts";
import type { SchemaKey } from "./pages/config-model.ts";

const keys = signal<SchemaKey[] | null>(null);
let asked = false;

/** The schema's keys, once read (null until then, or for a role that may not read it). */
export function useConfigSchema(): SchemaKey[] | null {
  if (!asked && can(contract.config.schema)) {
    asked = true;
    call(contract.config.schema).then(
      (doc) => (keys.value = doc.keys),
      () => (asked = false),
    );
  }
  return keys.value;
}
