/** What a port reads of its caller beyond the authorization the object has already made. */
import type { Caller } from "../../src/schemas/operation.ts";
import { actorName } from "../../src/schemas/principal.ts";
import type { JsonText } from "../../simulator/row-texts.ts";

/** The actor a caller's change is logged under (ports that change something are never anonymous). */
export const actor = (caller: Caller): string => actorName(caller.principal!);

/** The caller's own browser session, by its hash; null for a token. */
export const ownSession = (caller: Caller): string | null =>
  caller.principal?.via === "session" && caller.credential ? caller.credential.sha256 : null;

/**
 * A large answer as the JSON text the Worker sends (the handler wraps it in `Encoded`): one string across RPC instead
 * of a clone of every object in it.
 */
export const encoded = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;
