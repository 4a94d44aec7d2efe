import type { ShipmentStatus } from "./carrier";

/**
 * Aramex's tracking update codes (TrackShipments' `UpdateCode`) in the shop's words. Aramex
 * publishes no list of these codes: its Tracking API manual ("Your Guide to Embedding Aramex's
 * Tracking API", Table 4, the response elements) and its Tracking WSDL only say that each
 * TrackingResult carries an UpdateCode, an UpdateDescription, an UpdateDateTime and an
 * UpdateLocation. So this table is built from Aramex's own answers where one has been published,
 * and otherwise from what independent public integrations map a code to. Each row says which
 * (`evidence`) and where (`source`):
 *
 * - "answer": the code and its words appear in an answer of Aramex's API published as is: the
 *   tracking sample in the README of the octw/aramex SDK (packagist.org/packages/octw/aramex,
 *   "Track Shipments") and a JSON answer of the TrackShipments endpoint kept in the Peko app's
 *   model file. Both are in test/fixtures/aramex/ (README.md there gives the sources).
 * - "integrations": the meaning public integrations agree on, read in their code: a Jordanian COD
 *   service's Aramex driver (SH005 and SH006 complete a delivery, SH069 returns it), an Egyptian
 *   order dashboard (SH005 delivered; SH012, SH014, SH160, SH003 "delivery in progress"; SH033
 *   "delivery suspended"; SH069 "return verified"), a Tunisian shop's adapter (SH005 delivered,
 *   SH069 "returned to shipper") and an Indian courier relay (SH006 delivered, SH033 attempted).
 *   The words given for these rows are the stand-in's; Aramex's own wording may differ, and the
 *   adapter keeps whatever words Aramex sends.
 *
 * The weakest row is SH012 as the pickup: only its place in the dashboard's sequence (after
 * creation, before out for delivery) supports it. Were it wrong, a parcel would read as picked up
 * a step early or late, never as delivered or returned.
 *
 * A code not in the table is read from its words where they are unmistakable (`statusOfUpdate`
 * below), and otherwise leaves the parcel where its previous step put it: an unknown step (a
 * customs note, a COD settlement line) never moves a parcel backwards or forwards.
 *
 * Aramex documents no cancellation step, and its Shipping Services API has no CancelShipment
 * (aramex.ts says what the adapter does instead): no code here reads as "cancelled".
 */
export interface AramexUpdateCode {
  code: string;
  status: Exclude<ShipmentStatus, "cancelled">;
  /** Aramex's words where published ("answer"); the stand-in's otherwise. */
  description: string;
  evidence: "answer" | "integrations";
  source: string;
}

const SDK = "octw/aramex README, tracking sample";
const PEKO = "JSON TrackShipments answer in the Peko app's model";

export const ARAMEX_UPDATE_CODES: readonly AramexUpdateCode[] = [
  { code: "SH014", status: "created", description: "Record created.", evidence: "answer", source: `${SDK}; ${PEKO}` },
  {
    code: "SH012",
    status: "picked_up",
    description: "Picked up from shipper",
    evidence: "integrations",
    source: "Egyptian order dashboard: after SH014, before SH003",
  },
  {
    code: "SH160",
    status: "in_transit",
    description: "Under processing at operations facility",
    evidence: "answer",
    source: SDK,
  },
  { code: "SH003", status: "out_for_delivery", description: "Out for Delivery", evidence: "answer", source: SDK },
  {
    code: "SH033",
    status: "delivery_attempted",
    description: "Attempted delivery",
    evidence: "integrations",
    source: "Egyptian order dashboard (suspended); Indian courier relay (attempted)",
  },
  { code: "SH005", status: "delivered", description: "Delivered", evidence: "answer", source: SDK },
  {
    code: "SH006",
    status: "delivered",
    description: "Collected by consignee",
    evidence: "integrations",
    source: "Jordanian COD service (completed); Indian courier relay (delivered)",
  },
  {
    code: "SH069",
    status: "returned_to_sender",
    description: "Returned to shipper",
    evidence: "integrations",
    source: "Jordanian COD service; Egyptian order dashboard; Tunisian shop adapter",
  },
];

const BY_CODE = new Map(ARAMEX_UPDATE_CODES.map((row) => [row.code, row]));

/** The table's row for a code, if it has one. */
export const updateCode = (code: string): AramexUpdateCode | undefined => BY_CODE.get(code.trim().toUpperCase());

/** The first row for a status: the code the stand-in writes when a parcel is moved to it. */
export function codeForStatus(status: ShipmentStatus): AramexUpdateCode | undefined {
  return ARAMEX_UPDATE_CODES.find((row) => row.status === status);
}

/**
 * Words that say plainly where a parcel is, for a code the table lacks; checked in this order
 * ("not delivered" is an attempt, not a delivery). Nothing matched: null, the step changes nothing.
 */
const WORDS: [RegExp, Exclude<ShipmentStatus, "cancelled">][] = [
  [/return(ed)? to (shipper|sender|origin)/i, "returned_to_sender"],
  [/out for delivery/i, "out_for_delivery"],
  [/attempt|not delivered|undelivered|unable to deliver|consignee not available/i, "delivery_attempted"],
  [/^delivered\b|collected by consignee/i, "delivered"],
  [/picked up|collected from shipper/i, "picked_up"],
];

/** Where a tracking update puts a parcel: by its code, else its words, else null (no change). */
export function statusOfUpdate(code: string, description: string): Exclude<ShipmentStatus, "cancelled"> | null {
  const row = updateCode(code);
  if (row) return row.status;
  for (const [words, status] of WORDS) if (words.test(description.trim())) return status;
  return null;
}
