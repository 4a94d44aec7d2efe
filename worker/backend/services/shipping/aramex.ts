import type { Env } from "../../env";
import { statusOfUpdate } from "./aramex-codes";
import { ARAMEX_STAND_IN_BASE, ARAMEX_STAND_IN_CLIENT, aramexStandIn, aramexStatement } from "./aramex-stand-in";
import {
  CarrierRefused,
  type BookedPickup,
  type Carrier,
  type CarrierAddress,
  type CarrierEvent,
  type CarrierItem,
  type CarrierRemittance,
  type CreatedShipment,
  type PickupRequest,
  type ShipmentRequest,
  type ShipmentStatus,
} from "./carrier";

/**
 * Aramex, through its Shipping Services API and Tracking API (the JSON binding of the WCF services
 * at ws.aramex.net/ShippingAPI.V2), as Aramex documents them: "Your Guide to Embedding Aramex's
 * Shipping Services API" (aramex.com/docs/default-source/resourses/resourcesdata/shipping-services-api-manual.pdf,
 * mirrored at readkong.com/page/aramex-s-guide-to-embedding-the-shipping-services-api-3898664),
 * "Your Guide to Embedding Aramex's Tracking API", and Aramex's own shop extension
 * (github.com/aramexapps/magento2shipping: its shipping WSDL, the requests it builds, the domestic
 * product types and services it offers). Every call is a POST of one JSON object that carries
 * `ClientInfo` (UserName, Password, Version, AccountNumber, AccountPin, AccountEntity,
 * AccountCountryCode, Source); every answer carries `HasErrors` and `Notifications` ([{ Code,
 * Message }]), with HTTP 200 even when Aramex refuses. test/fixtures/aramex/README.md lists the
 * documented requests and answers the tests hold the adapter to.
 *
 * - createShipment: POST /Shipping/Service_1_0.svc/json/CreateShipments, one shipment per parcel:
 *   ProductGroup "DOM" (domestic), ProductType "ONP" ("Overnight (Parcel)", the parcel product of
 *   Aramex's domestic list), PaymentType "P" (prepaid by the shop's account, which is therefore
 *   Shipper.AccountNumber), ActualWeight in KG, NumberOfPieces 1; with cash to collect, Services
 *   "CODS" ("Cash On Delivery Service") and CashOnDeliveryAmount { Value, CurrencyCode "SAR" }.
 *   Reference1 is the shop's parcel reference, Reference2 the order number. The waybill is the
 *   processed shipment's `ID` (11 digits).
 * - track: POST /Tracking/Service_1_0.svc/json/TrackShipments with the waybills (batches of 50,
 *   a bound of the shop's own), GetLastTrackingUpdateOnly false. TrackingResults comes as the WCF
 *   rendering of a dictionary, [{ Key: waybill, Value: [TrackingResult…] }], newest first; each
 *   UpdateCode is read through aramex-codes.ts (its table says where each code's meaning comes
 *   from), and UpdateDateTime is WCF's "/Date(ms+0300)/". Waybills Aramex does not know come back
 *   in NonExistingWaybills and yield no step.
 * - bookPickup (returns): POST /Shipping/Service_1_0.svc/json/CreatePickup with the return parcel
 *   in Pickup.Shipments (the shopper as Shipper, paid by the shop's account, the shop as
 *   Consignee) and one PickupItems line; the answer's ProcessedPickup gives the pickup's GUID
 *   (BookedPickup.pickup_reference) and the return parcel's waybill (ProcessedShipments[0].ID).
 *   The courier calls on `ready_on` between 09:00 and 17:00 Riyadh time (ReadyTime,
 *   LastPickupTime; ClosingTime 18:00).
 * - cancelShipment: Aramex's Shipping Services API has no call that cancels a shipment (the WSDL
 *   in Aramex's extension has CreateShipments, PrintLabel, CreatePickup and CancelPickup; the
 *   current service adds ReserveShipmentNumberRange, GetLastShipmentsNumbersRange and
 *   ScheduleDelivery; none cancels a shipment). A created waybill never handed over never moves. So the adapter
 *   asks TrackShipments first: once Aramex reports any step past "Record created" (the parcel is
 *   in its hands) it refuses with Aramex's words for that step (CarrierRefused); before that it
 *   succeeds without calling anything: the shop just does not hand the parcel over, and the
 *   waybill stays an unused record at Aramex. A return booked with bookPickup is called off with
 *   `cancelPickup(pickup_reference)` (POST /Shipping/Service_1_0.svc/json/CancelPickup with the
 *   PickupGUID), which Aramex refuses once the courier has collected.
 * - remittances: Aramex has no API for cash collected on delivery: neither manual nor WSDL has a
 *   COD call. Aramex settles COD outside the API, by transfer or cheque with a list of the settled
 *   waybills (its e-commerce service terms: settled within seven working days, once a week). So
 *   `remittances()` returns what the configured `statement` gives (in development and test, the
 *   stand-in's statement, filled by `remitAramex`), and in production, where no statement source
 *   exists yet, NOTHING: the shop reconciles Aramex's COD statement by hand.
 *
 * Errors: an answer with HasErrors (at the top or on the processed shipment) throws CarrierRefused
 * with Aramex's own messages and the first notification's Code; an answer that is not Aramex's
 * envelope, a 5xx, a network failure or a time-out throws AramexUnavailable (try again later).
 */

