/**
 * The known values of a reference field, read from the API, for a form's
 * selects: VRFs (with `default`, the global table, where a field takes it)
 * and data-plane ports by label. Undefined until read, or when the role may
 * not read them: the field is then typed.
 */
import { contract } from "bngfleet:contract";
import { useCall } from "../resource.ts";
import { can } from "../session.ts";
import type { Choice } from "../components/action-form.tsx";

/** Every VRF name the API knows (configured and session-only, `default` among them when sessions use it). */
export function useVrfChoices(withDefault = true): string[] | undefined {
  const vrfs = useCall(can(contract.vrfs.list) ? contract.vrfs.list : null);
  if (!vrfs.data) return undefined;
  const names = vrfs.data.filter((v) => v.configured).map((v) => v.name);
  return withDefault ? ["default", ...names.filter((n) => n !== "default")] : names;
}

/**
 * The data-plane ports, each sent by its id and shown by its name and description (`xe-0/0/1 OLT-south`), as every page
 * names ports.
 */
export function usePortChoices(): Choice[] | undefined {
  const ports = useCall(can(contract.system.interfaces) ? contract.system.interfaces : null);
  return ports.data?.interfaces
    .filter((i) => i.portId !== null)
    .map((i) => ({ value: String(i.portId), label: i.label ?? i.name }));
}

/** A form's `choices` from the lists read so far (a list not read yet leaves its field typed). */
export function choicesOf(lists: Record<string, Choice[] | undefined>): Record<string, Choice[]> {
  return Object.fromEntries(Object.entries(lists).filter((e): e is [string, Choice[]] => e[1] !== undefined));
}
