/**
 * The fan-out read's limit (GET /twin/v1/fleet/read, src/schemas/fleet.ts), in a
 * module of its own so the web UI's bundle can read it without zod.
 *
 * Appliances one fan-out read names at most. Deployed, each is one subrequest of
 * the invocation, beside the one to the addressed appliance: 41 stays inside the
 * Free plan's 50 (Workers limits), and a fleet of 1,000 is 25 requests.
 */
export const FAN_OUT_MAX = 40;
