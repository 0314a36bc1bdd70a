/**
 * A log event of the identity stores (accounts, sessions, passkeys): its own
 * leaf module, so the identity store and the passkey store, which both emit
 * it and one of which calls the other, do not import each other for a type.
 */
export type IdentityEvent = {
  severity: "notice" | "warning" | "info";
  msgId: string;
  fields: Record<string, string | number | boolean | null>;
};
