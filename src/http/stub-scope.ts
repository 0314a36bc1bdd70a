/**
 * Disposes the RPC stubs a request creates. A call on the appliance's stub
 * that returns a store (`stub.dataPlane()`, `stub.identity()`) hands back a
 * stub the runtime keeps alive until it is disposed, and warns ("An RPC stub
 * was not disposed properly") when the garbage collector finds it first.
 * Handlers use the appliance stub as before; the scope records what each of
 * its calls returned and disposes it all once the response is built.
 */

/** What a request's handlers may call: the appliance stub, recorded. */
export class StubScope<S extends object> {
  readonly stub: S;
  readonly #created: unknown[] = [];

  constructor(stub: S) {
    const created = this.#created;
    this.stub = new Proxy(stub, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          // Reflect.apply, not value.apply: every property of an RPC method stub is itself a remote name.
          const result: unknown = Reflect.apply(value as (...a: unknown[]) => unknown, target, args);
          created.push(result);
          return result;
        };
      },
    });
  }

  /** Disposes every result of a call made through `stub` (an RPC promise's disposal reaches the stub it resolves to). */
  dispose(): void {
    for (const result of this.#created.splice(0)) {
      const disposable = result as Partial<Disposable> | null;
      try {
        disposable?.[Symbol.dispose]?.();
      } catch {
        // Already disposed, or nothing the runtime tracks.
      }
    }
  }
}
