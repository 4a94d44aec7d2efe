import type { ShipmentStatus } from "../../../../contract/shipping";

/**
 * One interface for every carrier the shop ships with (SMSA, Aramex, SPL, a local courier). The
 * shipping service (shipments.ts) creates parcels, follows them and books return pickups through
 * it; an adapter only speaks its carrier's API. Money is integer halalas, weights whole grams,
 * moments ISO 8601 in UTC. Every adapter has an offline stand-in that answers as the carrier's
 * documented API does, so development and the tests run the adapter's real requests.
 */

/** Where a parcel is picked up or delivered: a Saudi national address where the shopper gave one. */
export interface CarrierAddress {
  name: string;
  phone: string;
  email?: string | null;
  line1: string;
  line2?: string | null;
  district?: string | null;
  city: string;
  postal_code?: string | null;
  /** The national address's short code (4 letters, 4 digits: "RRRD2929"), when known. */
  short_address?: string | null;
  building_number?: string | null;
  additional_number?: string | null;
  /** ISO 3166-1 alpha-2; the shop delivers in Saudi Arabia. */
  country: string;
}

/** What a parcel holds, for the carrier's customs-free domestic description and the pick list. */
export interface CarrierItem {
  sku: string;
  name: string;
  quantity: number;
  /** Halalas, the line's price including VAT. */
  value: number;
}

/** A parcel to create: the shop's reference is unique per parcel (`1042-1`, `1042-2`). */
export interface ShipmentRequest {
  reference: string;
  order_number: string;
  shipper: CarrierAddress;
  consignee: CarrierAddress;
  items: CarrierItem[];
  weight_grams: number;
  /** Halalas the courier collects in cash; 0 for a paid order. */
  cod_amount: number;
  /** Halalas, what the parcel is worth (for the carrier's liability). */
  declared_value: number;
  description: string;
}

export interface CreatedShipment {
  /** The carrier's waybill (air waybill / tracking) number, printed as the label's barcode. */
  waybill: string;
}

/** A return pickup: the carrier collects a parcel from the shopper and brings it to the shop. */
export interface PickupRequest {
  reference: string;
  order_number: string;
  /** The shopper's address, where the courier calls. */
  pickup: CarrierAddress;
  /** The shop's address, where the parcel goes. */
  deliver_to: CarrierAddress;
  items: CarrierItem[];
  weight_grams: number;
  /** The first day the shopper is home, YYYY-MM-DD in the shop's time zone. */
  ready_on: string;
}

export interface BookedPickup {
  /** The carrier's waybill of the return parcel, followed like any other. */
  waybill: string;
  /** The carrier's pickup reference (Aramex's GUID), needed to cancel it. */
  pickup_reference: string | null;
}

/** Where a parcel is in the carrier's hands, in the shop's words (the carrier's own code is kept too). */
export { SHIPMENT_STATUSES, type ShipmentStatus } from "../../../../contract/shipping";

/** One step a carrier reports of a parcel. */
export interface CarrierEvent {
  waybill: string;
  status: ShipmentStatus;
  /** The carrier's own code for the step (Aramex "SH005"), kept for staff. */
  code: string;
  /** The carrier's words, as it sent them. */
  description: string;
  location: string | null;
  /** When it happened (the carrier's clock), ISO 8601 UTC. */
  at: string;
}

/** Cash a carrier collected on delivery and paid over to the shop (or reports it will). */
export interface CarrierRemittance {
  waybill: string;
  /** Halalas collected. */
  amount: number;
  /** The carrier's statement or transfer reference. */
  reference: string;
  /** When the carrier paid it over (or reported it), ISO 8601 UTC. */
  at: string;
}

/** A carrier refused a request (bad address, a shipment already picked up...): the carrier's words. */
export class CarrierRefused extends Error {
  constructor(
    message: string,
    readonly code: string = "refused",
  ) {
    super(message);
  }
}

export interface Carrier {
  /** The id settings name it by ("aramex", "courier"). */
  readonly id: string;
  createShipment(request: ShipmentRequest): Promise<CreatedShipment>;
  /** Cancels a parcel not yet picked up; CarrierRefused once the carrier has it. */
  cancelShipment(waybill: string): Promise<void>;
  /** The steps of these parcels so far (all of them; the caller keeps only what is new). */
  track(waybills: string[]): Promise<CarrierEvent[]>;
  bookPickup(request: PickupRequest): Promise<BookedPickup>;
  /** Cash the carrier reports collected and paid over since a moment (ISO 8601 UTC). */
  remittances(since: string): Promise<CarrierRemittance[]>;
}
