/**
 * One appliance: its gateway state in SQLite and its data-plane simulation.
 * The object is thin: `ApplianceCore` (durable-objects/core.ts) opens the
 * stores and wires them; the Durable Object answers one RPC per request
 * (`call`), which authorizes the caller and runs the operation's port against
 * the core (durable-objects/ports/), so no store is reachable over RPC.
 */
import { DurableObject } from "cloudflare:workers";
import type { ApplianceRpc, Env } from "../src/env.ts";
import type { PortAnswer, PortCall } from "../src/schemas/operation.ts";
import { LIVE_PATH } from "../src/schemas/live.ts";
import { refuse } from "../src/schemas/outcome.ts";
import { ApplianceCore } from "./core.ts";
import { LiveConnections } from "./live.ts";
import { answerPortCall, portsOf, type AppliancePorts } from "./ports/index.ts";
import type { ScenarioPackages } from "./scenario-runner.ts";

/**
 * The Durable Object. Its RPC surface is exactly the methods it declares: one call per request, `call` (a Worker
 * handler's port: authorize, then run it), and the local launcher's three calls. It extends DurableObject, not
 * partyserver's Server, so none of Server's methods (`sql()` among them) is callable over RPC; partyserver handles the
 * live channel's connections from inside (`LiveConnections`). Everything else (stores, wiring, the clock) is in the
 * private `#core`.
 */
export class Appliance extends DurableObject<Env> implements ApplianceRpc {
  readonly #core: ApplianceCore;
  readonly #ports: AppliancePorts;
  readonly #connections: LiveConnections;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#connections = new LiveConnections(ctx, env, () => this.#core.live());
    // Named by the fleet file and addressed by name (idFromName), so the id carries it at every entry point.
    const name = ctx.id.name;
    if (name === undefined) throw new Error("an appliance's object is addressed by its name (idFromName)");
    this.#core = new ApplianceCore(
      ctx,
      env,
      () => name,
      () => this.#connections.getConnections(),
    );
    this.#ports = portsOf(this.#core);
    // Every entry point (fetch, alarm, WebSocket events and RPC alike) waits for the stores.
    void ctx.blockConcurrencyWhile(() => this.#core.open());
  }

  /**
   * The web UI's live channel, as the Worker hands it on (src/http/live.ts):
   * admitted here, then partyserver accepts the WebSocket and the feed sends it
   * the status. A refusal is the domain's, as JSON; the Worker writes its problem.
   */
  override async fetch(request: Request): Promise<Response> {
    const admitted =
      new URL(request.url).pathname === LIVE_PATH
        ? this.#core.live().admit(request)
        : refuse("not-found", "the object answers its live channel only");
    if (!admitted.ok) return Response.json(admitted, { status: 400 });
    try {
      return await this.#connections.fetch(request);
    } finally {
      // Connected (counted by its state from now on) or failed: either way no longer an admission under way.
      this.#core.live().settled(admitted.sessionSha256);
    }
  }

  // A hibernated live connection's events, woken in this object: partyserver's connection handling takes them.
  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): Promise<void> {
    return this.#connections.webSocketMessage(ws, message);
  }
  override webSocketClose(ws: WebSocket, code: number, reason: string, wasClean: boolean): Promise<void> {
    return this.#connections.webSocketClose(ws, code, reason, wasClean);
  }
  override webSocketError(ws: WebSocket, error: unknown): Promise<void> {
    return this.#connections.webSocketError(ws, error);
  }

  /** Every 10 s: advance the simulation to now, then schedule the next tick. */
  override async alarm(): Promise<void> {
    await this.#core.alarm();
  }

  /**
   * A request's one call into its appliance: authorizes the caller for the operation, then runs the one port it asks
   * for (durable-objects/ports/).
   */
  call(call: PortCall): Promise<PortAnswer> {
    const answer = answerPortCall(this.#core, this.#ports, call);
    if (call.method === "GET" || call.method === "HEAD") return answer;
    // A change (an alarm raised or cleared, a commit, a scenario) is pushed to the web UI's live connections.
    return answer.finally(() => this.#core.changed());
  }

  // The local launcher's three calls (launcher/, through Miniflare): no HTTP request carries them.

  /**
   * The configured web UI certificate and key, for the local launcher's TLS listeners; null while the factory one is in
   * use.
   */
  webUiCertificate(): { certificatePem: string; privateKeyPem: string } | null {
    return this.#core.config().webUiCertificate();
  }

  /**
   * Runs a scenario file given to the local launcher (BNG_SCENARIO); the actor in the logs is always `launcher`.
   * `packages`: its `upgrade` actions' packages, signed with the launcher's development key, staged as uploads are.
   */
  async runLauncherScenario(raw: unknown, packages?: ScenarioPackages) {
    try {
      return await this.#core.runScenario(raw, "launcher", packages);
    } finally {
      this.#core.changed();
    }
  }

  /**
   * Frees a log stream's place the moment the listener sees its client leave (the handle came in the stream's answer).
   */
  releaseLogStream(handle: string): void {
    this.#core.dataPlane().releaseLogStream(handle);
  }

  /** The core of an object, for tests that look inside it (`runInDurableObject`); a static, so not an RPC method. */
  static coreOf(appliance: ApplianceRpc): ApplianceCore {
    if (!(appliance instanceof Appliance)) throw new Error("not an appliance's object");
    return appliance.#core;
  }
}
