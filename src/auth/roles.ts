/**
 * Roles and role floors. Canonical roles are `read-only` < `operator` <
 * `super-user`; the spec's older `admin` means `super-user` and is accepted
 * as input for it.
 */
import { z } from "zod";
import { ROLES, type Role } from "./role-order.ts";

export { ROLES, type Role };
/** A route's minimum: a role, or `anonymous` for the three routes that take no credential. */
export type Floor = Role | "anonymous";

/** A role on the wire; `admin` is read as `super-user`. */
export const RoleSchema = z
  .enum([...ROLES, "admin"])
  .transform((role): Role => (role === "admin" ? "super-user" : role))
  .meta({ description: "`read-only`, `operator` or `super-user` (`admin` is accepted as a synonym of `super-user`)" });

/** True when `role` meets `floor`. */
export function meetsFloor(role: Role, floor: Floor): boolean {
  return floor === "anonymous" || ROLES.indexOf(role) >= ROLES.indexOf(floor);
}

/**
 * The spec's common rule: any GET/HEAD/OPTIONS is `read-only`; most
 * mutations `operator`; mutations under `/auth`, `/config`, `/vrfs`,
 * `/routing/config` and `/cgn` are `super-user`.
 */
export function defaultFloor(method: string, path: string): Floor {
  if (method === "GET" || method === "HEAD" || method === "OPTIONS") return "read-only";
  const rest = path.replace(/^\/api\/v1/, "");
  return /^\/(auth|config|vrfs|cgn|routing\/config)(\/|$)/.test(rest) ? "super-user" : "operator";
}

/** True for methods that change state, which need a CSRF token when authenticated by cookie. */
export const isMutation = (method: string): boolean => !["GET", "HEAD", "OPTIONS"].includes(method);
