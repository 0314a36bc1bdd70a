/**
 * ACME policy, pure: what the configuration asks for, which names go into an
 * order, when a certificate is due for renewal, and how long to wait after a
 * failed attempt. The appliance object (durable-objects/acme.ts) stores and
 * calls these; tests drive them with a manual clock.
 */
import type { ConfigDocument } from "./types.ts";

const DAY_MS = 86_400_000;

/** The `acme.*` keys as the client uses them. */
export interface AcmeSettings {
  enabled: boolean;
  directoryUrl: string | null;
  contact: string[];
  /** What the order asks for, in order (never empty while a listener exists). */
  names: string[];
  renewBeforeDays: number;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** The ACME settings of a configuration document. */
export function acmeSettingsOf(doc: Pick<ConfigDocument, "fields">): AcmeSettings {
  const { fields } = doc;
  const configured = strings(fields["acme.names"]);
  const hostname = typeof fields["webUi.hostname"] === "string" ? fields["webUi.hostname"] : null;
  // Without explicit names: the name browsers use, else each listener's address (an IP identifier, RFC 8738).
  const listenerHosts = strings(fields["webUi.listeners"]).map((url) => new URL(url).hostname.replace(/^\[|\]$/g, ""));
  const names = configured.length > 0 ? configured : hostname !== null ? [hostname] : [...new Set(listenerHosts)];
  return {
    enabled: fields["acme.enabled"] === true,
    directoryUrl: typeof fields["acme.directoryUrl"] === "string" ? fields["acme.directoryUrl"] : null,
    contact: strings(fields["acme.contact"]),
    names,
    renewBeforeDays: typeof fields["acme.renewBeforeDays"] === "number" ? fields["acme.renewBeforeDays"] : 30,
  };
}

/**
 * When a certificate valid from `notBeforeMs` to `notAfterMs` should be
 * renewed: `renewBeforeDays` before it expires, but never earlier than two
 * thirds into its lifetime (the rule Let's Encrypt recommends for short-lived
 * certificates, which would otherwise be renewed the moment they arrive).
 */
export function renewalAtMs(validity: { notBeforeMs: number; notAfterMs: number }, renewBeforeDays: number): number {
  const lifetime = validity.notAfterMs - validity.notBeforeMs;
  return validity.notAfterMs - Math.min(renewBeforeDays * DAY_MS, Math.floor(lifetime / 3));
}

/**
 * After `failures` failed attempts in a row: 1 min, 2, 4, … capped at 1 day (RFC 8555 §6.6 asks clients not to hammer a
 * CA).
 */
export function retryDelayMs(failures: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, failures - 1), DAY_MS);
}
