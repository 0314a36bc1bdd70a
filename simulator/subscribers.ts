/**
 * The subscriber base. Every subscriber's attributes (encapsulation, realm
 * and VRF, port and VLANs, MAC, plan, dual-stack wishes, local or RADIUS
 * authentication, activity) are a pure function of (seed, subscriber
 * number), so a subscriber that reconnects keeps its username and MAC, and
 * no random draw is spent on them.
 */
import { ENCAPS, type Profile } from "./profile.ts";
import { cumulativeWeights, hash32, hashUnit, pickFromCumulative } from "./random.ts";

/** Encapsulation indices, in the order of ENCAPS. */
export const ENCAP_IPOE = 0;
export const ENCAP_PPPOE_LAC = 2;
export const ENCAP_L2TP = 3;

/** A reusable record of one subscriber's attributes (filled in place to avoid allocation on the setup path). */
export interface SubscriberAttrs {
  encap: number;
  realm: number;
  vrf: number;
  /** Index into profile.ports, or -1 for an LNS-terminated l2tp session. */
  port: number;
  svlan: number;
  cvlan: number;
  plan: number;
  walledGarden: boolean;
  wantsWan: boolean;
  wantsPd: boolean;
  local: boolean;
  /** Uniform 32-bit value used to pick among equivalent pools ("the reference returned by AAA"). */
  poolPick: number;
  macHi: number;
  macLo: number;
  /** Share of the plan rate used at the daily peak, heavy-tailed across subscribers. */
  activity: number;
}

/** A blank attribute record. */
export function blankAttrs(): SubscriberAttrs {
  return {
    encap: 0,
    realm: 0,
    vrf: 0,
    port: -1,
    svlan: 0,
    cvlan: 0,
    plan: 0,
    walledGarden: false,
    wantsWan: false,
    wantsPd: false,
    local: false,
    poolPick: 0,
    macHi: 0,
    macLo: 0,
    activity: 0,
  };
}

/** Derives subscriber attributes from the profile and seed. */
export class SubscriberBase {
  readonly #profile: Profile;
  readonly #seed: number;
  readonly #encapCum: Float64Array;
  readonly #realmCum: Float64Array[];
  readonly #realmIdx: number[][];
  readonly #portCum: Float64Array;
  readonly #planCum: Float64Array;
  readonly #vrfOfRealm: Int16Array;
  readonly #ouis: number[];
  readonly #ouiCum: Float64Array;
  readonly #domains: string[];

  constructor(profile: Profile, seed: number) {
    this.#profile = profile;
    this.#seed = seed;
    this.#encapCum = cumulativeWeights(ENCAPS.map((e) => profile.encapMix[e]));
    const realms = profile.identities.realms;
    this.#realmIdx = ENCAPS.map((e) => realms.flatMap((r, i) => (r.encaps.includes(e) && r.weight > 0 ? [i] : [])));
    this.#realmCum = this.#realmIdx.map((idx) => cumulativeWeights(idx.map((i) => realms[i]?.weight ?? 0)));
    this.#portCum = cumulativeWeights(profile.ports.map((p) => p.weight));
    this.#planCum = cumulativeWeights(profile.plans.map((p) => p.weight));
    const vrfNames = profile.vrfs.map((v) => v.name);
    this.#vrfOfRealm = Int16Array.from(realms.map((r) => vrfNames.indexOf(r.vrf)));
    this.#ouis = profile.identities.macOuis.map((o) => parseInt(o.replaceAll(":", ""), 16));
    // CPE vendors are not an even split: the ISP's supplied router dominates, then older models and customers' own.
    this.#ouiCum = cumulativeWeights(profile.identities.macOuiWeights ?? this.#ouis.map((_, k) => 1 / (k + 1)));
    this.#domains = realms.map((r) => r.domain);
  }

  /** Number of subscribers. */
  get count(): number {
    return this.#profile.population.subscribers;
  }

