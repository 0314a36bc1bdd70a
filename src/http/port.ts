/**
 * The Worker's side of the appliance's ports: a client typed from
 * `AppliancePorts` (durable-objects/ports.ts) that a handler running in the
 * Worker calls as `ctx.port.sessions.summary()`. It allows one call per
 * request, the request's one call into the appliance's object, which
 * authorizes the caller before the method runs; a refusal comes back as the
 * StatusError its reason maps to.
 */
import type { Appliance } from "../../durable-objects/appliance.ts";
import type { AppliancePorts, PortAnswer } from "../../durable-objects/ports.ts";
import type { Caller, PortCall } from "../schemas/operation.ts";
import { refusalError } from "./refusal.ts";
import { contract } from "../schemas/index.ts";
import type { Operation } from "../schemas/contract.ts";

/** A port method as the Worker calls it: without the caller (the object supplies it), answered over RPC. */
type Remote<F> = F extends (caller: Caller, ...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : never;

/** The appliance's ports as a handler in the Worker reaches them. */
export type Ports = { readonly [S in keyof AppliancePorts]: { readonly [M in keyof AppliancePorts[S]]: Remote<AppliancePorts[S][M]> } };

/** One request's port client, and whether it has made its call. */
export interface PortClient {
  ports: Ports;
  /** True once the handler made its call (which authorized the caller). */
  readonly called: boolean;
  /** Authorizes the caller for the request's own operation without running anything: for a request whose handler made no call. */
  authorize(): Promise<void>;
}

/** Each operation of the contract by its object: where a route's own operation sits (`contract[section][operation]`). */
const KEYS: ReadonlyMap<Operation, { section: string; operation: string }> = new Map(
  Object.entries(contract).flatMap(([section, operations]) => Object.entries(operations as Record<string, Operation>).map(([operation, op]) => [op, { section, operation }] as const)),
);

const answerOf = (answer: PortAnswer): unknown => {
  if (!answer.ok) throw refusalError(answer);
  return answer.value;
};

/** The port client of one request, for `own` (the route's operation), to the appliance behind `stub`. */
export function portClient(stub: DurableObjectStub<Appliance>, own: Operation, request: Omit<PortCall, "section" | "operation" | "args">): PortClient {
  let called = false;
  const send = (section: string, operation: string, args: unknown[] | null): Promise<unknown> => {
    if (called) throw new Error(`${own.method} ${own.path} made a second call into its appliance: a request makes one`);
    called = true;
    return (stub.call({ ...request, section, operation, args }) as Promise<PortAnswer>).then(answerOf);
  };
  const section = (name: string) => new Proxy({}, { get: (_, operation) => (typeof operation === "string" ? (...args: unknown[]) => send(name, operation, args) : undefined) });
  const ports = new Proxy({}, { get: (_, name) => (typeof name === "string" ? section(name) : undefined) }) as Ports;
  return {
    ports,
    get called() {
      return called;
    },
    authorize: async () => {
      const key = KEYS.get(own);
      if (!key) throw new Error(`${own.method} ${own.path} is not an operation of the contract`);
      await send(key.section, key.operation, null);
    },
  };
}
