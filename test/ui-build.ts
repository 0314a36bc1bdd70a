/**
 * Global setup of the projects that run the Worker in workerd: the Worker bundles the web UI's build output
 * (src/http/web-ui.ts), so it is built, and awaited, before workerd loads the Worker. The Node projects do not pay
 * for it (it ran each time vitest.config.ts was loaded, and was not awaited).
 */
import { buildUi } from "../scripts/build-ui.ts";

export default async function setup(): Promise<void> {
  await buildUi({ quiet: true });
}
