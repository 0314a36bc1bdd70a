/**
 * Config-backed resources follow the registry: a keyed list's child specs
 * decide the REST body (types, defaults, secrets), the configuration children
 * a write sends, and the row a read answers. Expected values are worked by
 * hand from the child specs below.
 */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { configKey, type FieldSpec, type ListKey } from "../../src/config/registry.ts";
import { KeyedList, PLAIN } from "../../src/schemas/keyed-list.ts";
import { ConfigList } from "../../src/routes/keyed-list.ts";

const spec = (over: Partial<FieldSpec> & Pick<FieldSpec, "type">): FieldSpec => ({
  schema: z.any(),
  default: null,
  description: `the ${over.type}`,
  ...over,
});

const LIST: ListKey = {
  kind: "list",
  path: "test.things",
  apply: "hot",
  key: { name: "name", type: "string", schema: z.string(), description: "name" },
  children: {
    address: spec({ type: "ipv4", required: true }),
    note: spec({ type: "string", default: "" }),
    ttl: spec({ type: "uint8", default: 64 }),
    mtu: spec({ type: "uint16" }),
    enabled: spec({ type: "boolean", default: true }),
    prefixes: spec({ type: "cidr", listMode: true, default: [] }),
    secret: spec({ type: "string", required: true, secret: true }),
  },
  description: "things",
};

const things = new KeyedList({ list: LIST });
const thingItems = new ConfigList(things);
const body = (mode: "create" | "replace", input: unknown) => z.object(things.bodyFields(mode)).safeParse(input);

describe("the body", () => {
  it("requires the required children and the secret on creation, and fills in booleans", () => {
    const parsed = body("create", { address: "192.0.2.1", secret: "s3cret" });
    expect(parsed.success && parsed.data).toEqual({ address: "192.0.2.1", secret: "s3cret", enabled: true });
    expect(body("create", { address: "192.0.2.1" }).success).toBe(false);
    expect(body("create", { secret: "s3cret" }).success).toBe(false);
  });

  it("lets a replacement leave the secret out, and takes null for optional children", () => {
    const parsed = body("replace", { address: "192.0.2.1", note: null, ttl: null, mtu: 1400, prefixes: null });
    expect(parsed.success && parsed.data).toEqual({
      address: "192.0.2.1",
      note: null,
      ttl: null,
      mtu: 1400,
      prefixes: null,
      enabled: true,
    });
  });

  it("refuses a value of the wrong shape (a string for an integer)", () => {
    expect(body("replace", { address: "192.0.2.1", mtu: "1400" }).success).toBe(false);
  });

  it("fills in integer defaults when the section says so", () => {
    const applied = new KeyedList({ list: LIST, style: { ...PLAIN, defaults: "apply" } });
    const parsed = z.object(applied.bodyFields("replace")).safeParse({ address: "192.0.2.1" });
    expect(parsed.success && parsed.data.ttl).toBe(64);
  });
});

describe("the children a write sends", () => {
  it("are text, lists or null, with absent members cleared", () => {
    expect(
      thingItems.children(
        { address: "192.0.2.1", mtu: 1400, enabled: false, prefixes: ["10.0.0.0/8"], secret: "s3cret" },
        "create",
      ),
    ).toEqual({
      address: "192.0.2.1",
      note: null,
      ttl: null,
      mtu: "1400",
      enabled: "false",
      prefixes: ["10.0.0.0/8"],
      secret: "s3cret",
    });
  });

  it("keep the stored secret (the placeholder) when a replacement leaves it out, and unset it on creation", () => {
    expect(thingItems.children({ address: "192.0.2.1" }, "replace").secret).toBe("********");
    expect(thingItems.children({ address: "192.0.2.1" }, "create").secret).toBeNull();
  });
});

describe("the row", () => {
  it("shows every child but the secret, each of its type, defaults where nothing is stored", () => {
    expect(Object.keys(things.rowFields())).toEqual(["address", "note", "ttl", "mtu", "enabled", "prefixes"]);
    expect(thingItems.rowValues({ key: "a", values: { address: "192.0.2.1", mtu: 1400, secret: "x" } })).toEqual({
      address: "192.0.2.1",
      note: "",
      ttl: 64,
      mtu: 1400,
      enabled: true,
      prefixes: [],
    });
    expect(ConfigList.secretSet({ key: "a", values: { secret: "x" } }, "secret")).toBe(true);
    expect(ConfigList.secretSet({ key: "a", values: { secret: null } }, "secret")).toBe(false);
  });

  it("admits null only where a child has no default and is not required", () => {
    const row = z.object(things.rowFields());
    const full = { address: "192.0.2.1", note: "", ttl: 64, mtu: null, enabled: true, prefixes: [] };
    expect(row.safeParse(full).success).toBe(true);
    expect(row.safeParse({ ...full, ttl: null }).success).toBe(false);
    expect(row.safeParse({ ...full, address: null }).success).toBe(false);
  });
});

describe("a new child of a local subscriber", () => {
  it("is one edit in the registry: it appears in the body, the children and the row", () => {
    const ipoe = configKey("subscribers.local.ipoe") as ListKey;
    const extended: ListKey = { ...ipoe, children: { ...ipoe.children, vendorClass: spec({ type: "string" }) } };
    const subscribers = new KeyedList({ list: extended });
    const parsed = z
      .object(subscribers.bodyFields("create"))
      .parse({ port: 1, sVlan: 100, vlan: 42, vendorClass: "acme-cpe" });
    expect(new ConfigList(subscribers).children(parsed, "create").vendorClass).toBe("acme-cpe");
    expect(
      new ConfigList(subscribers).rowValues({ key: "1:100:42", values: { vendorClass: "acme-cpe" } }).vendorClass,
    ).toBe("acme-cpe");
    expect(Object.keys(subscribers.rowFields())).toContain("vendorClass");
  });
});
