/**
 * Address pools, the wire contract: a pool with its subnets and utilisation, the blocks it holds, and the section's
 * operations.
 */
import { z } from "zod";
import { pageQuery } from "./common.ts";
import { operation } from "./contract.ts";

const int32 = z.int32();
const count = z.int().min(0);

export const AddressPoolSubnet = z
  .object({
    prefix: z.string(),
    announce: z.boolean(),
    size: count,
    used: count,
    free: count,
    offered: count.meta({
      description: "held by a DHCP OFFER or a PPP negotiation until it completes or its hold lapses",
    }),
    quarantined: count.meta({ description: "declined by a DHCP client; returns after one hour" }),
  })
  .meta({ id: "AddressPoolSubnet" });
export type AddressPoolSubnet = z.output<typeof AddressPoolSubnet>;

export const AddressPool = z
  .object({
    name: z.string().meta({ description: "pool name; the reference returned by AAA" }),
    family: z.enum(["ipv4", "ipv6-wan", "ipv6-pd"]),
    vrf: z.string().nullable().meta({ description: "VRF of the pool's addresses; null = default table" }),
    delegationLength: z
      .int()
      .meta({ description: "prefix length handed to each subscriber (32, 64 or the PD length)" }),
    description: z.string(),
    size: count.meta({ description: "allocatable blocks on this appliance (excluded addresses not counted)" }),
    used: count.meta({ description: "blocks held: committed to sessions, on offer, or quarantined" }),
    free: count.meta({ description: "blocks available; `used + free = size`" }),
    offered: count.meta({ description: "of `used`, blocks on offer (Σ of the subnets' `offered`)" }),
    quarantined: count.meta({
      description: "of `used`, blocks quarantined after a DHCP decline (Σ of the subnets' `quarantined`)",
    }),
    utilisationPercent: z.number().meta({ description: "used as a percentage of size, two decimals" }),
    allocationFailures: count.meta({ description: "allocations refused since start because no block was free" }),
    cgnTranslated: z
      .boolean()
      .meta({ description: "IPv4 pool in a VRF bound to on-box CGN (private addresses, never announced)" }),
    exclude: z.array(z.string()).meta({ description: "addresses or prefixes never allocated" }),
    subnets: z.array(AddressPoolSubnet).meta({ description: "subnets allocated from, in preference order" }),
  })
  .meta({ id: "AddressPool" });
export type AddressPool = z.output<typeof AddressPool>;

export const AddressPoolAllocation = z
  .object({
    prefix: z.string(),
    kind: z.enum(["dynamic", "static", "offered", "quarantined", "reserved"]).meta({
      description:
        "`dynamic` (committed to a session), `static`, `offered`, `quarantined`, or " +
        "`reserved` (held by a scenario fill)",
    }),
    sessionId: z.int().min(0).meta({ description: "0 when no session holds the block" }),
    username: z.string(),
    vrf: z.string(),
    static: z.boolean().meta({
      description:
        "a statically assigned address inside the pool: never handed out, not " +
        "disconnected if its subnet is removed (it then lies outside the pools)",
    }),
  })
  .meta({ id: "AddressPoolAllocation" });
export type AddressPoolAllocation = z.output<typeof AddressPoolAllocation>;

export const AddressPoolAllocationsPage = z
  .object({
    total: int32.meta({ description: "allocations in the pool before paging; equals the pool's `used`" }),
    offset: int32,
    limit: int32.meta({ description: "effective page size" }),
    items: z.array(AddressPoolAllocation).meta({ description: "ordered by prefix" }),
  })
  .meta({ id: "AddressPoolAllocationsPage" });
export type AddressPoolAllocationsPage = z.output<typeof AddressPoolAllocationsPage>;

// The spec gives this limit a "range" where the other lists say "clamped"; out-of-range values are clamped here too,
// never refused.
const AllocationsQuery = pageQuery(100, 1000);

