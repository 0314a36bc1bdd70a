/**
 * The whole run story, as a new user meets it: `npm start`'s launcher on real
 * HTTPS listeners, admin enrolment with Debian's oathtool, a token, the fleet
 * proxy between two appliances and to peers outside the fleet, the OpenAPI
 * document checked by a maintained validator, and a clean Ctrl-C.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchJson, freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";
import { closedPort } from "../closed-port.ts";
import { certificateOf } from "./running-fleet.ts";

const PORT_BASE = await freePortBase(2);
/** A loopback port known to be closed, for a peer that is down and a redirect that must not be followed. */
const CLOSED = await closedPort();
const BOOTSTRAP = "bngtok_" + "E2e".repeat(10) + "4YjhF4"; // well-formed: the checksum is CRC-32 in base62
const LAB_CREDENTIAL = "bngtok_" + "L".repeat(36);
const ADMIN_PASSWORD = "e2e-admin-password";

/** A peer outside the fleet: echoes what it receives, redirects, or never answers. */
function startLabPeer(): Promise<Server> {
  const server = createServer((req, res) => {
    // The proxy relays only FP reads, so the lab plays its tricks on FP paths.
    if (req.url?.startsWith("/api/v1/system/inventory")) return; // never answers
    if (req.url?.startsWith("/api/v1/system/status")) {
      res.writeHead(302, { location: `http://127.0.0.1:${CLOSED}/elsewhere`, "content-type": "text/plain" });
      return res.end("moved");
    }
    res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    res.end(JSON.stringify({ url: req.url, authorization: req.headers.authorization ?? null }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

let fleet: RunningFleet;
let lab: Server;
let labPort: number;

beforeAll(async () => {
  lab = await startLabPeer();
  labPort = (lab.address() as { port: number }).port;
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-fleet-"));
  const fleetFile = path.join(dir, "fleet.json");
  const appliance = (name: string, port: number, peers: unknown[]) => ({
    name,
    seed: port,
    profile: "small",
    webUi: { listener: { address: "127.0.0.1", port }, hostname: `${name}.bng.localhost`, peers },
  });
  await writeFile(
    fleetFile,
    JSON.stringify({
      portBase: 8443,
      appliances: [
        appliance("edge-1", 8443, [
          { name: "edge-2" },
          { name: "lab", url: `http://127.0.0.1:${labPort}`, credential: LAB_CREDENTIAL, timeoutMs: 1000 },
          { name: "gone", url: `http://127.0.0.1:${CLOSED}`, credential: LAB_CREDENTIAL },
        ]),
        appliance("edge-2", 8444, [{ name: "edge-1" }]),
      ],
    }),
  );
  fleet = await launchFleet(
    {
      BNG_PORT_BASE: String(PORT_BASE),
      BNG_FLEET: fleetFile,
      BNG_BOOTSTRAP_TOKEN: BOOTSTRAP,
      BNG_ADMIN_PASSWORD: ADMIN_PASSWORD,
      BNG_FRESH: "1",
    },
    [PORT_BASE, PORT_BASE + 1],
  );
}, 120_000);

afterAll(async () => {
  lab?.close();
  if (fleet) expect(await fleet.stop()).toBe(0);
});

const url = (port: number, path: string) => `https://127.0.0.1:${port}/api/v1${path}`;
const edge1 = (path: string) => url(PORT_BASE, path);
const asBootstrap = { authorization: `Bearer ${BOOTSTRAP}` };

describe("listeners", () => {
  it("serves each appliance over HTTPS with its own certificate, valid for the listener address", async () => {
    const [ca1, ca2] = await Promise.all([
      certificateOf(fleet.dataDir, "edge-1"),
      certificateOf(fleet.dataDir, "edge-2"),
    ]);
    const one = await fetchJson(edge1("/system/health"), { ca: ca1 });
    const two = await fetchJson(url(PORT_BASE + 1, "/system/health"), { ca: ca2 });
    expect(one.json()).toMatchObject({ status: "ok", appliance: "edge-1" });
    expect(two.json()).toMatchObject({ status: "ok", appliance: "edge-2" });
    expect(one.peerCertificateFingerprint).not.toBe(two.peerCertificateFingerprint);
    await expect(fetchJson(url(PORT_BASE + 1, "/system/health"), { ca: ca1 })).rejects.toThrow();
  });

  it(
    "serves the port's own appliance whatever X-BNG-Appliance a client sends (one " + "Worker serves every listener)",
    async () => {
      const claims = { "x-bng-appliance": "edge-1", authorization: `Bearer ${BOOTSTRAP}` };
      const two = await fetchJson(url(PORT_BASE + 1, "/system/status"), { insecure: true, headers: claims });
      const one = await fetchJson(edge1("/system/status"), {
        insecure: true,
        headers: { ...claims, "x-bng-appliance": "edge-2" },
      });
      expect(two.json()).toMatchObject({ appliance: "edge-2" });
      expect(one.json()).toMatchObject({ appliance: "edge-1" });
    },
  );

  it("prints each appliance's URL and how to log in", () => {
    expect(fleet.output()).toContain(`https://127.0.0.1:${PORT_BASE}`);
    expect(fleet.output()).toContain(`https://127.0.0.1:${PORT_BASE + 1}`);
    expect(fleet.output()).toMatch(/admin/);
  });
});

describe("a new user's first session", () => {
  it("logs in as admin, enrols with oathtool, creates a token and uses it", async () => {
    const ca = await certificateOf(fleet.dataDir, "edge-1");
    const challenge = (
      await fetchJson(edge1("/auth/login"), { ca, body: { username: "admin", password: ADMIN_PASSWORD } })
    ).json<{ status: string; enrolmentToken: string; secret: string }>();
    expect(challenge.status).toBe("totpEnrolmentRequired");
    const code = execFileSync("oathtool", ["--totp", "-b", challenge.secret], { encoding: "utf8" }).trim();
    const enrolled = await fetchJson(edge1("/auth/enrol"), {
      ca,
      body: { enrolmentToken: challenge.enrolmentToken, totpCode: code },
    });
    expect(enrolled.status).toBe(200);
    const { csrfToken } = enrolled.json<{ csrfToken: string }>();
    const cookie = String(enrolled.headers["set-cookie"]).split(";")[0]!;
    expect(String(enrolled.headers["set-cookie"])).toContain("Secure");

    const created = await fetchJson(edge1("/auth/tokens"), {
      ca,
      headers: { cookie, "x-csrf-token": csrfToken },
      body: { name: "e2e", role: "operator" },
    });
    expect(created.status).toBe(200);
    const { token } = created.json<{ token: string }>();
    const whoami = await fetchJson(edge1("/auth/whoami"), { ca, headers: { authorization: `Bearer ${token}` } });
    expect(whoami.json()).toMatchObject({ via: "token", role: "operator", tokenName: "e2e" });

    // The code just used is refused a second time.
    const replay = await fetchJson(edge1("/auth/login"), {
      ca,
      body: { username: "admin", password: ADMIN_PASSWORD, totpCode: code },
    });
    expect(replay.status).toBe(401);
  });
});

describe("fleet proxy", () => {
  it("reads edge-2 from edge-1", async () => {
    const response = await fetchJson(edge1("/fleet/edge-2/system/health"), { insecure: true, headers: asBootstrap });
    expect(response.status).toBe(200);
    expect(response.json()).toMatchObject({ appliance: "edge-2" });
  });

  it(
    "forwards the query string and the configured credential to a peer outside the " +
      "fleet, relaying its content type",
    async () => {
      const response = await fetchJson(edge1("/fleet/lab/sessions?limit=5&vrf=default"), {
        insecure: true,
        headers: asBootstrap,
      });
      expect(response.status).toBe(200);
      expect(response.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(response.json()).toEqual({
        url: "/api/v1/sessions?limit=5&vrf=default",
        authorization: `Bearer ${LAB_CREDENTIAL}`,
      });
    },
  );

  it("relays a peer's redirect without following it", async () => {
    const response = await fetchJson(edge1("/fleet/lab/system/status"), { insecure: true, headers: asBootstrap });
    expect(response.status).toBe(302);
    expect(response.text).toBe("moved");
    expect(response.headers.location).toBeUndefined();
  });

  it("answers 504 within the peer's timeout when the peer hangs", async () => {
    const started = Date.now();
    const response = await fetchJson(edge1("/fleet/lab/system/inventory"), { insecure: true, headers: asBootstrap });
    expect(response.status).toBe(504);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    // The lab peer never answers, so only the configured 1000 ms timeout can end the wait: not before it
    // (a bound no machine's speed can break), and the answer names it. Without the timeout the test times out.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(response.json<{ detail: string }>().detail).toContain("1000 ms");
  });

  it("answers 502 when the peer is unreachable", async () => {
    const response = await fetchJson(edge1("/fleet/gone/system/health"), { insecure: true, headers: asBootstrap });
    expect(response.status).toBe(502);
    expect(response.headers["content-type"]).toBe("application/problem+json");
  });
});

describe("self-description", () => {
  it("serves an OpenAPI document that a maintained validator accepts", async () => {
    const document = (await fetchJson(edge1("/openapi/v1.json"), { insecure: true, headers: asBootstrap })).json<
      Record<string, unknown>
    >();
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe("launcher", () => {
  it("refuses a bad fleet file, naming the file and the field, with a non-zero exit", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-bad-"));
    const bad = path.join(dir, "fleet.json");
    await writeFile(
      bad,
      JSON.stringify({
        appliances: [
          { name: "Edge_1", seed: 1, profile: "small", webUi: { listener: { address: "127.0.0.1", port: 70000 } } },
        ],
      }),
    );
    const result = spawnSync(process.execPath, ["scripts/bngfleet.ts", "start"], {
      env: { ...process.env, BNG_FLEET: bad, BNG_DATA_DIR: dir },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(result.status).not.toBe(0);
    const output = result.stdout + result.stderr;
    expect(output).toContain(bad);
    expect(output).toContain("appliances.0.name");
    expect(output).toContain("appliances.0.webUi.listener.port");
  });
});

describe("software packages", () => {
  const make = (dataDir: string) =>
    execFileSync(process.execPath, ["scripts/bngfleet.ts", "upgrade-package", "0.2.0"], {
      env: { ...process.env, BNG_DATA_DIR: dataDir },
    });
  const stage = (bytes: Buffer) =>
    fetchJson(edge1("/system/upgrade/stage"), {
      insecure: true,
      headers: asBootstrap,
      body: { package: bytes.toString("base64") },
    });

  it(
    "stages what npm run upgrade-package signs with the data dir's key, and refuses " + "a package signed with another",
    async () => {
      expect((await stage(make(fleet.dataDir))).status).toBe(200);
      const other = await stage(make(await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-other-key-"))));
      expect(other.status).toBe(422);
      expect(other.json()).toMatchObject({ errors: [{ pointer: "#/manifest/signature" }] });
    },
  );
});
