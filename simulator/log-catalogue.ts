/**
 * The types the log catalogue gives the model: a model msgId and the exact
 * `fields` it takes. The catalogue itself (each `msgId`, its default syslog
 * severity and the keys of its `fields`) is data in vocabulary.ts, because
 * the API's log tail documents it.
 */
import { LOG_CATALOGUE, SEVERITIES, type Severity } from "./vocabulary.ts";

/** A JSON primitive: what a log field may hold. */
export type FieldValue = string | number | boolean | null;

/** A msgId the model itself emits. */
export type ModelMsgId = keyof typeof LOG_CATALOGUE;

/** The fields object of a model msgId: exactly its catalogued keys. */
export type FieldsOf<M extends ModelMsgId> = { [K in (typeof LOG_CATALOGUE)[M]["fields"][number]]: FieldValue };

/** Whether a string is a syslog severity name. */
export function isSeverity(value: string): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value);
}
