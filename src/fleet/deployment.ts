/**
 * Which deployment an appliance runs in: the local fleet (`npm start`) or
 * deployed. "Deployed" is the absence of the `BNG_LOCAL_FLEET` binding, which
 * only the launcher sets: anything else (`wrangler deploy`, `wrangler dev`,
 * the test runner) fails towards the deployed rules (no default password, the
 * Cloudflare client-address header), never towards a header the client
 * controls. A leaf module, so the object and the bootstrap rules read it
 * without importing the HTTP layer.
 */

/** Which rule applies: `local` only when the launcher said so (BNG_LOCAL_FLEET=1). */
export type Deployment = "local" | "deployed";

/** The deployment a Worker runs in, from its bindings. */
export const deploymentOf = (env: { BNG_LOCAL_FLEET?: string | undefined }): Deployment =>
  env.BNG_LOCAL_FLEET === "1" ? "local" : "deployed";