  /** Fills `out` with subscriber `sub`'s attributes. */
  describe(sub: number, out: SubscriberAttrs): SubscriberAttrs {
    const seed = this.#seed;
    const p = this.#profile;
    const encap = pickFromCumulative(this.#encapCum, hashUnit(seed, sub, 1) * (this.#encapCum[3] ?? 0));
    const realmCum = this.#realmCum[encap] as Float64Array;
    const realmLocal = pickFromCumulative(realmCum, hashUnit(seed, sub, 2) * (realmCum[realmCum.length - 1] ?? 0));
    const realm = this.#realmIdx[encap]?.[realmLocal] ?? 0;
    out.encap = encap;
    out.realm = realm;
    out.vrf = this.#vrfOfRealm[realm] ?? 0;
    if (encap === ENCAP_L2TP) {
      // LNS-terminated: the session arrives in an L2TP tunnel, not on a subscriber-facing port.
      out.port = -1;
      out.svlan = 0;
      out.cvlan = 0;
    } else {
      const port = pickFromCumulative(
        this.#portCum,
        hashUnit(seed, sub, 3) * (this.#portCum[this.#portCum.length - 1] ?? 0),
      );
      const v = p.ports[port]?.vlans;
      out.port = port;
      // Sequential by subscriber number, so S-VLAN/C-VLAN pairs are unique until the plan wraps.
      out.cvlan = v ? v.cvlanFirst + (sub % v.cvlanCount) : 0;
      out.svlan = v ? v.svlanFirst + (Math.floor(sub / (v?.cvlanCount ?? 1)) % v.svlanCount) : 0;
    }
    out.plan = pickFromCumulative(
      this.#planCum,
      hashUnit(seed, sub, 4) * (this.#planCum[this.#planCum.length - 1] ?? 0),
    );
    out.walledGarden = hashUnit(seed, sub, 5) < p.walledGardenShare;
    out.wantsWan = hashUnit(seed, sub, 6) < p.dualStack.wanShare;
    out.wantsPd = hashUnit(seed, sub, 7) < p.dualStack.pdShare;
    out.local = hashUnit(seed, sub, 8) < p.aaa.localShare;
    out.poolPick = hash32(seed, sub, 9);
    const mac = this.mac(sub);
    out.macHi = mac.hi;
    out.macLo = mac.lo;
    const u = hashUnit(seed, sub, 11);
    out.activity = Math.min(1, -Math.log(1 - u) * p.traffic.meanActivity);
    return out;
  }

  /**
   * The subscriber's MAC as 16 high and 32 low bits (what a sessions page needs of `describe`, without its other
   * draws).
   */
  mac(sub: number): { hi: number; lo: number } {
    const cum = this.#ouiCum;
    const oui = this.#ouis[pickFromCumulative(cum, hashUnit(this.#seed, sub, 10) * (cum[cum.length - 1] ?? 0))] ?? 0;
    // An odd multiplier is a bijection on 24 bits: distinct subscribers of one OUI get distinct MACs.
    const nic = Math.imul(sub + 1, 0x9e3779) & 0xffffff;
    return { hi: oui >>> 8, lo: (((oui & 0xff) << 24) | nic) >>> 0 };
  }

  /** The subscriber's username, e.g. `sub0001234@isp.example`. */
  username(sub: number, realm: number): string {
    const p = this.#profile.identities;
    return `${p.usernamePrefix}${String(sub).padStart(p.usernameDigits, "0")}@${this.#domains[realm] ?? ""}`;
  }
}

/** Two lower-case hex digits per byte value: a sessions page formats a MAC per row. */
const HEX_BYTE = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Formats a MAC held as 16 high and 32 low bits. */
export function formatMac(hi: number, lo: number): string {
  const h = HEX_BYTE;
  const high = `${h[(hi >>> 8) & 255]}:${h[hi & 255]}:${h[(lo >>> 24) & 255]}`;
  return `${high}:${h[(lo >>> 16) & 255]}:${h[(lo >>> 8) & 255]}:${h[lo & 255]}`;
}
