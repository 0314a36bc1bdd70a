import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { TokenCreated, TokenPage } from "../../src/schemas/auth.ts";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { isWellFormedToken } from "../../src/trust/tokens.ts";
import { sha256Hex } from "../../src/trust/encoding.ts";
import { BOOTSTRAP_TOKEN, bearer, call, json, tokenWithRole } from "./client.ts";

type Created = z.output<typeof TokenCreated>;
type Page = z.output<typeof TokenPage>;
type Problem = z.output<typeof ProblemDetails>;

const create = (body: unknown, token = BOOTSTRAP_TOKEN) =>
  call("/api/v1/auth/tokens", json("POST", body, bearer(token)));

describe("API tokens", () => {
  it("returns a bngtok_ plaintext once, recognisable offline by its checksum", async () => {
    const response = await create({ name: "grafana", role: "read-only" });
    expect(response.status).toBe(200);
    const body = await response.json<Created>();
    expect(body.token).toMatch(/^bngtok_[A-Za-z0-9]{36}$/);
    expect(isWellFormedToken(body.token)).toBe(true);
    expect(isWellFormedToken(body.token.slice(0, -1) + (body.token.endsWith("a") ? "b" : "a"))).toBe(false);
    expect(body.token.startsWith(body.prefix)).toBe(true);
    expect(body).toMatchObject({ name: "grafana", role: "read-only" });
  });

  it("lists tokens without plaintext or hash", async () => {
    const { token } = await (await create({ name: "ansible", role: "operator" })).json<Created>();
    const text = await (await call("/api/v1/auth/tokens", { headers: bearer(BOOTSTRAP_TOKEN) })).text();
    const list = JSON.parse(text) as Page;
    expect(list.items.map((t) => t.name)).toContain("ansible");
    expect(text).not.toContain(token);
    expect(text).not.toContain(await sha256Hex(token));
  });

  it("stores only the SHA-256 of the plaintext", async () => {
    const { token, id } = await (await create({ name: "ci", role: "super-user" })).json<Created>();
    const stub = env.Appliance.getByName("edge-1");
    const rows = await runInDurableObject(stub, (_instance, state) =>
      state.storage.sql.exec("SELECT * FROM tokens WHERE id = ?", id).toArray(),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sha256).toBe(await sha256Hex(token));
    expect(JSON.stringify(rows)).not.toContain(token.slice(7));
  });

  it("authenticates with the role it was given and records its use", async () => {
    const token = await tokenWithRole("operator");
    const whoami = await call("/api/v1/auth/whoami", { headers: bearer(token) });
    expect(await whoami.json()).toMatchObject({ via: "token", role: "operator", csrfToken: null });
    const list = await (await call("/api/v1/auth/tokens", { headers: bearer(BOOTSTRAP_TOKEN) })).json<Page>();
    expect(list.items.find((t) => t.role === "operator")!.lastUsedUtc).not.toBeNull();
  });

  it("stops working at once when revoked", async () => {
    const { token, id } = await (await create({ name: "leaked", role: "read-only" })).json<Created>();
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(200);
    const revoke = await call(`/api/v1/auth/tokens/${id}`, { method: "DELETE", headers: bearer(BOOTSTRAP_TOKEN) });
    expect(await revoke.json()).toEqual({ status: "deleted" });
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(401);
    expect(
      (await call(`/api/v1/auth/tokens/${id}`, { method: "DELETE", headers: bearer(BOOTSTRAP_TOKEN) })).status,
    ).toBe(404);
  });

  it("shows one token's record by id, never its plaintext or hash", async () => {
    const { token, id } = await (await create({ name: "grafana-ro", role: "read-only" })).json<Created>();
    const response = await call(`/api/v1/auth/tokens/${id}`, { headers: bearer(BOOTSTRAP_TOKEN) });
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ id, name: "grafana-ro", role: "read-only", source: "api" });
    expect(text).not.toContain(token);
    expect(text).not.toContain(await sha256Hex(token));
    expect((await call("/api/v1/auth/tokens/0000000000000000", { headers: bearer(BOOTSTRAP_TOKEN) })).status).toBe(404);
    expect((await call(`/api/v1/auth/tokens/${id}`, { headers: bearer(token) })).status).toBe(403);
  });

  it("stops working after its expiry", async () => {
    const { token, id } = await (
      await create({ name: "short", role: "read-only", expiresUtc: new Date(Date.now() + 3_600_000).toISOString() })
    ).json<Created>();
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(200);
    await runInDurableObject(env.Appliance.getByName("edge-1"), (_i, state) =>
      state.storage.sql.exec("UPDATE tokens SET expires_ms = ? WHERE id = ?", Date.now() - 1, id),
    );
    expect((await call("/api/v1/auth/whoami", { headers: bearer(token) })).status).toBe(401);
  });

  it("refuses an expiry in the past, a duplicate name, and an unknown role, naming the field", async () => {
    const past = await create({ name: "old", role: "read-only", expiresUtc: "2001-01-01T00:00:00Z" });
    expect(past.status).toBe(400);
    expect((await past.json<Problem>()).errors![0]!.pointer).toBe("#/expiresUtc");
    await create({ name: "twice", role: "read-only" });
    expect((await create({ name: "twice", role: "read-only" })).status).toBe(409);
    const badRole = await create({ name: "bad", role: "root" });
    expect(badRole.status).toBe(400);
    expect((await badRole.json<Problem>()).errors!.map((e) => e.pointer)).toContain("#/role");
  });

  it("reads the spec's `admin` as super-user", async () => {
    const body = await (await create({ name: "legacy", role: "admin" })).json<Created>();
    expect(body.role).toBe("super-user");
  });

  it("keeps configuration-provisioned tokens out of reach of revocation", async () => {
    const list = await (await call("/api/v1/auth/tokens", { headers: bearer(BOOTSTRAP_TOKEN) })).json<Page>();
    const bootstrap = list.items.find((t) => t.name === "bootstrap")!;
    expect(bootstrap.source).toBe("config");
    expect(
      (await call(`/api/v1/auth/tokens/${bootstrap.id}`, { method: "DELETE", headers: bearer(BOOTSTRAP_TOKEN) }))
        .status,
    ).toBe(409);
  });

  it("is refused to anyone but a super-user", async () => {
    const operator = await tokenWithRole("operator");
    expect((await create({ name: "escalate", role: "super-user" }, operator)).status).toBe(403);
  });

  it("refuses a token whose checksum does not match before any lookup, saying so", async () => {
    const token = await tokenWithRole("read-only");
    // The last character is part of the CRC-32 checksum: change it and the token is no longer well-formed.
    const typo = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    const response = await call("/api/v1/auth/whoami", { headers: bearer(typo) });
    expect(response.status).toBe(401);
    expect(((await response.json()) as Problem).detail).toContain("checksum");
  });

  it("rejects a bearer value that is not a bngtok_ token", async () => {
    const response = await call("/api/v1/auth/whoami", { headers: { authorization: "Bearer hunter2" } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toContain("Bearer");
  });
});
