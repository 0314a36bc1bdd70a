/**
 * The OpenAPI document passes Redocly CLI's recommended ruleset with no error
 * and no warning: what `npm run lint:openapi` (and CI) runs, judged by the
 * outside tool rather than by our own reading of the document.
 */
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

let documentFile: string;

beforeAll(async () => {
  documentFile = path.join(await mkdtemp(path.join(tmpdir(), "bngfleet-openapi-")), "openapi.json");
  const dump = spawnSync(process.execPath, ["scripts/openapi.ts", documentFile], { encoding: "utf8" });
  expect(dump.status, dump.stderr).toBe(0);
});

describe("OpenAPI document under Redocly CLI", () => {
  it("has no error and no warning under the recommended ruleset (redocly.yaml)", () => {
    const lint = spawnSync(
      process.execPath,
      ["node_modules/@redocly/cli/bin/cli.js", "lint", "--format", "json", documentFile],
      {
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    );
    const report = JSON.parse(lint.stdout) as {
      totals: { errors: number; warnings: number };
      problems: { ruleId: string; message: string }[];
    };
    expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(lint.status).toBe(0);
  });

  it("names a relative server, so the same document serves the local fleet and a deployed hostname", async () => {
    const document = JSON.parse(await readFile(documentFile, "utf8")) as {
      servers: { url: string }[];
      paths: Record<string, unknown>;
    };
    expect(document.servers.map((s) => s.url)).toEqual(["/"]);
    // Resolved against https://127.0.0.1:8443/api/v1/openapi/v1.json, a path lands on the listener root.
    const some = Object.keys(document.paths).find((p) => p === "/api/v1/system/health")!;
    expect(
      new URL(`.${some}`, new URL(document.servers[0]!.url, "https://127.0.0.1:8443/api/v1/openapi/v1.json")).href,
    ).toBe("https://127.0.0.1:8443/api/v1/system/health");
  });
});
