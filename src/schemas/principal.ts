/** Who is calling: resolved from a bearer token or a session cookie by the appliance's identity store. */
import type { Role } from "../auth/roles.ts";

export interface Principal {
  via: "token" | "session";
  role: Role;
  /** The account (sessions), or the account that created the token. */
  username: string | null;
  /** Set for tokens. */
  tokenId: string | null;
  tokenName: string | null;
  /** Set for sessions: the value `X-CSRF-Token` must carry. */
  csrfToken: string | null;
  /**
   * Set for a session signed in with the published development default password: it may only change it
   * (src/auth/bootstrap.ts).
   */
  passwordChangeRequired?: boolean;
}

/** How an acting principal is named in audit log entries. */
export const actorName = (p: Principal): string => (p.via === "token" ? `token:${p.tokenName}` : `user:${p.username}`);
