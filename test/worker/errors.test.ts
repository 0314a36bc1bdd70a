import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { SELF } from "cloudflare:test";
import { BOOTSTRAP_TOKEN, bearer, call } from "./client.ts";
import { expectDocumented } from "./wire-check.ts";

async function problem(response: Response) {
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return response.json<z.output<typeof ProblemDetails>>();
}

describe("problem details", () => {
  it("answers 415 for a body that is not JSON", async () => {
    const response = await call("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "username=admin",
    });
    expect(response.status).toBe(415);
    expect(await problem(response)).toMatchObject({ type: "about:blank", status: 415, instance: "/api/v1/auth/login" });
  });

  it.each(["application/json; charset=utf-8", "text/json", "application/merge-patch+json"])(
    "accepts %s",
    async (type) => {
      const response = await call("/api/v1/auth/login", {
        method: "POST",
        headers: { "content-type": type },
        body: JSON.stringify({ username: "x", password: "y" }),
      });
      expect(response.status).toBe(401);
    },
  );

  it("answers 400 for malformed JSON before any schema runs", async () => {
    const response = await call("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"username": ',
    });
    expect(response.status).toBe(400);
    expect((await problem(response)).detail).toContain("malformed JSON");
  });

  it("answers 400 naming each offending field", async () => {
    const response = await call("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: 42 }),
    });
    expect(response.status).toBe(400);
    const body = await problem(response);
    expect(body.errors!.map((e) => e.pointer).sort()).toEqual(["#/password", "#/username"]);
    expect(body.detail).toContain("username");
    expect(body.detail).toContain("password");
  });

  it("answers 400 for a missing body", async () => {
    expect((await call("/api/v1/auth/login", { method: "POST" })).status).toBe(400);
  });

  it("answers 404 for an unknown route", async () => {
    const response = await call("/api/v1/no/such/thing", { headers: bearer(BOOTSTRAP_TOKEN) });
    expect(response.status).toBe(404);
    expect(await problem(response)).toMatchObject({ status: 404, instance: "/api/v1/no/such/thing" });
  });

  it("answers 405 with Allow for a known path with another method", async () => {
    const response = await call("/api/v1/auth/whoami", { method: "DELETE", headers: bearer(BOOTSTRAP_TOKEN) });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    await problem(response);
  });

  it("serves HEAD from the GET route, without a body", async () => {
    const response = await call("/api/v1/system/health", { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });

  it("answers OPTIONS with the allowed methods", async () => {
    const response = await call("/api/v1/auth/tokens", { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
  });

  it("answers 404 for a hostname no appliance answers to", async () => {
    const url = "https://unknown.example.net/api/v1/system/health";
    const response = await SELF.fetch(url);
    await expectDocumented("GET", url, response);
    expect(response.status).toBe(404);
    await problem(response);
  });

  it("answers 400 for a path parameter that breaks its schema", async () => {
    const response = await call("/api/v1/auth/tokens/not-a-token-id", {
      method: "DELETE",
      headers: bearer(BOOTSTRAP_TOKEN),
    });
    expect(response.status).toBe(400);
    expect((await problem(response)).errors![0]).toMatchObject({ in: "path", pointer: "#/id" });
  });

  it("answers 413 for an oversized body", async () => {
    const response = await call("/api/v1/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: "a", password: "x".repeat(1_100_000) }),
    });
    expect(response.status).toBe(413);
  });
});
