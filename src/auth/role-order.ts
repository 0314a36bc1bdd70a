/**
 * The canonical roles, least to most privileged: a module without dependencies, so the web UI can read the same list.
 */
export const ROLES = ["read-only", "operator", "super-user"] as const;
export type Role = (typeof ROLES)[number];
