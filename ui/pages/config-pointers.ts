/**
 * A configuration refusal (422) placed in the form that caused it. The API
 * names a rejected value by where it lives in the configuration
 * (`#/lists/<list>/<key>/<child>`, its tokens escaped as RFC 6901 says); the
 * form names it by where it was typed (`#/routes/2/nextHop`). What cannot be
 * placed is left as the API named it, and the form lists it under its fields.
 */

type Problem = { pointer: string; detail: string };

const unescape = (token: string) => token.replace(/~1/g, "/").replace(/~0/g, "~");

/** The key and child a pointer under `#/lists/<list>/` names, unescaped; undefined for another list. */
function listItem(pointer: string, list: string): { key: string; child: string | undefined } | undefined {
  const head = `#/lists/${list}/`;
  if (!pointer.startsWith(head)) return undefined;
  const [key, child] = pointer.slice(head.length).split("/");
  return { key: unescape(key ?? ""), child: child === undefined ? undefined : unescape(child) };
}

/**
 * A configuration refusal at the form's own member: a config-backed
 * resource's write is refused by the configuration's validation, which names
 * the value where it lives (`#/lists/gre.circuits/cust-a/remote`,
 * `#/fields/cgn.maxBindings`); the form's member is the child's name
 * (`#/remote`, a dotted child `timeouts.udp` as `#/timeouts/udp`).
 */
export function configPointerToField(pointer: string, fieldNames: readonly string[]): string | undefined {
  const list = /^#\/lists\/[^/]+\/[^/]+\/(.+)$/.exec(pointer);
  const child = list
    ? list[1]!.replace(/~1/g, "/").replace(/~0/g, "~")
    : /^#\/fields\/(.+)$/.exec(pointer)?.[1]?.split(".").pop();
  if (!child) return undefined;
  const path = child.split(".");
  return fieldNames.includes(path[0]!) ? `#/${path.join("/")}` : undefined;
}

type StaticRouteSent = { vrf?: string; prefix?: string };

/**
 * A static route's refusal (`routing.staticRoutes` item `<vrf>:<prefix>`) on
 * the row that sent that route, at its member; a refusal of the item itself is
 * one of its key, so it stands at the VRF when it names one, else the prefix.
 */
export function placeStaticRouteError({ pointer, detail }: Problem, sent: Record<string, unknown>): string | undefined {
  const at = listItem(pointer, "routing.staticRoutes");
  if (!at) return undefined;
  const routes = (sent.routes ?? []) as StaticRouteSent[];
  // The body's VRF defaults to the global table, as the item key does.
  const row = routes.findIndex((r) => `${r.vrf ?? "default"}:${r.prefix}` === at.key);
  if (row < 0) return "#/routes";
  const member = at.child ?? (/no vrfs item/.test(detail) ? "vrf" : "prefix");
  return `#/routes/${row}/${member}`;
}

type AutoLearnSent = { insideVrf?: string; prefixes?: string[] };

/**
 * A CGN group's refusal (`cgn.groups` item `<name>`) at the member typed: a
 * timeout (`timeouts.udp`) in its fieldset, an auto-learn problem on the row
 * whose element (`'<insideVrf>:<prefix>'`) or VRF (`no vrfs item '<name>'`)
 * its detail quotes.
 */
export function placeCgnGroupError({ pointer, detail }: Problem, sent: Record<string, unknown>): string | undefined {
  const at = listItem(pointer, "cgn.groups");
  if (!at) return undefined;
  if (at.child === undefined) return undefined;
  if (at.child !== "autoLearn") return `#/${at.child.replace(/\./g, "/")}`;
  const rows = (sent.autoLearn ?? []) as AutoLearnSent[];
  const element = /'([^':]+):([^']+)'/.exec(detail);
  if (element) {
    const row = rows.findIndex((r) => r.insideVrf === element[1] && (r.prefixes ?? []).includes(element[2]!));
    if (row >= 0) return `#/autoLearn/${row}/prefixes`;
  }
  const vrf = /no vrfs item '([^']+)'/.exec(detail);
  if (vrf) {
    const row = rows.findIndex((r) => r.insideVrf === vrf[1]);
    if (row >= 0) return `#/autoLearn/${row}/insideVrf`;
  }
  return "#/autoLearn";
}

type InterfaceSent = { name?: string };

/**
 * A routing settings refusal at the member typed: `bgp.localAs`,
 * `routing.routerId` and `igp.protocol` at their fields, an `igp.interfaces`
 * item on the row that named that interface.
 */
export function placeRoutingSettingsError({ pointer }: Problem, sent: Record<string, unknown>): string | undefined {
  const fields: Record<string, string> = {
    "#/fields/bgp.localAs": "#/localAs",
    "#/fields/routing.routerId": "#/routerId",
    "#/fields/igp.protocol": "#/igp/protocol",
  };
  if (fields[pointer]) return fields[pointer];
  const at = listItem(pointer, "igp.interfaces");
  if (!at) return undefined;
  const rows = ((sent.igp as { interfaces?: InterfaceSent[] } | undefined)?.interfaces ?? []) as InterfaceSent[];
  const row = rows.findIndex((r) => r.name === at.key);
  if (row < 0) return "#/igp/interfaces";
  return `#/igp/interfaces/${row}/${at.child ?? "name"}`;
}