export const ARAMEX_API = "https://ws.aramex.net/ShippingAPI.V2";
/** Aramex's test environment (the documents' "Testing URL"). */
export const ARAMEX_TEST_API = "https://ws.dev.aramex.net/ShippingAPI.V2";

export const ARAMEX_PATHS = {
  createShipments: "/Shipping/Service_1_0.svc/json/CreateShipments",
  createPickup: "/Shipping/Service_1_0.svc/json/CreatePickup",
  cancelPickup: "/Shipping/Service_1_0.svc/json/CancelPickup",
  trackShipments: "/Tracking/Service_1_0.svc/json/TrackShipments",
} as const;

/** The account and user every call carries (the manual's ClientInfo). */
export interface AramexClientInfo {
  UserName: string;
  Password: string;
  Version: string;
  AccountNumber: string;
  AccountPin: string;
  AccountEntity: string;
  AccountCountryCode: string;
  /** The integration's source number Aramex gave; 24 in its published samples. */
  Source: number;
}

export interface AramexNotification {
  Code: string;
  Message: string;
}

/** What every answer carries. */
export interface AramexEnvelope {
  Transaction?: Record<string, string | null> | null;
  Notifications?: AramexNotification[] | null;
  HasErrors?: boolean;
}

export interface AramexProcessedShipment extends AramexEnvelope {
  ID: string | null;
  Reference1?: string | null;
  ShipmentLabel?: { LabelURL?: string | null; LabelFileContents?: string | null } | null;
}

export interface AramexTrackingResult {
  WaybillNumber: string;
  UpdateCode: string;
  UpdateDescription: string;
  UpdateDateTime: string;
  UpdateLocation?: string | null;
  Comments?: string | null;
  ProblemCode?: string | null;
}

export interface AramexTrackingAnswer extends AramexEnvelope {
  /** WCF renders the dictionary as [{ Key, Value }]; some gateways as a plain object. */
  TrackingResults?: { Key: string; Value: AramexTrackingResult[] }[] | Record<string, AramexTrackingResult[]> | null;
  NonExistingWaybills?: string[] | null;
}

/** Aramex could not be asked, or did not answer as its documents say: try again later. */
export class AramexUnavailable extends Error {}

/** The Aramex adapter: the shared interface, and the pickup cancellation Aramex offers. */
export interface AramexCarrier extends Carrier {
  /** Calls off a return pickup by its GUID (BookedPickup.pickup_reference); refused once collected. */
  cancelPickup(pickupReference: string): Promise<void>;
}

const TIMEOUT_MS = 20_000;
const TRACK_BATCH = 50;
/** The shop's time zone, Riyadh: UTC+3 all year. */
const RIYADH = "+03:00";

/** A moment as WCF's JSON binding writes a DateTime: milliseconds since the epoch, and the offset. */
export const wcfDate = (ms: number) => `/Date(${Math.round(ms)}+0300)/`;

/**
 * A moment Aramex sent, in ISO 8601 UTC: "/Date(ms±hhmm)/" (the JSON binding; the milliseconds
 * are UTC already, the offset only says the sender's zone) or an ISO date without a zone (the
 * SOAP binding's rendering), read as Riyadh time. Null when unreadable.
 */
