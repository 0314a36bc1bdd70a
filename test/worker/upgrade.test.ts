/**
 * Software upgrade through the Worker: staging a package (bytes or base64),
 * refusing bad ones, applying it with and without a drain on the simulated
 * clock, and the new version surviving a restart.
 */
import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ProblemDetails } from "../../src/schemas/common.ts";
import type { LogTail } from "../../src/schemas/logs.ts";
import type { SessionSummaryCounts } from "../../src/schemas/sessions.ts";
import type { Health, InterfaceTable, SystemStatus } from "../../src/schemas/system.ts";
import type { StageResult, UpgradeStatus as Status } from "../../src/schemas/upgrade.ts";
import { buildPackage as unsignedPackage, toBase64 } from "../../src/upgrade/package.ts";
import { importUpgradeSigningKey, signedPackage } from "../../src/trust/package-signature.ts";
import { OTHER_SIGNING_KEY, VENDOR_SIGNING_KEY } from "./upgrade-keys.ts";
import { toHex } from "../../src/trust/encoding.ts";
import { admin, advance, get, send } from "./helpers.ts";
import { bearer, call, tokenWithRole } from "./client.ts";

type Staged = z.output<typeof StageResult>;

/** A package as the vendor ships it: signed with the key whose public half the appliance holds. */
const buildPackage = async (versionText: string, payload: Uint8Array, notes?: string) =>
  signedPackage(versionText, payload, await importUpgradeSigningKey(VENDOR_SIGNING_KEY), notes);
type Problem = z.output<typeof ProblemDetails>;

const STAGE = "/api/v1/system/upgrade/stage";
const APPLY = "/api/v1/system/upgrade/apply";
const status = () => get<Status>("/api/v1/system/upgrade");
const sessions = async () => (await get<SessionSummaryCounts>("/api/v1/sessions/summary")).total;
const version = async () => (await get<Health>("/api/v1/system/health")).softwareVersion;
const logs = async (msgId: string) =>
  (await get<LogTail>("/api/v1/logs/tail?count=1000")).entries.filter((e) => e.msgId === msgId);

/** Uploads package bytes as application/octet-stream. */
const upload = (bytes: Uint8Array, headers: Record<string, string> = admin) =>
  call(STAGE, { method: "POST", headers: { ...headers, "content-type": "application/octet-stream" }, body: bytes });

/** A package's manifest line rewritten by `edit` (and its payload replaced), its signature kept. */
function tampered(
  bytes: Uint8Array,
  edit: (manifest: Record<string, unknown>) => Record<string, unknown>,
  payload?: Uint8Array,
): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const [magic, line] = text.split("\n");
  const head = new TextEncoder().encode(`${magic}\n${JSON.stringify(edit(JSON.parse(line!)))}\n`);
  const body = payload ?? bytes.subarray(magic!.length + line!.length + 2);
  const out = new Uint8Array(head.length + body.length);
  out.set(head);
  out.set(body, head.length);
  return out;
}

async function staged(versionText = "0.2.0"): Promise<Staged> {
  const response = await upload(await buildPackage(versionText, new TextEncoder().encode(`image ${versionText}`)));
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<Staged>();
}

