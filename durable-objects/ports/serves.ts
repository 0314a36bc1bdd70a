/**
 * A port that serves its operation whole: the Worker writes no handler for it
 * (src/routes/index.ts) and hands it the request as the contract validated
 * it; what it answers is the reply, or the refusal the Worker maps to its
 * problem. Typed from the operation, so its input and answer are the
 * contract's.
 */
import type { z } from "zod";
import type { Operation } from "../../src/schemas/contract.ts";
import type { Caller } from "../../src/schemas/operation.ts";
import type { Outcome, Refusal } from "../../src/schemas/outcome.ts";

/** An operation's request as the Worker validated it: path parameters, query and body, each its schema's output. */
export type RequestOf<O> =
  O extends Operation<infer P, infer Q, infer B, z.ZodType>
    ? { params: z.output<P>; query: z.output<Q>; body: z.output<B> }
    : never;

/** The port of an operation served whole: the caller and the request in, the operation's answer or a refusal out. */
export type DirectPort<O> =
  O extends Operation<z.ZodType, z.ZodType, z.ZodType, infer R>
    ? (caller: Caller, request: RequestOf<O>) => z.output<R> | Refusal | Promise<z.output<R> | Refusal>
    : never;

/** Declares the port that serves `operation` whole (its types are the operation's). */
export const serves = <O extends Operation>(_operation: O, port: DirectPort<O>): DirectPort<O> => port;

/** The member of a store's outcome that answers the operation, or its refusal as it is. */
export const answerIn = <T extends object, K extends keyof T>(outcome: Outcome<T>, key: K): T[K] | Refusal =>
  outcome.ok ? (outcome as { ok: true } & T)[key] : outcome;