export function parseAramexDate(value: string | null | undefined): string | null {
  const text = (value ?? "").trim();
  const wcf = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/.exec(text);
  if (wcf) return new Date(Number(wcf[1])).toISOString();
  const zoneless = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/.test(text);
  const ms = Date.parse(zoneless ? `${text}${RIYADH}` : text);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : null;
}

const sar = (halalas: number) => ({ CurrencyCode: "SAR", Value: Math.round(halalas) / 100 });
const kg = (grams: number) => ({ Unit: "KG", Value: Math.round(grams) / 1000 });
const emptyTransaction = (reference = "") => ({
  Reference1: reference,
  Reference2: "",
  Reference3: "",
  Reference4: "",
  Reference5: "",
});

/** The national address's short code and additional number, for the courier. */
function nationalAddress(address: CarrierAddress): string {
  return [address.short_address, address.additional_number && `Additional number ${address.additional_number}`]
    .filter(Boolean)
    .join(", ");
}

/** A CarrierAddress as the manual's Address. */
export function aramexAddress(address: CarrierAddress) {
  return {
    Line1: address.line1,
    Line2: address.line2 ?? "",
    Line3: address.district ?? "",
    City: address.city,
    StateOrProvinceCode: "",
    PostCode: address.postal_code ?? "",
    CountryCode: address.country,
    BuildingNumber: address.building_number ?? "",
    Description: nationalAddress(address),
  };
}

/** A CarrierAddress's person as the manual's Contact (CompanyName is required: a shopper's is their name). */
export function aramexContact(address: CarrierAddress) {
  return {
    Department: "",
    PersonName: address.name,
    Title: "",
    CompanyName: address.name,
    PhoneNumber1: address.phone,
    PhoneNumber1Ext: "",
    PhoneNumber2: "",
    PhoneNumber2Ext: "",
    FaxNumber: "",
    CellPhone: address.phone,
    EmailAddress: address.email ?? "",
    Type: "",
  };
}

const aramexParty = (address: CarrierAddress, reference: string, accountNumber: string) => ({
  Reference1: reference,
  Reference2: "",
  AccountNumber: accountNumber,
  PartyAddress: aramexAddress(address),
  Contact: aramexContact(address),
});

/** A parcel's Details: domestic, overnight parcel, prepaid; cash on delivery when there is cash to collect. */
function aramexDetails(parcel: {
  weight_grams: number;
  description: string;
  items: CarrierItem[];
  cod_amount: number;
  declared_value: number;
  origin: string;
}) {
  const cod = parcel.cod_amount > 0;
  return {
    Dimensions: null,
    ActualWeight: kg(parcel.weight_grams),
    ChargeableWeight: null,
    DescriptionOfGoods: parcel.description,
    GoodsOriginCountry: parcel.origin,
    NumberOfPieces: 1,
    ProductGroup: "DOM",
    ProductType: "ONP",
    PaymentType: "P",
    PaymentOptions: "",
    CustomsValueAmount: sar(parcel.declared_value),
    CashOnDeliveryAmount: cod ? sar(parcel.cod_amount) : null,
    InsuranceAmount: null,
    CashAdditionalAmount: null,
    CashAdditionalAmountDescription: "",
    CollectAmount: null,
    Services: cod ? "CODS" : "",
    Items: parcel.items.map((item) => ({
      PackageType: "Box",
      Quantity: item.quantity,
      Weight: null,
      Comments: item.name,
      Reference: item.sku,
    })),
  };
}

/** Refuses with Aramex's words when the answer, or a processed shipment in it, has errors. */
export function refuseOnErrors(answer: AramexEnvelope, ...processed: (AramexEnvelope | null | undefined)[]): void {
  const failed = [answer, ...processed].filter((part): part is AramexEnvelope => !!part?.HasErrors);
  if (!failed.length) return;
  const notes = failed.flatMap((part) => part.Notifications ?? []).filter((n) => n?.Message || n?.Code);
  if (!notes.length) throw new CarrierRefused("Aramex refused the request and gave no reason.", "aramex_error");
  throw new CarrierRefused(
    [...new Set(notes.map((n) => (n.Message || n.Code).trim()))].join("; "),
    notes.find((n) => n.Code)?.Code ?? "aramex_error",
  );
}

