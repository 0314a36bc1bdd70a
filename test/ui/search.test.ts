/** What the header search takes typed text to be: the kinds a NOC engineer types, worked by hand. */
import { describe, expect, it } from "vitest";
import { classify } from "../../ui/pages/search-terms.ts";

describe("reading what was typed into the subscriber search", () => {
  it.each([
    ["100.64.12.7", { kind: "ip", value: "100.64.12.7" }],
    ["100.64.12.0/24", { kind: "ip", value: "100.64.12.0/24" }],
    ["2001:DB8:1::5", { kind: "ip", value: "2001:db8:1::5" }],
    ["2001:db8:1::/48", { kind: "ip", value: "2001:db8:1::/48" }],
    ["02:00:5E:10:00:01", { kind: "mac", value: "02:00:5e:10:00:01" }],
    ["02-00-5e-10-00-01", { kind: "mac", value: "02:00:5e:10:00:01" }],
    ["0200.5e10.0001", { kind: "mac", value: "02:00:5e:10:00:01" }],
    ["100.200", { kind: "vlan", value: "100.200" }],
    ["1017", { kind: "vlan", value: "1017" }],
    ["  alice@isp.example ", { kind: "username", value: "alice@isp.example" }],
    ["sub-00042", { kind: "username", value: "sub-00042" }],
  ])("takes %j as %j", (text, expected) => {
    expect(classify(text)).toEqual(expected);
  });
});
