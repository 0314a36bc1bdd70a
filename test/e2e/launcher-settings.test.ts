/** The launcher's start-up checks that need no fleet: they run before anything is built or bound. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { banner } from "../../launcher/banner.ts";
import { loadSettings } from "../../launcher/config.ts";

describe("BNG_BOOTSTRAP_TOKEN at start", () => {
  it("refuses a malformed token with a message saying how to make one", async () => {
    await expect(loadSettings({ BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(36) })).rejects.toThrow(
      /not a well-formed token.*bngfleet token/,
    );
  });

  it("accepts a well-formed one", async () => {
    // 30 characters and their CRC-32 in base62, computed outside the code under test.
    const settings = await loadSettings({ BNG_BOOTSTRAP_TOKEN: "bngtok_" + "B".repeat(30) + "1rpRcy" });
    expect(settings.bootstrapToken).toBe("bngtok_" + "B".repeat(30) + "1rpRcy");
  });
});

describe("BNG_SHARDS at start", () => {
  it("refuses anything but a whole number of processes from 1 to 16, naming the variable", async () => {
    for (const bad of ["0", "17", "two", "1.5", "-1"])
      await expect(loadSettings({ BNG_SHARDS: bad })).rejects.toThrow(
        new RegExp(`BNG_SHARDS must be .* not '${bad.replace(".", "\\.")}'`),
      );
  });

  it(
    "runs one process unless told, and never more processes than appliances (the " + "shipped fleet has three)",
    async () => {
      expect((await loadSettings({})).shards).toBe(1);
      expect((await loadSettings({ BNG_SHARDS: "2" })).shards).toBe(2);
      expect((await loadSettings({ BNG_SHARDS: "8" })).shards).toBe(3);
    },
  );
});

describe("BNG_ADMIN_PASSWORD at start (issue #22)", () => {
  it("refuses a commonly used password without repeating it, and takes a strong one", async () => {
    // `password123`: the 795th of @zxcvbn-ts/language-common's common passwords.
    const failure = loadSettings({ BNG_ADMIN_PASSWORD: "password123" });
    await expect(failure).rejects.toThrow(/BNG_ADMIN_PASSWORD .*commonly used password/);
    await expect(failure).rejects.not.toThrow(/password123/);
    expect((await loadSettings({ BNG_ADMIN_PASSWORD: "tangerine-lamp-quarry-81" })).adminPassword).toBe(
      "tangerine-lamp-quarry-81",
    );
  });
});

describe("BNG_CLOCK and BNG_CLOCK_START at start", () => {
  it(
    "takes a manual clock and a pinned start for the Worker, and refuses anything " + "else naming the variable",
    async () => {
      expect(await loadSettings({})).toMatchObject({ manualClock: false, clockStart: undefined });
      expect(await loadSettings({ BNG_CLOCK: "manual", BNG_CLOCK_START: "2026-03-02T10:30:00Z" })).toMatchObject({
        manualClock: true,
        clockStart: "2026-03-02T10:30:00Z",
      });
      await expect(loadSettings({ BNG_CLOCK: "live" })).rejects.toThrow(
        /BNG_CLOCK must be 'manual' or unset, not 'live'/,
      );
      await expect(loadSettings({ BNG_CLOCK_START: "10:30" })).rejects.toThrow(
        /BNG_CLOCK_START must be an ISO 8601 instant with its zone.*not '10:30'/,
      );
    },
  );
});

describe("workerd's V8 flags at start (MINIFLARE_WORKERD_V8_FLAGS)", () => {
  it("runs every fleet, of three or of a thousand, on V8's defaults unless the variable chooses", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "bngfleet-e2e-v8-"));
    try {
      const fleetOf = async (count: number) => {
        const file = path.join(dir, `fleet-${count}.json`);
        const appliances = Array.from({ length: count }, (_, i) => ({
          name: `edge-${i + 1}`,
          seed: i + 1,
          profile: "small",
          webUi: { listener: { address: "127.0.0.1", port: 9443 + i } },
        }));
        await writeFile(file, JSON.stringify({ portBase: 9443, appliances }));
        return file;
      };
      // The shipped fleet (three appliances), and a thousand: no flags.
      expect((await loadSettings({})).v8Flags).toBe("");
      expect((await loadSettings({ BNG_FLEET: await fleetOf(1000) })).v8Flags).toBe("");
      // Set, the variable decides (a fleet that would rather trade CPU for memory).
      expect(
        (await loadSettings({ BNG_FLEET: await fleetOf(1000), MINIFLARE_WORKERD_V8_FLAGS: "--optimize-for-size" }))
          .v8Flags,
      ).toBe("--optimize-for-size");
      expect((await loadSettings({ MINIFLARE_WORKERD_V8_FLAGS: "--max-lazy" })).v8Flags).toBe("--max-lazy");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("the ready banner", () => {
  it("says the admin password is set by BNG_ADMIN_PASSWORD, never what it is", async () => {
    const text = banner(await loadSettings({ BNG_ADMIN_PASSWORD: "Correct-Horse-Battery-7" }), 1);
    expect(text).toContain("BNG_ADMIN_PASSWORD");
    expect(text).not.toContain("Correct-Horse-Battery-7");
  });

  it("names the development default when none is set (it is public knowledge)", async () => {
    expect(banner(await loadSettings({}), 1)).toContain("password bngfleet-admin (development default");
  });
});

describe("bngfleet start's flags (issue #46)", () => {
  it("win over their variables, and a message names the one that was typed", async () => {
    const settings = await loadSettings({ BNG_PORT_BASE: "9443", BNG_HTTP: "0" }, { portBase: "10443", http: true });
    expect(settings.portBase).toBe(10443);
    expect(settings.http).toBe(true);
    expect(settings.appliances[0]!.origin).toBe("http://127.0.0.1:10443");
    await expect(loadSettings({}, { portBase: "0" })).rejects.toThrow(
      /^--port-base must be a port number \(1-65535\), not '0'$/,
    );
    await expect(loadSettings({ BNG_PORT_BASE: "0" })).rejects.toThrow(/^BNG_PORT_BASE must be a port number/);
  });

  it("make a fleet of N: edge-1 to edge-N on consecutive ports, each peering with every other", async () => {
    const settings = await loadSettings({}, { appliances: "4", profile: "default", portBase: "20000", http: true });
    expect(settings.appliances.map((a) => [a.name, a.origin])).toEqual([
      ["edge-1", "http://127.0.0.1:20000"],
      ["edge-2", "http://127.0.0.1:20001"],
      ["edge-3", "http://127.0.0.1:20002"],
      ["edge-4", "http://127.0.0.1:20003"],
    ]);
    expect(settings.fleet.appliances.map((a) => a.profile)).toEqual(["default", "default", "default", "default"]);
    expect(settings.fleet.appliances[2]!.webUi.peers.map((p) => p.name)).toEqual(["edge-1", "edge-2", "edge-4"]);
  });

  it("past 32 appliances peer edge-1 with every other and every other with edge-1 alone", async () => {
    const { fleet } = await loadSettings({}, { appliances: "40" });
    expect(fleet.appliances[0]!.webUi.peers).toHaveLength(39);
    expect(fleet.appliances[39]!.webUi.peers.map((p) => p.name)).toEqual(["edge-1"]);
  });

  it("refuse a fleet of their own beside --fleet, and a profile that is not shipped nor a file", async () => {
    await expect(loadSettings({}, { appliances: "2", fleet: "fleet-config/fleet.json" })).rejects.toThrow(
      /--appliances makes a fleet of its own: give it or --fleet, not both/,
    );
    await expect(loadSettings({}, { profile: "medium" })).rejects.toThrow(
      /--profile must be one of small, default, large, xlarge or a profile file ending in \.json, not 'medium'/,
    );
    // A variable left in the environment gives way to the flags typed.
    expect((await loadSettings({ BNG_FLEET: "no-such-fleet.json" }, { appliances: "1" })).appliances).toHaveLength(1);
  });

  it("take a shipped scenario by its name, and any other by its path", async () => {
    expect((await loadSettings({}, { scenario: "steady-state" })).scenario?.path).toBe(
      path.resolve("scenarios/steady-state.json"),
    );
    expect((await loadSettings({}, { scenario: "my-scenario.json" })).scenario?.path).toBe(
      path.resolve("my-scenario.json"),
    );
  });
});