/** Each waybill's tracking results, whichever way the dictionary was rendered. */
function trackingEntries(results: AramexTrackingAnswer["TrackingResults"]): [string, AramexTrackingResult[]][] {
  if (!results) return [];
  if (Array.isArray(results)) return results.map((entry) => [String(entry.Key), entry.Value ?? []]);
  return Object.entries(results).map(([key, value]) => [key, value ?? []]);
}

/**
 * A TrackShipments answer's steps, per waybill in the order they happened (Aramex lists them newest
 * first). A step whose code the table lacks and whose words say nothing plain keeps the status of
 * the step before it; a step whose moment cannot be read is left out.
 */
export function eventsOfTracking(answer: AramexTrackingAnswer): CarrierEvent[] {
  const events: CarrierEvent[] = [];
  const byWaybill = new Map<string, { result: AramexTrackingResult; at: string; index: number }[]>();
  for (const [key, results] of trackingEntries(answer.TrackingResults)) {
    results.forEach((result, index) => {
      const at = parseAramexDate(result.UpdateDateTime);
      if (!at) return;
      const waybill = String(result.WaybillNumber || key);
      const list = byWaybill.get(waybill) ?? [];
      list.push({ result, at, index });
      byWaybill.set(waybill, list);
    });
  }
  for (const [waybill, steps] of byWaybill) {
    // Oldest first; two steps at one moment keep Aramex's order reversed (it lists newest first).
    steps.sort((a, b) => a.at.localeCompare(b.at) || b.index - a.index);
    let current: ShipmentStatus = "created";
    for (const { result, at } of steps) {
      current = statusOfUpdate(result.UpdateCode ?? "", result.UpdateDescription ?? "") ?? current;
      events.push({
        waybill,
        status: current,
        code: (result.UpdateCode ?? "").trim(),
        description: (result.UpdateDescription ?? "").trim(),
        location: result.UpdateLocation?.trim() || null,
        at,
      });
    }
  }
  return events;
}

export interface AramexConfig {
  clientInfo: AramexClientInfo;
  /** The services' base, e.g. https://ws.aramex.net/ShippingAPI.V2 (no trailing slash). */
  apiBase: string;
  fetcher?: typeof fetch;
  /**
   * Where COD remittances come from, since Aramex has no API for them: in development and test the
   * stand-in's statement. Unset (production): `remittances()` reports nothing.
   */
  statement?: (since: string) => Promise<CarrierRemittance[]>;
  /** The clock (tests fix it); ShippingDateTime is now, DueDate three days on. */
  now?: () => number;
}

