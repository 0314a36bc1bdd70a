/**
 * The Worker's side of the appliance's ports: a client typed from
 * `AppliancePorts` (durable-objects/ports/) that a handler running in the
 * Worker calls as `ctx.port.sessions.summary()` (and `byPort` for an
 * operation without one). It allows one call per
 * request, the request's one call into the appliance's object, which
 * authorizes the caller before the method runs; a refusal comes back as the
 * StatusError its reason maps to.
 */
import type { ApplianceRpc } from "../env.ts";
import type { AppliancePorts } from "../../durable-objects/ports/index.ts";
import type { Caller, PortAnswer, PortCall } from "../schemas/operation.ts";
import { refusalError } from "./refusal.ts";
import { contract } from "../schemas/index.ts";
import type { Operation } from "../schemas/contract.ts";

/** A port method as the Worker calls it: without the caller (the object supplies it), answered over RPC. */
type Remote<F> = F extends (caller: Caller, ...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/** The appliance's ports as a handler in the Worker reaches them. */
export type Ports = {
  readonly [S in keyof AppliancePorts]: { readonly [M in keyof AppliancePorts[S]]: Remote<AppliancePorts[S][M]> };
};

/** One request's port client, and whether it has made its call. */
export interface PortClient {
  ports: Ports;
  /** True once the handler made its call (which authorized the caller). */
  readonly called: boolean;
  /**
   * Authorizes the caller for the request's own operation without running anything: for a request whose handler made no
   * call.
   */
  authorize(): Promise<void>;
}

/**
 * Each operation of the contract by its object: where a route's own operation sits (`contract[section][operation]`).
 */
const KEYS: ReadonlyMap<Operation, { section: string; operation: string }> = new Map(
  Object.entries(contract).flatMap(([section, operations]) =>
    Object.entries(operations as Record<string, Operation>).map(
      ([operation, op]) => [op, { section, operation }] as const,
    ),
  ),
);

const answerOf = (answer: PortAnswer): unknown => {
  if (!answer.ok) throw refusalError(answer);
  return answer.value;
};

/** One request's call into its object, made once: the request's side of PortCall, and whether it was made. */
class Call {
  called = false;
  readonly #stub: DurableObjectStub<ApplianceRpc>;
  readonly #own: Operation;
  readonly #request: Omit<PortCall, "section" | "operation" | "args">;

  constructor(
    stub: DurableObjectStub<ApplianceRpc>,
    own: Operation,
    request: Omit<PortCall, "section" | "operation" | "args">,
  ) {
    this.#stub = stub;
    this.#own = own;
    this.#request = request;
  }

  send(section: string, operation: string, args: unknown[] | null): Promise<unknown> {
    if (this.called)
      throw new Error(
        `${this.#own.method} ${this.#own.path} made a second call into its appliance: a request makes one`,
      );
    this.called = true;
    return (this.#stub.call({ ...this.#request, section, operation, args }) as Promise<PortAnswer>).then(answerOf);
  }
}

/**
 * The ports' shape, made once from the contract: a class per section whose getters hand out its operations, sent
 * through the request's Call, and one whose getters hand out the sections. A request then costs two small objects,
 * a section and a function for the port it reaches, where two Proxies cost their handlers and closures besides. Ports
 * are
 * named as the contract names its operations (`contract.sessions.list`, `ctx.port.sessions.list`): the object
 * refuses any other name.
 */
class Reached {
  readonly call: Call;
  constructor(call: Call) {
    this.call = call;
  }
}
class PortsOf extends Reached {}
for (const [section, operations] of Object.entries(contract)) {
  class Section extends Reached {}
  // A getter, so a port handed on as a value (`(ctx) => ctx.port.vrfs.create`) still sends through its request.
  for (const operation of Object.keys(operations)) {
    Object.defineProperty(Section.prototype, operation, {
      get(this: Reached) {
        const call = this.call;
        return (...args: unknown[]) => call.send(section, operation, args);
      },
    });
  }
  Object.defineProperty(PortsOf.prototype, section, {
    get(this: Reached) {
      return new Section(this.call);
    },
  });
}

/** The port client of one request, for `own` (the route's operation), to the appliance behind `stub`. */
export function portClient(
  stub: DurableObjectStub<ApplianceRpc>,
  own: Operation,
  request: Omit<PortCall, "section" | "operation" | "args">,
): PortClient {
  const call = new Call(stub, own, request);
  return {
    ports: new PortsOf(call) as unknown as Ports,
    get called() {
      return call.called;
    },
    authorize: async () => {
      const key = KEYS.get(own);
      if (!key) throw new Error(`${own.method} ${own.path} is not an operation of the contract`);
      await call.send(key.section, key.operation, null);
    },
  };
}
