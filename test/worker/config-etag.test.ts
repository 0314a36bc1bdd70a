/**
 * Optimistic concurrency on the configuration (issue #26): reads carry the
 * active version as a strong ETag, writes honour If-Match by RFC 9110
 * §13.1.1 (strong comparison, `*`, lists), a stale one is 412 with nothing
 * committed. Versions come from GET /config/history, never from the ETag code.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import { call, json } from "./client.ts";
import { admin, getConfig, history, itemOf, putConfig } from "./config-client.ts";

/** The newest version of the configuration history. */
const newestVersion = async () => (await history("?limit=1")).items[0]!.version;
const tag = (version: number) => `"v${version}"`;
const withIfMatch = (init: RequestInit, ifMatch: string): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), "if-match": ifMatch },
});
const put = (change: object, ifMatch: string) =>
  call("/api/v1/config", withIfMatch(json("PUT", change, admin), ifMatch));
const hostname = (name: string) => ({ fields: { "webUi.hostname": name } });

/** A 412 problem naming the current version, with its ETag, and no new history entry. */
async function expectStale(response: Response, current: number): Promise<void> {
  expect(response.status, await response.clone().text()).toBe(412);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  expect(response.headers.get("etag")).toBe(tag(current));
  const problem = await response.json<z.output<typeof ProblemDetails>>();
  expect(problem.status).toBe(412);
  expect(problem.detail).toContain(`version ${current} (${tag(current)})`);
  expect(await newestVersion()).toBe(current);
}

describe("ETag on configuration reads", () => {
  it("GET /config carries the history's newest version, and the next one after a commit", async () => {
    const version = await newestVersion();
    expect((await call("/api/v1/config", { headers: admin })).headers.get("etag")).toBe(tag(version));
    expect((await putConfig(hostname("etag-1.example.net"))).status).toBe(200);
    expect((await call("/api/v1/config", { headers: admin })).headers.get("etag")).toBe(tag(version + 1));
  });

  it.each([
    "/api/v1/vrfs",
    "/api/v1/subscribers/local",
    "/api/v1/routing/config",
    "/api/v1/cgn/groups",
    "/api/v1/cgn/settings",
    "/api/v1/auth/users",
    "/api/v1/source-vrf-rules",
    "/api/v1/gre-circuits",
  ])("%s carries it too", async (path) => {
    const response = await call(path, { headers: admin });
    expect(response.status).toBe(200);
    expect(response.headers.get("etag")).toBe(tag(await newestVersion()));
  });
});

describe("If-Match on PUT /config", () => {
  it("commits with the current ETag and answers the new one", async () => {
    const version = await newestVersion();
    const response = await put(hostname("etag-2.example.net"), tag(version));
    expect(response.status, await response.clone().text()).toBe(200);
    expect(response.headers.get("etag")).toBe(tag(version + 1));
    expect(await newestVersion()).toBe(version + 1);
  });

  it("refuses the previous ETag with 412 naming the current version, committing nothing", async () => {
    const version = await newestVersion();
    expect((await putConfig(hostname("etag-3.example.net"))).status).toBe(200);
    await expectStale(await put(hostname("stale.example.net"), tag(version)), version + 1);
    expect((await getConfig()).fields["webUi.hostname"]).toBe("etag-3.example.net");
  });

  it("commits with If-Match: * and with a list holding the current ETag", async () => {
    const version = await newestVersion();
    expect((await put(hostname("etag-4.example.net"), "*")).status).toBe(200);
    expect((await put(hostname("etag-5.example.net"), `"v999", ${tag(version + 1)}`)).status).toBe(200);
    expect(await newestVersion()).toBe(version + 2);
  });

  it("never matches a weak ETag, even of the current version", async () => {
    const version = await newestVersion();
    await expectStale(await put(hostname("weak.example.net"), `W/${tag(version)}`), version);
  });

  it("without If-Match behaves as before: two sequential PUTs both commit", async () => {
    const version = await newestVersion();
    expect((await putConfig(hostname("etag-6.example.net"))).status).toBe(200);
    expect((await putConfig(hostname("etag-7.example.net"))).status).toBe(200);
    expect(await newestVersion()).toBe(version + 2);
  });

  it("of eight parallel PUTs with the same If-Match, exactly one commits and seven get 412", async () => {
    const version = await newestVersion();
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => put(hostname(`race-${i}.example.net`), tag(version))),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412, 412, 412, 412, 412]);
    expect(await newestVersion()).toBe(version + 1);
  });
});

describe("If-Match on other configuration writes", () => {
  it("refuses a VRF created with a stale If-Match", async () => {
    const version = await newestVersion();
    expect((await putConfig(hostname("etag-8.example.net"))).status).toBe(200);
    await expectStale(
      await call("/api/v1/vrfs", withIfMatch(json("POST", { name: "etag-vrf", tableId: 510 }, admin), tag(version))),
      version + 1,
    );
    expect(itemOf(await getConfig(), "vrfs", "etag-vrf")).toBeUndefined();
    const created = await call(
      "/api/v1/vrfs",
      withIfMatch(json("POST", { name: "etag-vrf", tableId: 510 }, admin), tag(version + 1)),
    );
    expect(created.status).toBe(200);
    expect(created.headers.get("etag")).toBe(tag(version + 2));
  });

  it("refuses a local subscriber created with a stale If-Match", async () => {
    const version = await newestVersion();
    expect((await putConfig(hostname("etag-9.example.net"))).status).toBe(200);
    const body = { port: 2, sVlan: 0, vlan: 42, downloadRateKbps: 10_000, uploadRateKbps: 2_000 };
    await expectStale(
      await call("/api/v1/subscribers/local/ipoe", withIfMatch(json("POST", body, admin), tag(version))),
      version + 1,
    );
  });

  it("refuses a DELETE with a stale If-Match, and deletes with the current one", async () => {
    expect((await call("/api/v1/vrfs", json("POST", { name: "doomed", tableId: 511 }, admin))).status).toBe(200);
    const version = await newestVersion();
    expect((await putConfig(hostname("etag-10.example.net"))).status).toBe(200);
    await expectStale(
      await call("/api/v1/vrfs/doomed", { method: "DELETE", headers: { ...admin, "if-match": tag(version) } }),
      version + 1,
    );
    expect(itemOf(await getConfig(), "vrfs", "doomed")).toBeDefined();
    expect(
      (await call("/api/v1/vrfs/doomed", { method: "DELETE", headers: { ...admin, "if-match": tag(version + 1) } }))
        .status,
    ).toBe(200);
  });

  it("refuses POST /config/rollback with a stale If-Match", async () => {
    const version = await newestVersion();
    expect((await putConfig(hostname("etag-11.example.net"))).status).toBe(200);
    await expectStale(
      await call("/api/v1/config/rollback", withIfMatch(json("POST", { version }, admin), tag(version))),
      version + 1,
    );
    expect((await getConfig()).fields["webUi.hostname"]).toBe("etag-11.example.net");
  });
});