/** The section's operations. */
export const addressPools = {
  list: operation({
    method: "GET",
    path: "/api/v1/address-pools",
    section: "Address pools",
    summary: "Every configured pool with its subnets and utilisation",
    description:
      "One entry per item of the configuration's `addressPools` list, in its order, " +
      "and the pools follow a commit at once: an added subnet's blocks count in `size` " +
      "and `free` straight away; " +
      ("a removed subnet or pool disconnects the dynamic sessions holding blocks in it " +
        "and frees what they held, while a static allocation stays with its session " +
        "(outside the pools from then on); ") +
      ("a new exclude takes its blocks out of `size` and disconnects a session holding " +
        "one. `used + free = size` and the subnets add up to the pool at every instant."),
    fp: true,
    response: { description: "array of AddressPool, one per configured pool", schema: z.array(AddressPool) },
    examples: {
      response: [
        {
          name: "residential-v4",
          family: "ipv4",
          vrf: null,
          delegationLength: 32,
          description: "public IPv4 for residential subscribers",
          size: 1534,
          used: 1046,
          free: 488,
          offered: 5,
          quarantined: 1,
          utilisationPercent: 68.19,
          allocationFailures: 0,
          cgnTranslated: false,
          exclude: ["198.18.0.1/32", "198.18.4.1/32"],
          subnets: [
            { prefix: "198.18.0.0/22", announce: true, size: 1023, used: 1023, free: 0, offered: 5, quarantined: 1 },
            { prefix: "198.18.4.0/23", announce: true, size: 511, used: 23, free: 488, offered: 0, quarantined: 0 },
          ],
        },
        {
          name: "cgn-inside-v4",
          family: "ipv4",
          vrf: "cgn-inside",
          delegationLength: 32,
          description: "RFC 6598 shared space behind CGN",
          size: 3840,
          used: 671,
          free: 3169,
          offered: 0,
          quarantined: 2,
          utilisationPercent: 17.47,
          allocationFailures: 0,
          cgnTranslated: true,
          exclude: ["100.64.0.0/24"],
          subnets: [
            { prefix: "100.64.0.0/20", announce: false, size: 3840, used: 671, free: 3169, offered: 0, quarantined: 2 },
          ],
        },
      ],
    },
  }),
  allocations: operation({
    method: "GET",
    path: "/api/v1/address-pools/{name}/allocations",
    section: "Address pools",
    summary: "The blocks a pool holds, ordered by prefix and paged",
    description:
      "Every held block: committed to a session, static, on offer, quarantined or " +
      "reserved; `total` equals the pool's `used`. 404 when no pool has that name " +
      "(exact match), a pool deleted from the configuration included. " +
      ("A `static` block is a local subscriber's configured address (or one the " +
        "appliance reserves), never handed out; when its subnet is removed it leaves " +
        "this list with the subnet, and its session is not disconnected. ") +
      "`limit` has the range 1-1000; a value outside it is clamped to it, as on every other list, not refused.",
    fp: true,
    params: z.object({ name: z.string().min(1).max(256).meta({ description: "pool name" }) }),
    query: AllocationsQuery,
    response: { description: "AddressPoolAllocationsPage", schema: AddressPoolAllocationsPage },
    errors: [404],
    examples: {
      params: { name: "residential-v4" },
      query: { offset: 0, limit: 2 },
      response: {
        total: 1046,
        offset: 0,
        limit: 2,
        items: [
          {
            prefix: "198.18.0.0",
            kind: "dynamic",
            sessionId: 2,
            username: "sub0000010@isp.example",
            vrf: "default",
            static: false,
          },
          {
            prefix: "198.18.0.2",
            kind: "dynamic",
            sessionId: 3,
            username: "sub0001226@isp.example",
            vrf: "default",
            static: false,
          },
        ],
      },
      errors: { 404: "no address pool 'residential-v4'" },
    },
  }),
};
