/**
 * The shape every port table has: keyed as the contract's operations are, so a port no operation names cannot be
 * written, and holding every section of the contract, so a section added there is a compile error here until its
 * ports are listed (src/schemas/index.ts registers a section; this table and the route table follow it).
 */
import type { contract } from "../../src/schemas/index.ts";
import type { Caller } from "../../src/schemas/operation.ts";

export type PortTable = {
  [S in keyof typeof contract]: { [O in keyof (typeof contract)[S]]?: (caller: Caller, ...args: never[]) => unknown };
};

/** One section's ports, as a file of its own declares them (`satisfies PortsOf<"passkeys">`). */
export type PortsOf<S extends keyof PortTable> = PortTable[S];
