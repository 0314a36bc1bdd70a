// `env` from cloudflare:test carries the Worker's own bindings.
import type { Env as WorkerEnv } from "../../src/env.ts";

declare global {
  namespace Cloudflare {
    interface Env extends WorkerEnv {}
  }
}