export function aramexCarrier(config: AramexConfig): AramexCarrier {
  const fetcher = config.fetcher ?? fetch;
  const base = config.apiBase.replace(/\/+$/, "");
  const now = config.now ?? Date.now;
  const clientInfo = config.clientInfo;

  async function call<T extends AramexEnvelope>(path: string, body: Record<string, unknown>): Promise<T> {
    const operation = path.slice(path.lastIndexOf("/") + 1);
    let res: Response;
    try {
      res = await fetcher(`${base}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ ClientInfo: clientInfo, ...body }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (cause) {
      throw new AramexUnavailable(`Aramex ${operation} did not answer: ${String(cause)}`);
    }
    if (res.status >= 500) throw new AramexUnavailable(`Aramex ${operation} answered ${res.status}`);
    const answer = (await res.json().catch(() => null)) as T | null;
    if (!answer || typeof answer !== "object" || typeof answer.HasErrors !== "boolean")
      throw new AramexUnavailable(`Aramex ${operation} answered ${res.status} without its HasErrors envelope`);
    return answer;
  }

  async function trackAnswers(waybills: string[]): Promise<{ events: CarrierEvent[]; unknown: string[] }> {
    const wanted = [...new Set(waybills.map((w) => w.trim()).filter(Boolean))];
    const events: CarrierEvent[] = [];
    const unknown: string[] = [];
    for (let i = 0; i < wanted.length; i += TRACK_BATCH) {
      const answer = await call<AramexTrackingAnswer>(ARAMEX_PATHS.trackShipments, {
        Transaction: emptyTransaction(),
        Shipments: wanted.slice(i, i + TRACK_BATCH),
        GetLastTrackingUpdateOnly: false,
      });
      refuseOnErrors(answer);
      events.push(...eventsOfTracking(answer));
      unknown.push(...(answer.NonExistingWaybills ?? []));
    }
    return { events, unknown };
  }

  return {
    id: "aramex",

    async createShipment(request: ShipmentRequest): Promise<CreatedShipment> {
      if (request.shipper.country !== request.consignee.country)
        throw new CarrierRefused(
          `Aramex domestic shipments (DOM) stay within one country: ${request.shipper.country} to ${request.consignee.country}.`,
          "not_domestic",
        );
      const sent = now();
      const answer = await call<AramexEnvelope & { Shipments?: AramexProcessedShipment[] | null }>(
        ARAMEX_PATHS.createShipments,
        {
          LabelInfo: { ReportID: 9201, ReportType: "URL" },
          Shipments: [
            {
              Reference1: request.reference,
              Reference2: request.order_number,
              Reference3: "",
              Shipper: aramexParty(request.shipper, request.reference, clientInfo.AccountNumber),
              Consignee: aramexParty(request.consignee, request.reference, ""),
              ThirdParty: null,
              ShippingDateTime: wcfDate(sent),
              DueDate: wcfDate(sent + 3 * 86_400_000),
              Comments: `Order ${request.order_number}`,
              PickupLocation: "Reception",
              OperationsInstructions: "",
              AccountingInstrcutions: "",
              PickupGUID: "",
              ForeignHAWB: "",
              TransportType: 0,
              Details: aramexDetails({ ...request, origin: request.shipper.country }),
              Attachments: [],
            },
          ],
          Transaction: emptyTransaction(request.reference),
        },
      );
      const shipment = answer.Shipments?.[0];
      refuseOnErrors(answer, shipment);
      if (!shipment?.ID) throw new AramexUnavailable("Aramex CreateShipments answered no shipment ID");
      return { waybill: String(shipment.ID) };
    },

    async cancelShipment(waybill: string): Promise<void> {
      const { events, unknown } = await trackAnswers([waybill]);
      if (unknown.includes(waybill)) throw new CarrierRefused(`Aramex knows no shipment ${waybill}.`, "not_found");
      const taken = events.filter((e) => e.waybill === waybill && e.status !== "created").at(-1);
      if (taken)
        throw new CarrierRefused(
          `Aramex has the parcel already: "${taken.description}" (${taken.code}${taken.location ? `, ${taken.location}` : ""}).`,
          "picked_up",
        );
      // Not in Aramex's hands: nothing to call (the API cannot void a waybill); it is never handed over.
    },

    async track(waybills: string[]): Promise<CarrierEvent[]> {
      return (await trackAnswers(waybills)).events;
    },

    async bookPickup(request: PickupRequest): Promise<BookedPickup> {
      if (!/^\d{4}-\d{2}-\d{2}$/.test(request.ready_on))
        throw new CarrierRefused(`A pickup day is YYYY-MM-DD, not "${request.ready_on}".`, "bad_date");
      const at = (time: string) => Date.parse(`${request.ready_on}T${time}:00${RIYADH}`);
      const description = `Return of order ${request.order_number}`;
      const declared = request.items.reduce((sum, item) => sum + item.value, 0);
      const answer = await call<
        AramexEnvelope & {
          ProcessedPickup?: {
            ID?: string;
            GUID?: string;
            ProcessedShipments?: AramexProcessedShipment[] | null;
          } | null;
        }
      >(ARAMEX_PATHS.createPickup, {
        LabelInfo: { ReportID: 9201, ReportType: "URL" },
        Pickup: {
          PickupAddress: aramexAddress(request.pickup),
          PickupContact: aramexContact(request.pickup),
          PickupLocation: "Home",
          PickupDate: wcfDate(at("09:00")),
          ReadyTime: wcfDate(at("09:00")),
          LastPickupTime: wcfDate(at("17:00")),
          ClosingTime: wcfDate(at("18:00")),
          Comments: description,
          Reference1: request.reference,
          Reference2: request.order_number,
          Vehicle: "Car",
          Shipments: [
            {
              Reference1: request.reference,
              Reference2: request.order_number,
              Reference3: "",
              // The shopper sends, the shop's account pays (prepaid), the shop receives.
              Shipper: aramexParty(request.pickup, request.reference, clientInfo.AccountNumber),
              Consignee: aramexParty(request.deliver_to, request.reference, ""),
              ThirdParty: null,
              ShippingDateTime: wcfDate(at("09:00")),
              DueDate: wcfDate(at("09:00") + 3 * 86_400_000),
              Comments: description,
              PickupLocation: "Home",
              OperationsInstructions: "",
              AccountingInstrcutions: "",
              PickupGUID: "",
              ForeignHAWB: "",
              TransportType: 0,
              Details: aramexDetails({
                weight_grams: request.weight_grams,
                description,
                items: request.items,
                cod_amount: 0,
                declared_value: declared,
                origin: request.pickup.country,
              }),
              Attachments: [],
            },
          ],
          PickupItems: [
            {
              ProductGroup: "DOM",
              ProductType: "ONP",
              NumberOfShipments: 1,
              PackageType: "Box",
              Payment: "P",
              ShipmentWeight: kg(request.weight_grams),
              ShipmentVolume: null,
              NumberOfPieces: 1,
              CashAmount: null,
              ExtraCharges: null,
              ShipmentDimensions: null,
              Comments: description,
            },
          ],
          Status: "Ready",
        },
        Transaction: emptyTransaction(request.reference),
      });
      const pickup = answer.ProcessedPickup;
      const shipment = pickup?.ProcessedShipments?.[0];
      refuseOnErrors(answer, shipment);
      if (!shipment?.ID) throw new AramexUnavailable("Aramex CreatePickup answered no shipment ID");
      return { waybill: String(shipment.ID), pickup_reference: pickup?.GUID || null };
    },

    async cancelPickup(pickupReference: string): Promise<void> {
      const answer = await call<AramexEnvelope>(ARAMEX_PATHS.cancelPickup, {
        Transaction: emptyTransaction(),
        PickupGUID: pickupReference,
        Comments: "Return called off by the shop",
      });
      refuseOnErrors(answer);
    },

    async remittances(since: string): Promise<CarrierRemittance[]> {
      return config.statement ? config.statement(since) : [];
    },
  };
}

type AramexEnv = Pick<
  Env,
  | "ENVIRONMENT"
  | "KV"
  | "ARAMEX_USERNAME"
  | "ARAMEX_PASSWORD"
  | "ARAMEX_ACCOUNT_NUMBER"
  | "ARAMEX_ACCOUNT_PIN"
  | "ARAMEX_ACCOUNT_ENTITY"
  | "ARAMEX_ACCOUNT_COUNTRY_CODE"
  | "ARAMEX_API_URL"
>;

/**
 * Aramex from configuration. With the account's credentials (ARAMEX_USERNAME, ARAMEX_PASSWORD,
 * ARAMEX_ACCOUNT_NUMBER, ARAMEX_ACCOUNT_PIN and ARAMEX_ACCOUNT_ENTITY; country SA unless
 * ARAMEX_ACCOUNT_COUNTRY_CODE says otherwise) the real API at ARAMEX_API_URL (default the
 * production base); some of them but not all: null (misconfigured, never half a login). None: in
 * development and test the same adapter against the offline stand-in (aramex-stand-in.ts, over
 * KV), in production null.
 */
export function aramexFromEnv(env: AramexEnv): AramexCarrier | null {
  const value = (v: string | undefined) => v?.trim() ?? "";
  const credentials = [env.ARAMEX_USERNAME, env.ARAMEX_PASSWORD, env.ARAMEX_ACCOUNT_NUMBER, env.ARAMEX_ACCOUNT_PIN].map(
    value,
  );
  const entity = value(env.ARAMEX_ACCOUNT_ENTITY).toUpperCase();
  if (credentials.some(Boolean)) {
    if (!credentials.every(Boolean) || !entity) return null;
    const [username, password, accountNumber, accountPin] = credentials;
    return aramexCarrier({
      clientInfo: {
        UserName: username,
        Password: password,
        Version: "v1.0",
        AccountNumber: accountNumber,
        AccountPin: accountPin,
        AccountEntity: entity,
        AccountCountryCode: value(env.ARAMEX_ACCOUNT_COUNTRY_CODE).toUpperCase() || "SA",
        Source: 24,
      },
      apiBase: value(env.ARAMEX_API_URL) || ARAMEX_API,
    });
  }
  if (env.ENVIRONMENT !== "development" && env.ENVIRONMENT !== "test") return null;
  return aramexCarrier({
    clientInfo: { ...ARAMEX_STAND_IN_CLIENT },
    apiBase: ARAMEX_STAND_IN_BASE,
    fetcher: aramexStandIn(env.KV),
    statement: aramexStatement(env.KV),
  });
}
