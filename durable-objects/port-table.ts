/**
 * The shape every port table has: keyed as the contract's operations are, so a port no operation names cannot be
 * written.
 */
import type { contract } from "../src/schemas/index.ts";
import type { Caller } from "../src/schemas/operation.ts";

export type PortTable = {
  [S in keyof typeof contract]?: { [O in keyof (typeof contract)[S]]?: (caller: Caller, ...args: never[]) => unknown };
};

/** One section's ports, as a file of its own declares them (`satisfies PortsOf<"passkeys">`). */
export type PortsOf<S extends keyof PortTable> = NonNullable<PortTable[S]>;
