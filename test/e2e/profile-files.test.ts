/**
 * User-defined sizes: a fleet file may name a profile file of the user's own,
 * relative to the fleet file, checked at start with the shipped profiles'
 * schema (a bad one stops the launch naming the field), and the appliance then
 * runs it.
 */
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadSettings } from "../../launcher/config.ts";
import { freePortBase, launchFleet, type RunningFleet } from "../../scripts/harness/fleet-process.ts";

const BOOTSTRAP = "bngtok_" + "E2e".repeat(10) + "4YjhF4"; // well-formed: the checksum is CRC-32 in base62
const small = JSON.parse(
  await readFile(path.join(import.meta.dirname, "../../fleet-config/profiles/small.json"), "utf8"),
) as Record<string, unknown> & { population: Record<string, number> };
/** A lab-sized appliance: 300 subscribers, 250 of them online at steady state. */
const mini = {
  ...small,
  name: "lab-mini",
  population: { ...small.population, subscribers: 300, steadyStateSessions: 250, licensedSessions: 400 },
};

/** Writes a fleet file of one appliance running `profile`, and the profile files given, into a fresh directory. */
async function fleetWith(profile: string, files: Record<string, unknown> = {}, port = 8443): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-profiles-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  }
  const fleetFile = path.join(dir, "fleet.json");
  await writeFile(
    fleetFile,
    JSON.stringify({
      portBase: port,
      appliances: [{ name: "lab-1", seed: 11, profile, webUi: { listener: { address: "127.0.0.1", port } } }],
    }),
  );
  return fleetFile;
}

describe("a profile file of the user's own, at start", () => {
  it("is read relative to the fleet file and handed to the Worker as written", async () => {
    const settings = await loadSettings({ BNG_FLEET: await fleetWith("sizes/mini.json", { "sizes/mini.json": mini }) });
    expect(settings.profiles).toEqual({ "sizes/mini.json": mini });
  });

  it("is refused when invalid, naming the fleet file's field, the profile file and its bad field", async () => {
    const bad = { ...mini, population: { ...mini.population, steadyStateSessions: 400 } };
    const fleetFile = await fleetWith("mini.json", { "mini.json": bad });
    const failure = loadSettings({ BNG_FLEET: fleetFile });
    await expect(failure).rejects.toThrow(
      `${fleetFile}: appliances.0.profile: the profile ` +
        `file ${path.join(path.dirname(fleetFile), "mini.json")} is invalid`,
    );
    await expect(failure).rejects.toThrow("population.steadyStateSessions");
  });

  it(
    "is refused beyond the largest subscriber base the product holds (the xlarge " +
      "profile's 272,000), naming the field (issue #22)",
    async () => {
      const huge = { ...mini, population: { ...mini.population, subscribers: 2e9 } };
      const fleetFile = await fleetWith("huge.json", { "huge.json": huge });
      const failure = loadSettings({ BNG_FLEET: fleetFile });
      await expect(failure).rejects.toThrow(
        `${fleetFile}: appliances.0.profile: the profile ` +
          `file ${path.join(path.dirname(fleetFile), "huge.json")} is invalid`,
      );
      await expect(failure).rejects.toThrow("population.subscribers: at most 272,000");
    },
  );

  it("is refused when missing or not JSON, naming the field", async () => {
    await expect(loadSettings({ BNG_FLEET: await fleetWith("absent.json") })).rejects.toThrow(
      /appliances\.0\.profile: cannot read the profile file .*absent\.json/,
    );
    await expect(
      loadSettings({ BNG_FLEET: await fleetWith("broken.json", { "broken.json": "{ not json" }) }),
    ).rejects.toThrow(/appliances\.0\.profile: the profile file .*broken\.json is not valid JSON/);
  });

  it("refuses a profile that is neither shipped nor a .json path, saying what is accepted", async () => {
    await expect(loadSettings({ BNG_FLEET: await fleetWith("medium") })).rejects.toThrow(
      new RegExp(
        String.raw`appliances\.0\.profile: a shipped profile \(small, default, large.*\) ` +
          String.raw`or the path of a profile file ending in \.json`,
      ),
    );
  });
});

describe("an appliance running a profile file of the user's own", () => {
  let fleet: RunningFleet;
  let base: string;

  beforeAll(async () => {
    const port = await freePortBase(1);
    const fleetFile = await fleetWith("sizes/mini.json", { "sizes/mini.json": mini }, port);
    fleet = await launchFleet({ BNG_FLEET: fleetFile, BNG_HTTP: "1", BNG_BOOTSTRAP_TOKEN: BOOTSTRAP, BNG_FRESH: "1" }, [
      port,
    ]);
    base = `http://127.0.0.1:${port}`;
  }, 120_000);

  afterAll(async () => {
    if (fleet) expect(await fleet.stop()).toBe(0);
  });

  it("names the file's profile in its status and fills up to the file's size, not a shipped one's", async () => {
    const headers = { authorization: `Bearer ${BOOTSTRAP}` };
    const status = (await (await fetch(`${base}/api/v1/system/status`, { headers })).json()) as {
      simulation: { profile: string };
    };
    expect(status.simulation.profile).toBe("lab-mini");
    const advanced = await fetch(`${base}/twin/v1/scenario`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ action: "advance-clock", seconds: 600 }),
    });
    expect(advanced.status).toBe(200);
    const summary = (await (await fetch(`${base}/api/v1/sessions/summary`, { headers })).json()) as { total: number };
    // At most the 300 subscribers the file defines (the shipped `small` holds about 2,000 sessions).
    expect(summary.total).toBeGreaterThan(150);
    expect(summary.total).toBeLessThanOrEqual(300);
  });
});
