import type { ShipmentStatus } from "./carrier";

/**
 * Aramex's tracking update codes (TrackShipments' `UpdateCode`) in the shop's words. Aramex
 * publishes no complete list of these codes: its Tracking API manual ("Your Guide to Embedding
 * Aramex's Tracking API", Table 4, response elements) only says each TrackingResult carries an
 * UpdateCode, an UpdateDescription, an UpdateDateTime and an UpdateLocation. So this table is built
 * from Aramex's own answers where one has been published, and otherwise from public integrations
 * that agree with each other. `evidence` says which, for every row:
 *
 * - "answer": the code and its words appear in an answer of Aramex's API that was published as
 *   is. Sources: the tracking answer in the README of the octw/aramex Laravel SDK
 *   (github.com/moustafaallahham/aramex-laravel, packagist octw/aramex: SH005 "Delivered",
 *   SH003 "Out for Delivery", SH160 "Under processing at operations facility", SH014 "Record
 *   created."), and a JSON answer of the TrackShipments endpoint kept in an app's model file
 *   (SH014 "Record created." with UpdateDateTime "/Date(…+0300)/"); the fixtures under
 *   test/fixtures/aramex/ hold both.
 * - "integrations": the code's meaning is what two or more independent public integrations map it
 *   to (order tools for Saudi, Jordanian, Egyptian and Tunisian shops: SH006 and SH005 both close
 *   a delivery; SH069 is "returned to shipper"; SH012 comes after creation and before delivery;
 *   SH033 suspends a delivery for the consignee). The words given here for these rows are the
 *   stand-in's; Aramex's own wording may differ, and the adapter keeps whatever Aramex sends.
 *
 * A code not in the table is read from its words where they are unmistakable (tracking.ts'
 * `statusOfUpdate`), and otherwise leaves the parcel where its previous step put it: an unknown
 * step (a customs note, a COD settlement line) never moves a parcel backwards or forwards.
 *
 * Aramex documents no cancellation step: a shipment is never "cancelled" by the Shipping Services
 * API (it has no CancelShipment; aramex.ts explains what the adapter does instead).
 */
export interface AramexUpdateCode {
  code: string;
  status: Exclude<ShipmentStatus, "cancelled">;
  /** Aramex's words where published ("answer"); the stand-in's otherwise. */
  description: string;
  evidence: "answer" | "integrations";
}

export const ARAMEX_UPDATE_CODES: readonly AramexUpdateCode[] = [
  { code: "SH014", status: "created", description: "Record created.", evidence: "answer" },
  { code: "SH012", status: "picked_up", description: "Picked up from shipper", evidence: "integrations" },
  {
    code: "SH160",
    status: "in_transit",
    description: "Under processing at operations facility",
    evidence: "answer",
  },
  { code: "SH003", status: "out_for_delivery", description: "Out for Delivery", evidence: "answer" },
  { code: "SH033", status: "delivery_attempted", description: "Attempted delivery", evidence: "integrations" },
  { code: "SH005", status: "delivered", description: "Delivered", evidence: "answer" },
  { code: "SH006", status: "delivered", description: "Collected by consignee", evidence: "integrations" },
  { code: "SH069", status: "returned_to_sender", description: "Returned to shipper", evidence: "integrations" },
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
