/**
 * A session's traffic as a person reads it, each direction named for the
 * subscriber: download is what the appliance sends to the subscriber (the
 * API's `tx`), upload what it receives from them (`rx`). Each direction's
 * rate and packet rate (30 s average), its share of the plan's rate, and its
 * byte and packet counters since the session came up. Pure: no DOM.
 */
import { bitRate, bytes, count } from "../format.ts";
import type { SessionDetail, SessionRates } from "../../src/schemas/sessions.ts";

type Counters = SessionDetail["counters"];
type Rates = Pick<SessionRates, "rxBps" | "txBps" | "rxPps" | "txPps">;
type PlanRates = SessionDetail["planRates"];

/** One direction's figures, as shown. */
export interface DirectionFigures {
  direction: "Download" | "Upload";
  /** Who the traffic goes to or comes from. */
  towards: string;
  rate: string;
  packetRate: string;
  /** The rate's share of the plan's rate in that direction, 0-100 (null when the plan gives none). */
  planShare: number | null;
  planRate: string;
  bytes: string;
  packets: string;
}

/** Both directions, download first: the question a NOC hears is "my download is slow". */
export function trafficOf(counters: Counters, rates: Rates, plan: PlanRates): DirectionFigures[] {
  const share = (bps: number, kbps: number) => (kbps > 0 ? Math.min(100, (bps / (kbps * 1000)) * 100) : null);
  return [
    {
      direction: "Download",
      towards: "to the subscriber",
      rate: bitRate(rates.txBps),
      packetRate: `${count(Math.round(rates.txPps))} pps`,
      planShare: share(rates.txBps, plan.downloadKbps),
      planRate: bitRate(plan.downloadKbps * 1000),
      bytes: bytes(counters.txBytes),
      packets: count(counters.txPackets),
    },
    {
      direction: "Upload",
      towards: "from the subscriber",
      rate: bitRate(rates.rxBps),
      packetRate: `${count(Math.round(rates.rxPps))} pps`,
      planShare: share(rates.rxBps, plan.uploadKbps),
      planRate: bitRate(plan.uploadKbps * 1000),
      bytes: bytes(counters.rxBytes),
      packets: count(counters.rxPackets),
    },
  ];
}

/** A plan's rates in one line: `300 Mb/s down, 50.0 Mb/s up`. */
export const planRatesText = (plan: PlanRates): string =>
  `${bitRate(plan.downloadKbps * 1000)} down, ${bitRate(plan.uploadKbps * 1000)} up`;
