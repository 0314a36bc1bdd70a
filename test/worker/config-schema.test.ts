import { describe, expect, it } from "vitest";
import type { z } from "zod";
import type { ConfigSchemaDocument } from "../../src/schemas/config.ts";
import { bearer, call, tokenWithRole } from "./client.ts";
import { admin, getConfig } from "./config-client.ts";

const schema = async () =>
  await (await call("/api/v1/config/schema", { headers: admin })).json<z.output<typeof ConfigSchemaDocument>>();

describe("configuration schema", () => {
  it("describes every key GET /config shows, with its apply mode", async () => {
    const { redactionPlaceholder, keys } = await schema();
    expect(redactionPlaceholder).toBe("********");
    const config = await getConfig();
    expect(
      keys
        .filter((k) => !k.keyedList)
        .map((k) => k.path)
        .sort(),
    ).toEqual(Object.keys(config.fields).sort());
    expect(
      keys
        .filter((k) => k.keyedList)
        .map((k) => k.path)
        .sort(),
    ).toEqual(Object.keys(config.lists).sort());
    const apply = Object.fromEntries(keys.map((k) => [k.path, k.apply]));
    expect(apply).toMatchObject({
      "webUi.listeners": "restart",
      "webUi.hostname": "restart",
      "webUi.certificate": "hot",
      "webUi.privateKey": "hot",
      "acme.enabled": "hot",
      vrfs: "hot",
      sourceVrfRules: "hot",
      addressPools: "hot",
      "radius.servers": "hot",
      "ipsec.enabled": "hot",
      "bgp.localAs": "hot",
      "routing.routerId": "hot",
      "routing.staticRoutes": "hot",
      "igp.protocol": "hot",
      "igp.interfaces": "hot",
      "captures.mirrorAllowlist": "hot",
      "cgn.maxBindings": "restart",
      "cgn.maxFlows": "restart",
    });
  });

  it("marks list mode, secrets, keyed-list children, uniqueness and references", async () => {
    const { keys } = await schema();
    const byPath = Object.fromEntries(keys.map((k) => [k.path, k]));
    expect(byPath["webUi.listeners"]).toMatchObject({ listMode: true, default: "https://127.0.0.1:8443" });
    expect(byPath["webUi.privateKey"]).toMatchObject({
      secret: true,
      managedBy: "POST /api/v1/config/webui/certificate",
    });
    const vrfs = byPath.vrfs!;
    expect(vrfs).toMatchObject({
      keyedList: true,
      type: "keyedList",
      key: { name: "name" },
      unique: ["tableId", "rd"],
    });
    expect(vrfs.children.map((c) => c.name)).toEqual([
      "tableId",
      "rd",
      "importRt",
      "exportRt",
      "gatewayIp",
      "gatewayIpv6",
      "l2tpEndpointIp",
      "originateDefaultRoute",
    ]);
    expect(vrfs.children.find((c) => c.name === "tableId")).toMatchObject({ type: "uint32", required: true });
    expect(vrfs.children.find((c) => c.name === "importRt")).toMatchObject({ listMode: true });
    expect(byPath.sourceVrfRules!.children.find((c) => c.name === "ingestVrf")).toMatchObject({
      references: "vrfs",
      required: true,
    });
    expect(byPath.addressPools).toMatchObject({ keyedList: true, key: { name: "name" } });
    expect(byPath.addressPools!.children.map((c) => [c.name, c.type, c.listMode])).toEqual([
      ["family", "enum", false],
      ["vrf", "string", false],
      ["delegationLength", "uint8", false],
      ["description", "string", false],
      ["subnets", "poolSubnet", true],
      ["exclude", "prefix", true],
    ]);
    expect(byPath.addressPools!.children.find((c) => c.name === "vrf")).toMatchObject({ references: "vrfs" });
    const secrets = keys.flatMap((k) => [
      ...(k.secret ? [k.path] : []),
      ...k.children.filter((c) => c.secret).map((c) => `${k.path}/${c.name}`),
    ]);
    expect(secrets.sort()).toEqual([
      "alarms.sinks/credential",
      "bgp.neighbors/password",
      "ipsec.peers/psk",
      "login.users/password",
      "radius.servers/secret",
      "radius.subscriberPassword",
      "subscribers.local.pppoe/password",
      "webUi.peers/credential",
      "webUi.privateKey",
    ]);
  });

  it(
    "gives each enumeration's choices and each integer's range, so a form offers a " + "select and a bounded number",
    async () => {
      const { keys } = await schema();
      const byPath = Object.fromEntries(keys.map((k) => [k.path, k]));
      const child = (list: string, name: string) => byPath[list]!.children.find((c) => c.name === name);
      // The IGP the spec's routing section names; the syslog severities of RFC 5424 §6.2.1, most severe first.
      expect(byPath["igp.protocol"]).toMatchObject({ choices: ["none", "ospf", "isis"], minimum: null, maximum: null });
      expect(child("logging.syslog", "severity")!.choices).toEqual([
        "emergency",
        "alert",
        "critical",
        "error",
        "warning",
        "notice",
        "info",
        "debug",
      ]);
      // The spec's roles: `admin` is accepted as input for `super-user`, not offered as a fourth.
      expect(child("login.users", "role")!.choices).toEqual(["read-only", "operator", "super-user"]);
      // A list-mode enumeration: each element is one of the BGP address families.
      expect(child("bgp.neighbors", "addressFamilies")).toMatchObject({
        listMode: true,
        choices: ["ipv4Unicast", "ipv6Unicast", "ipv4Vpn", "ipv6Vpn"],
      });
      // IEEE 802.1Q: VLAN ids 0-4094 (4095 reserved); a uint16 port 1-65535 for syslog over TCP.
      expect(child("subscribers.local.ipoe", "vlan")).toMatchObject({ minimum: 0, maximum: 4094, choices: null });
      expect(child("logging.syslog", "port")).toMatchObject({ minimum: 1, maximum: 65535 });
      expect(byPath["bgp.localAs"]).toMatchObject({ minimum: 1, maximum: 4294967295 });
      expect(byPath["webUi.hostname"]).toMatchObject({ choices: null, minimum: null, maximum: null });
    },
  );

  it("is readable by every role", async () => {
    expect((await call("/api/v1/config/schema", { headers: bearer(await tokenWithRole("read-only")) })).status).toBe(
      200,
    );
  });
});
