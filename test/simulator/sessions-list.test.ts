import { describe, expect, it } from "vitest";
import type { SessionSummary } from "../../simulator/index.ts";
import { formatMac } from "../../simulator/subscribers.ts";
import type { Gateway } from "../../simulator/gateway.ts";
import { allSessions, gateway, profile } from "./helpers.ts";

describe("sessions list", () => {
  const g = gateway(profile(), 51, 2 * 3600);
  const all = allSessions(g);
  const only = (pred: (s: SessionSummary) => boolean) => all.filter(pred).map((s) => s.id);
  const ids = (query: Parameters<typeof g.sessions.list>[0]) => allSessions(g, query).map((s) => s.id);

  it(
    "reads an empty ipv6, never null, for a session with neither a WAN nor a " +
      "delegated prefix (the spec's SessionSummary.ipv6 is a plain string)",
    () => {
      const v4Only = gateway(
        profile("small", (raw) => (raw.dualStack = { wanShare: 0, pdShare: 0 })),
        51,
        600,
      );
      const sessions = allSessions(v4Only);
      expect(sessions.length).toBeGreaterThan(0);
      expect(new Set(sessions.map((s) => s.ipv6))).toEqual(new Set([""]));
    },
  );

  it("lists newest first with the total before paging", () => {
    const page = g.sessions.list({ offset: 20, limit: 10 });
    expect(page.total).toBe(all.length);
    expect(page.offset).toBe(20);
    expect(page.items).toEqual(all.slice(20, 30));
  });

  it("defaults limit to 100 and clamps it to 1-500 and offset to at least 0", () => {
    expect(g.sessions.list().items).toHaveLength(100);
    expect(g.sessions.list({ limit: 0 }).items).toHaveLength(1);
    expect(g.sessions.list({ limit: -5 }).items).toHaveLength(1);
    expect(g.sessions.list({ limit: 10_000 }).items).toHaveLength(500);
    expect(g.sessions.list({ offset: -3, limit: 2 })).toMatchObject({ offset: 0, items: all.slice(0, 2) });
    expect(g.sessions.list({ offset: all.length + 5 }).items).toEqual([]);
  });

  it("filters by encapsulation and type, case-insensitively", () => {
    expect(ids({ encap: "PPPoE-LAC" })).toEqual(only((s) => s.encap === "pppoe-lac"));
    expect(ids({ type: "PPP" })).toEqual(only((s) => s.type === "ppp"));
    expect(ids({ type: "ipoe" })).toEqual(only((s) => s.encap === "ipoe"));
    expect(g.sessions.list({ encap: "atm" }).total).toBe(0);
    expect(g.sessions.list({ type: "pptp" }).total).toBe(0);
  });

  it("filters by port and leaves LNS-terminated sessions out of every port", () => {
    const portId = all.find((s) => s.portId !== null)?.portId ?? -1;
    const onPort = ids({ port: portId });
    expect(onPort).toEqual(only((s) => s.portId === portId));
    expect(onPort.length).toBeGreaterThan(0);
    const l2tp = only((s) => s.encap === "l2tp");
    expect(l2tp.length).toBeGreaterThan(0);
    for (const p of g.profile.ports) for (const id of l2tp) expect(ids({ port: p.portId })).not.toContain(id);
    expect(g.sessions.list({ port: 99 }).total).toBe(0);
  });

  it("filters by VRF exactly and case-insensitively, with default for the global table", () => {
    expect(ids({ vrf: "DEFAULT" })).toEqual(only((s) => s.vrf === "default"));
    expect(ids({ vrf: "wholesale" })).toEqual(only((s) => s.vrf === "wholesale"));
    expect(g.sessions.list({ vrf: "whole" }).total).toBe(0);
  });

  it("filters by username substring, case-insensitively", () => {
    expect(ids({ username: "@Wholesale-A" })).toEqual(only((s) => s.username.includes("@wholesale-a")));
    expect(ids({ username: "sub00001" })).toEqual(only((s) => s.username.includes("sub00001")));
    expect(g.sessions.list({ username: "nobody-at-all" }).total).toBe(0);
  });

  // Usernames are not stored per session: the filter is compiled against the username template, so needles
  // crossing each part of it (prefix, digits, "@", domain) must agree with a plain text search of the rows.
  it.each([
    "SUB",
    "ub0",
    "0001",
    "12",
    "7",
    "9@",
    "0@cgn",
    "@",
    "isp.ex",
    "b0000009@wholesale-b.example",
    "sub00000000",
    "a0",
    "1x",
    "ü",
  ])("matches username needle %j as a text search of the listed usernames would", (needle) => {
    expect(ids({ username: needle })).toEqual(only((s) => s.username.toLowerCase().includes(needle.toLowerCase())));
  });

  it("filters walled-garden sessions when asked and ignores walledGarden=false", () => {
    expect(ids({ walledGarden: true })).toEqual(only((s) => s.walledGarden));
    expect(g.sessions.list({ walledGarden: false }).total).toBe(all.length);
  });

  it("matches ip as a prefix of the IPv4 or IPv6 address", () => {
    const one = all.find((s) => s.ipv6 !== "");
    if (!one) throw new Error();
    expect(ids({ ip: one.ipv4 })).toEqual([one.id]);
    expect(ids({ ip: "100.64.0.0/20" })).toEqual(
      only((s) => s.ipv4.startsWith("100.64.") && Number(s.ipv4.split(".")[2]) < 16),
    );
    expect(ids({ ip: "198.18.1" })).toEqual(only((s) => s.ipv4.startsWith("198.18.1")));
    expect(ids({ ip: one.ipv6 ?? "" })).toEqual([one.id]);
    expect(ids({ ip: "2001:db8:200::/40" })).toEqual(only((s) => s.ipv6?.startsWith("2001:db8:2") ?? false));
    const address = (one.ipv6 ?? "").replace("::/", "::1/").replace(/\/\d+$/, "");
    expect(ids({ ip: address })).toEqual([one.id]);
    expect(g.sessions.list({ ip: "not-an-ip" }).total).toBe(0);
  });

  // The ip filter reads the pools' holder tables by address range: each text must select what a text search of the rows
  // would,
  // zero groups and `::` included (an address's text may compress a zero group, so only its text tells).
  it.each([
    "2001:",
    "2001",
    "2001:db8:2",
    "2001:db8:200:",
    "2001:db8:200:2",
    "2001:db8:100:2d",
    "2001:db8:4",
    "2001:db8:4002:5a",
    "2001:db8:100:0",
    "2001:db8:0db8",
    "2001:db8:0",
    "2001:db8:0:",
    "2001:db8::",
    "2001:db8:100::",
    "2001:db8:100:0:",
    "2001:db8:4000:0",
    "2001:db8:100:0:0",
    "2001::",
    "::",
    "198.18.",
    "198.18.4",
    "100.64.1",
    "10.128.0.",
  ])("matches ip text %j as a prefix of the listed IPv4 or IPv6 text", (needle) => {
    const matched = only((s) => s.ipv4.startsWith(needle) || (s.ipv6?.startsWith(needle) ?? false));
    expect(ids({ ip: needle })).toEqual(matched);
  });

  // Pools whose addresses have zero groups: `2001:db8::/64` is compressed where `2001:db8:0:1::/64` is not, so a needle
  // with a
  // zero group or `::` must take exactly what a text search takes, and bench-sized needles such as ":" must still be
  // answered.
  describe("with zero groups in the pools' addresses", () => {
    const zeros = gateway(
      profile("small", (raw) => {
        for (const pool of raw.pools) {
          if (pool.name === "residential-v6-wan")
            Object.assign(pool, { subnets: [{ prefix: "2001:db8::/52", announce: true }], exclude: [] });
          if (pool.name === "cgn-v6-wan")
            Object.assign(pool, { subnets: [{ prefix: "2001:0:0:1000::/52", announce: true }] });
        }
      }),
      52,
      2 * 3600,
    );
    const rows = allSessions(zeros);
    const matching = (needle: string) =>
      rows.filter((s) => s.ipv4.startsWith(needle) || s.ipv6.startsWith(needle)).map((s) => s.id);

    it("has rows with a compressed zero group and rows with a written one", () => {
      expect(rows.some((s) => s.ipv6 === "2001:db8::/64")).toBe(true);
      expect(rows.filter((s) => s.ipv6.startsWith("2001:db8:0:")).length).toBeGreaterThan(50);
      expect(rows.filter((s) => s.ipv6.startsWith("2001:0:0:1")).length).toBeGreaterThan(50);
    });

    it.each([
      "2001:db8:0",
      "2001:db8:0:",
      "2001:db8:0:1",
      "2001:db8::",
      "2001:db8::/64",
      "2001:db8:",
      "2001:0:",
      "2001:0:0:1",
      "2001:0:0:10",
      "2001::",
      ":",
      "::",
      "2001:db8:0:0:",
    ])("matches ip text %j as a text search of the listed addresses would", (needle) => {
      expect(allSessions(zeros, { ip: needle }).map((s) => s.id)).toEqual(matching(needle));
    });
  });

  it("shows a delegated prefix to the ip filter only for a session without a WAN prefix", () => {
    const both = all.filter((s) => s.ipv6?.startsWith("2001:db8:100:") || s.ipv6?.startsWith("2001:db8:200:"));
    expect(both.length).toBeGreaterThan(0);
    // The PD pools are 2001:db8:4000::/44 and 2001:db8:5000::/44: a session listed with a WAN prefix is not found by
    // them.
    const byPd = new Set([...ids({ ip: "2001:db8:4000::/44" }), ...ids({ ip: "2001:db8:5000::/44" })]);
    for (const s of both) expect(byPd.has(s.id)).toBe(false);
    expect(byPd.size).toBe(
      only((s) => s.ipv6?.startsWith("2001:db8:4") || s.ipv6?.startsWith("2001:db8:5") || false).length,
    );
  });

  it("pages a filtered list deep in the table as slicing the whole filtered list would", () => {
    const q = { type: "ppp", port: all.find((s) => s.portId !== null)?.portId ?? 1 } as const;
    const whole = allSessions(g, q);
    for (const offset of [0, 1, 31, 32, 33, whole.length - 3, whole.length]) {
      const page = g.sessions.list({ ...q, offset, limit: 7 });
      expect(page.total).toBe(whole.length);
      expect(page.items).toEqual(whole.slice(offset, offset + 7));
    }
    expect(whole.map((s) => s.id)).toEqual(only((s) => s.type === "ppp" && s.portId === q.port));
  });

  describe("as JSON text, from rows kept encoded", () => {
    const text = (h: Gateway, query: Parameters<Gateway["sessions"]["listText"]>[0]) =>
      JSON.parse(h.sessions.listText(query)) as ReturnType<Gateway["sessions"]["list"]>;

    it("answers every page and filter as the list built afresh", () => {
      for (const query of [
        {},
        { offset: 20, limit: 10 },
        { limit: 500 },
        { encap: "pppoe-lac" },
        { walledGarden: true },
        { username: "a" },
        { vrf: "nowhere" },
      ]) {
        expect(text(g, query)).toEqual(g.sessions.list(query));
      }
    });

    it("shows a row served again with its uptime moved on by the time that passed", () => {
      const h = gateway(profile(), 52, 3600);
      const before = text(h, { limit: 500 }).items;
      h.step(60);
      const after = new Map(text(h, { limit: 500 }).items.map((s) => [s.id, s.uptimeSeconds]));
      const stayed = before.filter((s) => after.has(s.id));
      expect(stayed.length).toBeGreaterThan(100);
      for (const s of stayed) expect(after.get(s.id)).toBe(s.uptimeSeconds + 60);
    });

    it("shows a session disconnected since the same page was served, at the same instant of the model's clock", () => {
      const h = gateway(profile(), 54, 3600);
      const before = text(h, { limit: 5 });
      const ppp = text(h, { type: "ppp", limit: 5 });
      const gone = ppp.items[0]!;
      const mine = text(h, { username: gone.username });
      expect(mine.items.map((s) => s.id)).toContain(gone.id);
      expect(h.disconnect(gone.id).ok).toBe(true);
      // Newest first: the page closes up over the session that went, and the count before paging is one less.
      const pppAfter = text(h, { type: "ppp", limit: 5 });
      expect(pppAfter.total).toBe(ppp.total - 1);
      expect(pppAfter.items.slice(0, 4)).toEqual(ppp.items.slice(1));
      const mineAfter = text(h, { username: gone.username });
      expect(mineAfter.items.map((s) => s.id)).not.toContain(gone.id);
      expect(mineAfter.total).toBe(mine.total - 1);
      const after = text(h, { limit: 5 });
      expect(after.total).toBe(before.total - 1);
      expect(after).toEqual(h.sessions.list({ limit: 5 }));
    });

    it("serves a slot's new session, not the row of the one that held it before", () => {
      const h = gateway(profile(), 53, 3600);
      const first = allSessions(h);
      for (let offset = 0; offset < first.length; offset += 500) text(h, { offset, limit: 500 });
      h.scenario({ action: "set-churn-multiplier", multiplier: 20 });
      h.step(4 * 3600);
      const now = allSessions(h);
      const gone = new Set(first.map((s) => s.id));
      // Sessions ended and others began in their slots (the table reuses freed slots first).
      expect(now.filter((s) => !gone.has(s.id)).length).toBeGreaterThan(100);
      expect(first.filter((s) => !now.some((n) => n.id === s.id)).length).toBeGreaterThan(100);
      for (let offset = 0; offset < now.length; offset += 500)
        expect(text(h, { offset, limit: 500 })).toEqual(h.sessions.list({ offset, limit: 500 }));
    });
  });

  it("combines filters with AND", () => {
    const q = { vrf: "cgn-inside", type: "ppp", walledGarden: false, username: "sub0000" } as const;
    expect(ids(q)).toEqual(only((s) => s.vrf === "cgn-inside" && s.type === "ppp" && s.username.includes("sub0000")));
  });

  it("describes sessions with the spec's fields", () => {
    const s = all[0];
    expect(Object.keys(s ?? {}).sort()).toEqual(
      [
        "encap",
        "id",
        "ipv4",
        "ipv6",
        "mac",
        "plan",
        "portId",
        "svlan",
        "type",
        "uptimeSeconds",
        "username",
        "vlan",
        "vrf",
        "walledGarden",
      ].sort(),
    );
    expect(s?.mac).toMatch(/^([0-9a-f]{2}:){5}[0-9a-f]{2}$/);
    for (const x of all) expect(x.type).toBe(x.encap === "ipoe" ? "ipoe" : "ppp");
  });
});

describe("MAC text", () => {
  // Hand-worked: 16 high bits then 32 low bits, each byte two lower-case hex digits, leading zeros kept.
  it.each([
    [0x0a1b, 0x2c3d4e5f, "0a:1b:2c:3d:4e:5f"],
    [0, 0, "00:00:00:00:00:00"],
    [0xffff, 0xffffffff, "ff:ff:ff:ff:ff:ff"],
    [0x0002, -1, "00:02:ff:ff:ff:ff"],
    [0x00e0, 0x4c000102, "00:e0:4c:00:01:02"],
  ])("formats %i and %i as %s", (hi, lo, text) => {
    expect(formatMac(hi, lo)).toBe(text);
  });
});
