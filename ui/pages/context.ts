/** Which appliance a page shows: this one, or a peer read through the fleet proxy (read-only). */
export interface PageContext {
  /** null = this appliance. */
  peer: string | null;
  /** Prefix for reads: "" or `/fleet/<peer>`. */
  base: string;
  /** The rest of the page's path (e.g. a session id). */
  rest: string[];
}