async function apply(id: string, drain: boolean): Promise<void> {
  const response = await send("POST", APPLY, { id, drain });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function refusal(response: Response, statusCode: number): Promise<Problem> {
  expect(response.status, await response.clone().text()).toBe(statusCode);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return response.json<Problem>();
}

describe("a fresh appliance", () => {
  it("runs the factory version with nothing staged", async () => {
    expect(await status()).toMatchObject({
      runningVersion: "0.1.0",
      softwareVersion: "bngfleet 0.1.0",
      state: "idle",
      staged: null,
      applying: null,
      lastResult: null,
      history: [],
    });
  });
});

describe("staging", () => {
  it("checks and keeps package bytes, answering their id, version, size and SHA-256", async () => {
    const bytes = await buildPackage("0.2.0", new TextEncoder().encode("image"), "bug fixes");
    const response = await upload(bytes);
    expect(response.status).toBe(200);
    const result = await response.json<Staged>();
    const sha256 = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
    expect(result).toMatchObject({
      id: `pkg-${sha256.slice(0, 16)}`,
      name: "bngfleet",
      version: "0.2.0",
      size: bytes.length,
      sha256,
      notes: "bug fixes",
      replaced: null,
    });
    expect(await status()).toMatchObject({ state: "staged", staged: { id: result.id, version: "0.2.0" } });
    expect((await logs("audit.upgrade.stage"))[0]?.fields).toMatchObject({
      packageId: result.id,
      actor: "token:bootstrap",
    });
  });

  it("takes the same package as base64 JSON, under the same id, replacing the staged one", async () => {
    const first = await staged("0.2.0");
    const second = await staged("0.3.0");
    expect(second.replaced).toBe(first.id);
    const again = await send("POST", STAGE, {
      package: toBase64(await buildPackage("0.2.0", new TextEncoder().encode("image 0.2.0"))),
    });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: first.id, replaced: second.id });
    expect((await status()).staged?.id).toBe(first.id);
  });

  it.each([
    ["no magic", async () => new TextEncoder().encode("hello"), "#/magic"],
    [
      "another product",
      async () =>
        new TextEncoder().encode(`BNGPKG1\n{"name":"other","version":"1.0.0","sha256":"${"0".repeat(64)}"}\nx`),
      "#/manifest/name",
    ],
    [
      "a bad version",
      async () =>
        new TextEncoder().encode(`BNGPKG1\n{"name":"bngfleet","version":"2","sha256":"${"0".repeat(64)}"}\nx`),
      "#/manifest/version",
    ],
    ["a manifest that is not JSON", async () => new TextEncoder().encode("BNGPKG1\n{oops\nx"), "#/manifest"],
    [
      "a corrupted payload",
      async () => {
        const bytes = await buildPackage("0.2.0", new TextEncoder().encode("image"));
        bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 1;
        return bytes;
      },
      "#/payload",
    ],
    [
      "an unsigned package",
      async () => unsignedPackage("0.2.0", new TextEncoder().encode("image")),
      "#/manifest/signature",
    ],
    [
      "a package signed by another key",
      async () =>
        signedPackage("0.2.0", new TextEncoder().encode("image"), await importUpgradeSigningKey(OTHER_SIGNING_KEY)),
      "#/manifest/signature",
    ],
    [
      "a signed package whose version was changed",
      async () =>
        tampered(await buildPackage("0.2.0", new TextEncoder().encode("image")), (m) => ({ ...m, version: "9.9.9" })),
      "#/manifest/signature",
    ],
    [
      "a signed package whose payload was replaced, its digest with it",
      async () => {
        const payload = new TextEncoder().encode("other image");
        const sha256 = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", payload)));
        return tampered(
          await buildPackage("0.2.0", new TextEncoder().encode("image")),
          (m) => ({ ...m, sha256 }),
          payload,
        );
      },
      "#/manifest/signature",
    ],
  ])("refuses %s with 422 naming where, staging nothing", async (_, make, pointer) => {
    const problem = await refusal(await upload(await make()), 422);
    expect(problem.errors).toEqual([{ in: "body", pointer, detail: expect.any(String) }]);
    expect(problem.detail).toContain("refused");
    expect((await status()).staged).toBeNull();
    expect(await logs("audit.upgrade.rejected")).toHaveLength(1);
  });

  it("refuses a package over the size limit with 413, and other media types with 415", async () => {
    await refusal(await upload(new Uint8Array(512 * 1024 + 1)), 413);
    await refusal(await send("POST", STAGE, { package: "A".repeat(700_000) }), 413);
    await refusal(
      await call(STAGE, { method: "POST", headers: { ...admin, "content-type": "text/plain" }, body: "BNGPKG1\n" }),
      415,
    );
    const bad = await refusal(await send("POST", STAGE, { package: "not base64!" }), 400);
    expect(bad.errors?.[0]?.pointer).toBe("#/package");
  });

  it("is an operator action: read-only tokens get 403", async () => {
    const bytes = await buildPackage("0.2.0", new TextEncoder().encode("image"));
    await refusal(await upload(bytes, bearer(await tokenWithRole("read-only"))), 403);
    await refusal(await send("POST", APPLY, { id: "x", drain: true }, bearer(await tokenWithRole("read-only"))), 403);
    expect((await upload(bytes, bearer(await tokenWithRole("operator")))).status).toBe(200);
    expect((await status()).staged?.version).toBe("0.2.0");
  });
});

