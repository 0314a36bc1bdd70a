/**
 * One appliance: its gateway state in SQLite and, later, its data-plane
 * simulation. The object is thin: it opens its stores and hands them out as
 * RPC targets, so a Worker call such as `stub.identity().login(…)` is one
 * pipelined round trip and the stores' private helpers stay off the wire.
 */
import { Server } from "partyserver";
import type { Env } from "../src/env.ts";
import { inboundPeerCredentials } from "../src/fleet/definition.ts";
import type { Role } from "../src/auth/roles.ts";
import { DEFAULT_ADMIN_PASSWORD, IdentityStore, type IdentityEvent } from "./identity.ts";
import { ProviderStore } from "./providers.ts";

/** The software version the appliance reports. */
export const SOFTWARE_VERSION = "bngfleet 0.1.0";

export class Appliance extends Server<Env> {
  #identity!: IdentityStore;
  #providers!: ProviderStore;
  readonly #startedMs = Date.now();
  /** Events waiting for the log ring of the data-plane simulation (kept bounded). */
  readonly #events: IdentityEvent[] = [];

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    // Every entry point (fetch, alarm and RPC alike) waits for the stores.
    void ctx.blockConcurrencyWhile(() => this.#open());
  }

  async #open(): Promise<void> {
    const sql = this.ctx.storage.sql;
    this.#identity = new IdentityStore(sql, this.name, (event) => {
      this.#events.push(event);
      if (this.#events.length > 1000) this.#events.shift();
    });
    this.#providers = new ProviderStore(sql);
    await this.#identity.open(this.env.BNG_ADMIN_PASSWORD || DEFAULT_ADMIN_PASSWORD);
    const provisioned: { name: string; role: Role; plaintext: string }[] = (await inboundPeerCredentials(this.env, this.name)).map((peer) => ({
      name: peer.tokenName,
      role: "read-only",
      plaintext: peer.credential,
    }));
    if (this.env.BNG_BOOTSTRAP_TOKEN?.startsWith("bngtok_")) provisioned.push({ name: "bootstrap", role: "super-user", plaintext: this.env.BNG_BOOTSTRAP_TOKEN });
    await this.#identity.provisionTokens(provisioned);
  }

  /** Accounts, tokens, sessions and the login state machine. */
  identity(): IdentityStore {
    return this.#identity;
  }

  /** OIDC providers and the passkey policy. */
  providers(): ProviderStore {
    return this.#providers;
  }

  /** Liveness of the object and its storage. */
  health(): { appliance: string; uptimeSeconds: number; storage: "ok" } {
    this.ctx.storage.sql.exec("SELECT 1").toArray();
    return { appliance: this.name, uptimeSeconds: Math.floor((Date.now() - this.#startedMs) / 1000), storage: "ok" };
  }
}
