/**
 * One try at delivering a notification (a webhook POST, an SMTP submission, an MQTT PUBLISH). A permanent
 * refusal (a 4xx webhook answer, a 5xx SMTP reply, a broker refusing the credential, a destination the policy
 * refuses) is not tried again; anything else is retried by the sink's queue (durable-objects/alert-sinks.ts).
 */

/**
 * One try's outcome: `status`, a webhook's HTTP status; `cause` is for the appliance's console only, never
 * the log ring; `refused`: the destination policy refused it, nothing was sent.
 */
export type Attempt = { ok: true; status?: number } | { ok: false; permanent: boolean; refused?: true; cause: string };
