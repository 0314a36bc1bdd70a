// Every test starts from a factory-fresh fleet: storage and objects are reset between tests.
import { reset } from "cloudflare:test";
import { afterEach } from "vitest";

afterEach(async () => {
  await reset();
});
