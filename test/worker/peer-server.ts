/**
 * A hostile stand-in on loopback, started in Node before the workerd tests
 * (vitest's globalSetup): an external fleet peer that answers HTML, a trap
 * that counts what reaches it (nothing should), a lab OIDC provider's
 * discovery document, and whatever else a test needs from a server the
 * appliance reaches out to.
 * Its port reaches the tests through `inject("peerServerPort")`.
 */
import { lookup } from "node:dns/promises";
import { createServer } from "node:http";
import { hostname } from "node:os";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    peerServerPort: number;
    /**
     * A name (not localhost) the system resolves to loopback addresses only: this machine's host name, when it does;
     * else null.
     */
    loopbackName: string | null;
  }
}

/** This machine's host name, when the system resolves it (Debian's /etc/hosts, or nss-myhostname) to loopback alone. */
async function loopbackName(): Promise<string | null> {
  const name = hostname();
  if (name === "localhost" || name.endsWith(".localhost")) return null;
  const addresses = await lookup(name, { all: true }).catch(() => []);
  return addresses.length > 0 && addresses.every((a) => a.address.startsWith("127.") || a.address === "::1")
    ? name
    : null;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Requests under /trap/<name>/ counted by name: `GET /hits/<name>` answers how many arrived (a test's own name keeps
  // files apart).
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://peer");
    const [, first, name] = url.pathname.split("/");
    if (first === "trap" && name) {
      hits.set(name, (hits.get(name) ?? 0) + 1);
      res.writeHead(200, { "content-type": "text/plain", "replay-nonce": "trap-nonce" }).end("db_password=hunter2");
    } else if (first === "hits" && name) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ hits: hits.get(name) ?? 0 }));
    } else if (first === "oidc" && name && url.pathname.endsWith("/.well-known/openid-configuration")) {
      // A lab identity provider's discovery document (issuer http://127.0.0.1:<port>/oidc/<name>), each read counted
      // under `oidc-<name>`.
      hits.set(`oidc-${name}`, (hits.get(`oidc-${name}`) ?? 0) + 1);
      const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}/oidc/${name}`;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
        }),
      );
    } else if (first === "problem") {
      // An ACME refusal (RFC 8555 §6.7) whose detail carries what an internal service might answer: the URL never holds
      // it.
      req.resume();
      const type =
        url.searchParams.get("type") === "urn" ? "urn:ietf:params:acme:error:malformed" : "db_password=hunter2";
      res
        .writeHead(400, { "content-type": "application/problem+json", "replay-nonce": "n1" })
        .end(JSON.stringify({ type, detail: "upstream said: db_password=hunter2" }));
    } else if (first === "echo") {
      // Answers what the query says (status, content type, body, Location, Replay-Nonce): a fake ACME CA's every
      // answer.
      const q = url.searchParams;
      const headers: Record<string, string> = { "content-type": q.get("type") ?? "application/json" };
      if (q.get("location")) headers.location = q.get("location")!;
      if (q.get("nonce")) headers["replay-nonce"] = q.get("nonce")!;
      req.resume();
      res.writeHead(Number(q.get("status") ?? 200), headers).end(q.get("body") ?? "");
    } else if (url.pathname === "/api/v1/system/status") {
      res
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end("<script>fetch('/api/v1/auth/tokens')</script>");
    } else if (url.pathname === "/api/v1/system/health") {
      // A peer that accepts the request and never answers (closed with the server).
      req.resume();
    } else if (url.pathname === "/api/v1/system/inventory") {
      res
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ relayed: true, authorization: req.headers.authorization ?? null }));
    } else {
      res
        .writeHead(404, { "content-type": "application/problem+json" })
        .end(JSON.stringify({ status: 404, title: "Not Found", detail: url.pathname }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  project.provide("peerServerPort", (server.address() as AddressInfo).port);
  project.provide("loopbackName", await loopbackName());
  return () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
}
