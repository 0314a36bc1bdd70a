/**
 * The contract as the UI sees it: every operation of src/schemas/index.ts as
 * a reference (method, path, floor, FP flag), typed by the operation's
 * schemas. scripts/build-ui.ts supplies the values at build time, so the
 * bundle holds neither zod nor the schemas.
 */
declare module "bngfleet:contract" {
  export const contract: import("./api.ts").OperationRefs<typeof import("../src/schemas/index.ts").contract>;
}