describe("applying", () => {
  it("refuses with 409 when nothing is staged, 404 for another id, 409 while an apply runs", async () => {
    expect((await refusal(await send("POST", APPLY, { id: "pkg-0000", drain: true }), 409)).detail).toContain(
      "nothing is staged",
    );
    const { id } = await staged();
    expect((await refusal(await send("POST", APPLY, { id: "pkg-0000", drain: true }), 404)).detail).toContain(id);
    await refusal(await send("POST", APPLY, { id, drain: "yes" }), 400);
    await refusal(await send("POST", APPLY, { drain: true }), 400);
    await apply(id, true);
    await refusal(await send("POST", APPLY, { id, drain: true }), 409);
    await refusal(await upload(await buildPackage("0.3.0", new Uint8Array([1]))), 409);
  });

  it("drains subscribers gracefully, reboots into the new version, and keeps it across a restart", async () => {
    await advance(1800);
    const { id } = await staged("0.2.0");
    const before = await sessions();
    expect(before).toBeGreaterThan(1000);
    const accepted = await send("POST", APPLY, { id, drain: true });
    expect(await accepted.json()).toMatchObject({
      packageId: id,
      fromVersion: "0.1.0",
      toVersion: "0.2.0",
      drain: true,
      state: "applying",
      sessions: before,
    });
    expect(await status()).toMatchObject({ state: "applying", applying: { phase: "applying" } });

    await advance(30);
    expect((await status()).state).toBe("draining");
    await advance(60);
    const midway = await sessions();
    expect(midway).toBeLessThan(before * 0.6);
    expect(midway).toBeGreaterThan(0);
    const draining = await status();
    expect(draining.applying).toMatchObject({ phase: "draining", sessions: midway });
    expect(draining.applying!.sessionsDrained).toBeGreaterThan(0);
    expect(draining.applying!.setupsRefused).toBeGreaterThan(0);
    expect(await get("/api/v1/system/status")).toMatchObject({
      controlPlane: { state: "draining" },
      dataPlane: { acceptingSessions: false, forwarding: true },
      sessions: { total: midway },
    });
    expect((await logs("session.down")).some((e) => e.fields.cause === "admin-reboot")).toBe(true);
    await advance(10);
    expect(await sessions()).toBeLessThan(midway);

    await advance(50);
    expect(await sessions()).toBe(0);
    expect((await status()).state).toBe("rebooting");
    expect(await version()).toBe("bngfleet 0.1.0");
    const down = await get<InterfaceTable>("/api/v1/system/interfaces");
    expect(down.interfaces.filter((r) => r.portId !== null).map((r) => r.operState)).toEqual(["down", "down"]);

    await advance(90);
    const done = await status();
    expect(done).toMatchObject({
      runningVersion: "0.2.0",
      softwareVersion: "bngfleet 0.2.0",
      state: "idle",
      staged: null,
      applying: null,
    });
    expect(done.lastResult).toMatchObject({
      packageId: id,
      fromVersion: "0.1.0",
      toVersion: "0.2.0",
      outcome: "succeeded",
      reason: null,
      sessionsDropped: 0,
    });
    expect(done.lastResult!.sessionsDrained).toBeGreaterThan(before * 0.5);
    expect(await version()).toBe("bngfleet 0.2.0");
    expect((await logs("upgrade.complete"))[0]?.fields).toMatchObject({ version: "0.2.0", fromVersion: "0.1.0" });
    expect(await get("/api/v1/system/status")).toMatchObject({
      softwareVersion: "bngfleet 0.2.0",
      controlPlane: { state: "running" },
      dataPlane: { acceptingSessions: true, uptimeSeconds: 0 },
    });

    await advance(120);
    expect(await sessions()).toBeGreaterThan(1000);
    await abortAllDurableObjects();
    expect(await version()).toBe("bngfleet 0.2.0");
    expect((await status()).history).toHaveLength(1);
    const scrape = await (await call("/api/v1/metrics", { headers: admin })).text();
    expect(scrape).toContain('software_version="bngfleet 0.2.0"');
  });

  it("without a drain, drops every session at the reboot", async () => {
    await advance(1800);
    const { id } = await staged("0.2.1");
    await apply(id, false);
    await advance(20);
    const before = await sessions();
    expect(before).toBeGreaterThan(1000);
    await advance(10);
    expect(await sessions()).toBe(0);
    expect((await status()).state).toBe("rebooting");
    // Whatever the last 10 s of churn left up is dropped.
    const dropped = Number((await logs("upgrade.rebooting"))[0]?.fields.sessionsDropped);
    expect(Math.abs(dropped - before)).toBeLessThan(before * 0.05);
    await advance(90);
    expect((await status()).lastResult).toMatchObject({
      outcome: "succeeded",
      drain: false,
      sessionsDrained: 0,
      sessionsDropped: dropped,
    });
    expect(await version()).toBe("bngfleet 0.2.1");
  });

  it(
    "fails when the appliance restarts before the reboot: old version, package still " + "staged, sessions admitted",
    async () => {
      await advance(1800);
      const { id } = await staged("0.2.0");
      await apply(id, true);
      await advance(60);
      await abortAllDurableObjects();
      const failed = await status();
      expect(failed).toMatchObject({
        runningVersion: "0.1.0",
        state: "failed",
        staged: { id },
        applying: null,
        lastResult: { outcome: "failed", packageId: id },
      });
      expect(failed.lastResult!.reason).toContain("interrupted");
      expect(await logs("upgrade.failed")).toHaveLength(1);
      const low = await sessions();
      await advance(60);
      expect(await sessions()).toBeGreaterThan(low);
      await apply(id, false);
      expect((await status()).state).toBe("applying");
    },
  );

  it("boots the configuration's restart-only changes with the new software", async () => {
    expect((await send("PUT", "/api/v1/cgn/settings", { maxBindings: 5000, maxFlows: 600000 })).status).toBe(200);
    expect((await get<SystemStatus>("/api/v1/system/status")).configuration.pendingRestart).toBe(true);
    const { id } = await staged("0.2.0");
    await apply(id, false);
    await advance(30 + 90);
    expect((await status()).runningVersion).toBe("0.2.0");
    expect((await get<SystemStatus>("/api/v1/system/status")).configuration.pendingRestart).toBe(false);
    expect(await get("/api/v1/cgn/settings")).toMatchObject({ maxBindings: 5000, pendingRestart: false });
    expect(await get("/api/v1/cgn/status")).toMatchObject({ maxBindings: 5000 });
  });
});
