/**
 * Real AAA wired into the appliance: the RADIUS client (client.ts) between the data-plane model and the
 * operator's servers. It follows the configuration (radius.servers with transport tcp or tls, radius.*), sends
 * the model's Access-Requests and its accounting records (Gateway `onAccounting`: Start, Interim-Update, Stop),
 * and hands the model what came back before each step (DataPlane `connectRealAaa`). With simulated servers it is idle
 * and nothing of it runs.
 */
import type { ConfigDocument } from "../../src/config/types.ts";
import { radiusClientOf } from "../../src/config/radius.ts";
import type { NasIdentity } from "../../src/radius/messages.ts";
import type { DataPlane } from "../data-plane.ts";
import { RadiusClient, type FailoverPolicy } from "./client.ts";

export class RealAaa {
  readonly #plane: DataPlane;
  readonly #client: RadiusClient;

  constructor(plane: DataPlane, nas: () => NasIdentity, now: () => number) {
    this.#plane = plane;
    this.#client = new RadiusClient(nas, now);
  }

  /** Hot-applies the RADIUS configuration (at open and on every commit touching it), secrets included. */
  apply(document: ConfigDocument, servers: Parameters<DataPlane["setRadiusServers"]>[0], policy: FailoverPolicy): void {
    const wasActive = this.#client.active;
    const settings = radiusClientOf(document.lists["radius.servers"] ?? [], (path) => document.fields[path] ?? null);
    const allowlist = document.fields["alarms.webhookAllowlist"];
    const weights = new Map(servers.map((s) => [`${s.host}:${s.port}`, s.weight]));
    this.#client.configure(settings, weights, Array.isArray(allowlist) ? allowlist : [], policy);
    this.#plane.setRadiusServers(servers, settings ? this.#client.capacity : undefined);
    if (!settings) {
      if (wasActive) this.#plane.connectRealAaa({ request: null, account: null, deliver: null });
      return;
    }
    if (wasActive) return;
    this.#plane.connectRealAaa({
      request: (request) => this.#client.authenticate(request),
      account: (record) => this.#client.account(record),
      deliver: () => this.#plane.deliverAaa(this.#client.takeOutcomes(), this.#client.health(), this.#client.pacing()),
    });
    // A client starting with an empty data plane says so (RFC 2866 §5.1: the server closes what it held open for
    // this NAS); one restarting over restored sessions asks again for those it had asked and not heard back of.
    if (!this.#plane.restored) this.#client.accountingOnOff("Accounting-On", crypto.randomUUID());
    for (const request of this.#plane.outstandingAccess()) this.#client.authenticate(request);
  }
}
