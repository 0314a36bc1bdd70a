/** The configuration page's model: its tree, words, checks as typed, and the candidate as a change set. */
import { describe, expect, it } from "vitest";
import { CONFIG_KEYS } from "../../src/config/registry.ts";
import {
  EMPTY_CANDIDATE,
  candidateRows,
  changeSetOf,
  childSentence,
  controlOf,
  keyLabel,
  keySentence,
  numberOf,
  placeOfPointer,
  plainSentence,
  problemOf,
  sectionOf,
  unitOf,
  wireText,
  type Candidate,
  type SchemaKey,
  type ValueSpec,
} from "../../ui/pages/config-model.ts";

const spec = (over: Partial<ValueSpec>): ValueSpec => ({
  type: "string",
  default: null,
  secret: false,
  listMode: false,
  choices: null,
  minimum: null,
  maximum: null,
  description: "",
  ...over,
});

describe("the configuration tree", () => {
  it("puts every key of the registry in a named section, none in Other", () => {
    expect(CONFIG_KEYS.filter((k) => sectionOf(k.path).id === "other").map((k) => k.path)).toEqual([]);
    expect(sectionOf("igp.protocol").title).toBe("Routing");
    expect(sectionOf("alarms.webhookAllowlist").title).toBe("Allowed destinations");
    expect(sectionOf("alarms.sinks").title).toBe("Alarms and logging");
  });

  it("says every key and child in a sentence a person reads: no code marks, no API references, no 'null ='", () => {
    const sentences = CONFIG_KEYS.flatMap((k) => [
      keySentence(k),
      ...(k.kind === "list"
        ? Object.entries(k.children).map(([name, c]) => childSentence(k.path, { name, description: c.description }))
        : []),
    ]);
    expect(sentences.length).toBeGreaterThan(150);
    const bad = sentences.filter((t) => /`|\bnull\b|\s=\s|\b(GET|PUT|POST|DELETE) \/|src\/|^[a-z]|[^.!?]$/.test(t));
    expect(bad).toEqual([]);
  });

  it("rewrites the API's wording by rule", () => {
    expect(plainSentence("VRF of the session: a configured VRF or `default`; null = `default`")).toBe(
      "VRF of the session: a configured VRF or default. Empty: default.",
    );
    expect(plainSentence("downstream packet-rate limit; 0 = none")).toBe("Downstream packet-rate limit; 0: none.");
    expect(
      plainSentence(
        "address pools AAA hands out (spec AddressPool), hot-applied: GET /api/v1/address-pools follows at once",
      ),
    ).toBe("Address pools AAA hands out (spec AddressPool).");
    expect(plainSentence("`webhook`, `smtp` or `bus`")).toBe("One of webhook, smtp or bus.");
  });

  it("labels a key by its last part, with the unit the value is typed in", () => {
    expect(keyLabel("acme.renewBeforeDays")).toBe("Renew before");
    expect(unitOf("acme.renewBeforeDays")).toBe("days");
    expect(keyLabel("bgp.localAs")).toBe("Local AS");
    expect(keyLabel("igp.protocol")).toBe("IGP");
    expect(unitOf("timeouts.udp")).toBe("s");
    expect(unitOf("holdTime")).toBe("s");
    expect(unitOf("timeoutMs")).toBe("ms");
    expect(unitOf("downloadRateKbps")).toBe("kb/s");
    expect(unitOf("tableId")).toBeNull();
  });
});

describe("controls and checks as typed", () => {
  it("gives each type the control it calls for", () => {
    expect(controlOf(spec({ type: "boolean" }))).toBe("switch");
    expect(controlOf(spec({ type: "enum", choices: ["none", "ospf", "isis"] }))).toBe("select");
    expect(controlOf(spec({ type: "afiSafi", listMode: true, choices: ["ipv4Unicast", "ipv6Unicast"] }))).toBe(
      "choices",
    );
    expect(controlOf(spec({ type: "string", references: "vrfs" }))).toBe("select");
    expect(controlOf(spec({ type: "uint16", minimum: 1, maximum: 365 }))).toBe("number");
    expect(controlOf(spec({ type: "prefix", listMode: true }))).toBe("rows");
    expect(controlOf(spec({ type: "string", secret: true }))).toBe("secret");
    expect(controlOf(spec({ type: "pem", managedBy: "POST /api/v1/config/webui/certificate" }))).toBe("managed");
  });

  it("takes numbers as people type them, thousands separators included", () => {
    expect(numberOf("3,500")).toBe(3500);
    expect(numberOf(" 3 500 ")).toBe(3500);
    expect(numberOf("65_536")).toBe(65536);
    expect(numberOf("3.5")).toBeNull();
    expect(wireText(spec({ type: "uint32", minimum: 0, maximum: 4294967295 }), "3,500")).toBe("3500");
    expect(wireText(spec({ type: "prefix", listMode: true }), "10.0.0.0/8, 192.168.0.0/16\n")).toBe(
      "10.0.0.0/8\n192.168.0.0/16",
    );
  });

  it("says what is wrong before anything is sent", () => {
    expect(problemOf("gre.circuits/remote", spec({ type: "ip" }), "198.51.100.300")).toBe(
      "Type an IPv4 or IPv6 address.",
    );
    expect(problemOf("gre.circuits/remote", spec({ type: "ip" }), "198.51.100.30")).toBeNull();
    // IEEE 802.1Q: a VLAN id is 0 to 4094.
    expect(problemOf("x/vlan", spec({ type: "uint16", minimum: 0, maximum: 4094 }), "4095")).toBe(
      "Type a number from 0 to 4094.",
    );
    expect(problemOf("x/vlan", spec({ type: "uint16", minimum: 0, maximum: 4094 }), "1,017")).toBeNull();
    expect(problemOf("x", spec({ type: "uint16", minimum: 0, maximum: 4094 }), "ten")).toBe("Type a whole number.");
    expect(
      problemOf(
        "webUi.listeners",
        spec({ type: "url", listMode: true }),
        "https://127.0.0.1:8443\nhttps://example.net/x",
      ),
    ).toBe("https://example.net/x: Type a listener as https://address:port (an IP address and a port, no path).");
    expect(problemOf("routing.routerId", spec({ type: "ipv4" }), "")).toBeNull();
    expect(
      problemOf("vrfs/tableId", spec({ type: "uint32", required: true, minimum: 0, maximum: 4294967295 }), ""),
    ).toBe("Required.");
    expect(problemOf("igp.interfaces/address", spec({ type: "interfaceAddress" }), "10.0.0.1/30")).toBeNull();
    expect(problemOf("igp.interfaces/address", spec({ type: "interfaceAddress" }), "10.0.0.1/33")).not.toBeNull();
  });
});

describe("the candidate", () => {
  const values = {
    fields: { "routing.routerId": "10.0.0.2", "acme.enabled": "false", "webUi.privateKey": "********" },
    lists: { vrfs: [{ key: "cust-a", values: { tableId: "100", rd: "64500:100" } }] },
  };
  const schema = [
    { path: "routing.routerId", secret: false, children: [] },
    { path: "acme.enabled", secret: false, children: [] },
    {
      path: "vrfs",
      secret: false,
      children: [
        { name: "tableId", secret: false },
        { name: "rd", secret: false },
      ],
    },
  ] as unknown as SchemaKey[];
  const candidate: Candidate = {
    fields: { "routing.routerId": "10.9.9.9", "acme.enabled": "false" },
    items: [
      { listPath: "vrfs", key: "cust-a", isNew: false, delete: false, fields: { rd: "64500:101" } },
      { listPath: "vrfs", key: "cust-b", isNew: true, delete: false, fields: { tableId: "101" } },
      { listPath: "vrfs", key: "old", isNew: false, delete: true, fields: {} },
    ],
  };

  it("is the change set PUT /config takes, with its comment", () => {
    expect(changeSetOf(candidate, " router id from the browser ")).toEqual({
      fields: { "routing.routerId": "10.9.9.9", "acme.enabled": "false" },
      listOps: [
        { listPath: "vrfs", key: "cust-a", delete: false, fields: { rd: "64500:101" } },
        { listPath: "vrfs", key: "cust-b", delete: false, fields: { tableId: "101" } },
        { listPath: "vrfs", key: "old", delete: true, fields: {} },
      ],
      comment: "router id from the browser",
    });
    expect(changeSetOf(EMPTY_CANDIDATE, "")).toEqual({});
  });

  it("lists what it changes, value by value, leaving out what it sets to what it is", () => {
    expect(candidateRows(candidate, values, schema, "********")).toEqual([
      { pointer: "#/fields/routing.routerId", place: "Routing · Router ID", from: "10.0.0.2", to: "10.9.9.9" },
      { pointer: "#/lists/vrfs/cust-a/rd", place: "VRFs · cust-a · RD", from: "64500:100", to: "64500:101" },
      { pointer: "#/lists/vrfs/cust-b", place: "VRFs · cust-b", from: null, to: "added" },
      { pointer: "#/lists/vrfs/cust-b/tableId", place: "VRFs · cust-b · Table ID", from: null, to: "101" },
      { pointer: "#/lists/vrfs/old", place: "VRFs · old", from: "present", to: "deleted" },
    ]);
  });

  it("places a refusal's pointer on the page", () => {
    expect(placeOfPointer("#/fields/routing.routerId")).toEqual({ kind: "field", path: "routing.routerId" });
    expect(placeOfPointer("#/lists/routing.staticRoutes/default:10.0.0.0~18/nextHop")).toEqual({
      kind: "item",
      listPath: "routing.staticRoutes",
      key: "default:10.0.0.0/8",
      child: "nextHop",
    });
    expect(placeOfPointer("#/lists/vrfs/cust-a")).toEqual({
      kind: "item",
      listPath: "vrfs",
      key: "cust-a",
      child: null,
    });
    expect(placeOfPointer("#/lists/vrfs")).toEqual({ kind: "list", listPath: "vrfs" });
    expect(placeOfPointer("#/comment")).toEqual({ kind: "other" });
  });
});
