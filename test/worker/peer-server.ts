/**
 * A hostile stand-in on loopback, started in Node before the workerd tests
 * (vitest's globalSetup): an external fleet peer that answers HTML, and
 * whatever else a test needs from a server the appliance reaches out to.
 * Its port reaches the tests through `inject("peerServerPort")`.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    peerServerPort: number;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://peer");
    if (url.pathname === "/api/v1/system/status") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<script>fetch('/api/v1/auth/tokens')</script>");
    } else if (url.pathname === "/api/v1/system/inventory") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ relayed: true, authorization: req.headers.authorization ?? null }));
    } else {
      res.writeHead(404, { "content-type": "application/problem+json" }).end(JSON.stringify({ status: 404, title: "Not Found", detail: url.pathname }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("peerServerPort", (server.address() as AddressInfo).port);
  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
