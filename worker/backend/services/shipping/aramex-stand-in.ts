import { codeForStatus, statusOfUpdate } from "./aramex-codes";
import type { CarrierRemittance, ShipmentStatus } from "./carrier";

/**
 * Aramex's Shipping Services and Tracking APIs (their JSON binding) as development and test see
 * them: the real adapter (aramex.ts) calls this fetcher in place of ws.aramex.net, so every test
 * runs the adapter's real requests. It answers the documented endpoints with the documented
 * shapes (test/fixtures/aramex/ holds Aramex's examples):
 *
 * - POST /Shipping/Service_1_0.svc/json/CreateShipments: checks ClientInfo, then each shipment's
 *   required fields the way the manual lists them (parties' Line1, City, CountryCode, PersonName,
 *   CompanyName, PhoneNumber1, the consignee's CellPhone; "/Date(…)/" moments; a weight in KG or
 *   LB above zero; NumberOfPieces; ProductGroup EXP or DOM with a product type of that group,
 *   DOM only within the account's country; PaymentType P, C or 3, P paid by the ClientInfo
 *   account; Services "CODS" exactly when CashOnDeliveryAmount has a value, in the account's
 *   currency), and gives each an 11-digit waybill (Aramex's form) with a "Record created." step.
 * - POST /Tracking/Service_1_0.svc/json/TrackShipments: each known waybill's steps newest first,
 *   as [{ Key, Value }], the others in NonExistingWaybills.
 * - POST /Shipping/Service_1_0.svc/json/CreatePickup: the pickup's times and items, the shipments
 *   it carries (created as above); answers ProcessedPickup { ID "H…", GUID, ProcessedShipments }.
 * - POST /Shipping/Service_1_0.svc/json/CancelPickup: by PickupGUID; refused once any of its
 *   shipments has a step past "Record created" (the courier has collected), or when already
 *   cancelled.
 *
 * A refusal is HTTP 200 with HasErrors and Notifications [{ Code, Message }], as Aramex answers.
 * ERR01 "ClientInfo - Invalid username or password" is Aramex's documented answer to a wrong
 * login; the other codes and messages are the stand-in's own, in Aramex's "<field> - <problem>"
 * manner. A body it cannot read gets WCF's 400, an unknown path 404.
 *
 * There is no shipment cancellation and no COD API at Aramex, so the stand-in has none either;
 * development and tests move a parcel with `advanceAramex` (it appends the code aramex-codes.ts
 * gives for the status) and record cash paid over with `remitAramex`, which the adapter reads
 * through `aramexStatement` in place of Aramex's COD statement. Records live in KV for 30 days.
 */

export const ARAMEX_STAND_IN_BASE = "https://aramex.stand-in.invalid/ShippingAPI.V2";

/** The only login the stand-in accepts. */
export const ARAMEX_STAND_IN_CLIENT = {
  UserName: "stand-in@aramex.invalid",
  Password: "stand-in-password",
  Version: "v1.0",
  AccountNumber: "71000001",
  AccountPin: "543210",
  AccountEntity: "RUH",
  AccountCountryCode: "SA",
  Source: 24,
} as const;

const TTL = 30 * 86_400;
const DOMESTIC_TYPES = [
  "BLK",
  "BLT",
  "CDA",
  "CDS",
  "CGO",
  "COM",
  "DEC",
  "EMD",
  "FIX",
  "LGS",
  "OND",
  "ONP",
  "P24",
  "P48",
  "PEC",
  "PEX",
  "SFC",
  "SMD",
  "SMP",
  "SDD",
  "HVY",
  "SPD",
  "SPL",
];
const EXPRESS_TYPES = ["PDX", "PPX", "PLX", "DDX", "DPX", "GDX", "GPX", "EPX"];
const COUNTRY_NAMES: Record<string, string> = { SA: "Saudi Arabia" };

/** One step of a waybill, as the stand-in keeps it. */
export interface StandInUpdate {
  code: string;
  description: string;
  location: string;
  /** ISO 8601 UTC. */
  at: string;
}

/** The stand-in's record of a waybill: what was asked, and its steps so far (oldest first). */
export interface StoredAramexWaybill {
  waybill: string;
  reference: string;
  /** Halalas to collect (CashOnDeliveryAmount), 0 without CODS. */
  cod: number;
  services: string;
  productGroup: string;
  productType: string;
  weightKg: number;
  origin: string;
  destination: string;
  pickup: string | null;
  updates: StandInUpdate[];
}

interface StoredPickup {
  guid: string;
  id: string;
  reference: string;
  waybills: string[];
  cancelled: boolean;
}

const waybillKey = (waybill: string) => `stand-in:aramex:waybill:${waybill}`;
const pickupKey = (guid: string) => `stand-in:aramex:pickup:${guid}`;
const REMITTANCES = "stand-in:aramex:remittance:";

export async function loadAramexWaybill(kv: KVNamespace, waybill: string): Promise<StoredAramexWaybill | null> {
  return kv.get<StoredAramexWaybill>(waybillKey(waybill), "json");
}
const saveWaybill = (kv: KVNamespace, stored: StoredAramexWaybill) =>
  kv.put(waybillKey(stored.waybill), JSON.stringify(stored), { expirationTtl: TTL });
const loadPickup = (kv: KVNamespace, guid: string) => kv.get<StoredPickup>(pickupKey(guid), "json");
const savePickup = (kv: KVNamespace, stored: StoredPickup) =>
  kv.put(pickupKey(stored.guid), JSON.stringify(stored), { expirationTtl: TTL });

type Json = Record<string, unknown>;
type Note = { Code: string; Message: string };

const obj = (value: unknown): Json =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Json) : {};
const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");
const wcf = (ms: number) => `/Date(${ms}+0300)/`;
const wcfMs = (value: unknown): number | null => {
  const m = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/.exec(text(value));
  return m ? Number(m[1]) : null;
};
const randomDigits = (n: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => String(b % 10)).join("");
const placeOf = (address: Json) => {
  const country = text(address.CountryCode);
  return `${text(address.City)}, ${COUNTRY_NAMES[country] ?? country}`;
};

function transactionOf(body: Json) {
  const given = obj(body.Transaction);
  return {
    Reference1: text(given.Reference1),
    Reference2: text(given.Reference2),
    Reference3: text(given.Reference3),
    Reference4: text(given.Reference4),
    Reference5: text(given.Reference5),
  };
}

const answer = (body: Json, notes: Note[], rest: Json) =>
  Response.json({ Transaction: transactionOf(body), Notifications: notes, HasErrors: notes.length > 0, ...rest });

/** ERR01 is Aramex's documented answer to a wrong login; the rest are the stand-in's. */
function clientNotes(client: Json): Note[] {
  const expected = ARAMEX_STAND_IN_CLIENT;
  if (text(client.UserName) !== expected.UserName || text(client.Password) !== expected.Password)
    return [{ Code: "ERR01", Message: "ClientInfo - Invalid username or password" }];
  const notes: Note[] = [];
  if (text(client.Version) !== expected.Version) notes.push({ Code: "ERR02", Message: "ClientInfo - Invalid version" });
  for (const field of ["AccountNumber", "AccountPin", "AccountEntity", "AccountCountryCode"] as const)
    if (text(client[field]) !== expected[field])
      notes.push({ Code: "ERR02", Message: `ClientInfo - Invalid ${field}` });
  return notes;
}

function partyNotes(role: "Shipper" | "Consignee", party: Json): Note[] {
  const notes: Note[] = [];
  const address = obj(party.PartyAddress);
  const contact = obj(party.Contact);
  const need = (value: unknown, field: string) => {
    if (!text(value)) notes.push({ Code: "REQ", Message: `${role}.${field} - Required` });
  };
  need(address.Line1, "PartyAddress.Line1");
  need(address.City, "PartyAddress.City");
  if (!/^[A-Z]{2}$/.test(text(address.CountryCode)))
    notes.push({ Code: "REQ", Message: `${role}.PartyAddress.CountryCode - Invalid country code` });
  need(contact.PersonName, "Contact.PersonName");
  need(contact.CompanyName, "Contact.CompanyName");
  need(contact.PhoneNumber1, "Contact.PhoneNumber1");
  if (role === "Consignee") need(contact.CellPhone, "Contact.CellPhone");
  return notes;
}

/** The manual's checks of one shipment; the notes say what is wrong, none means it can be created. */
function shipmentNotes(shipment: Json): Note[] {
  const client = ARAMEX_STAND_IN_CLIENT;
  const shipper = obj(shipment.Shipper);
  const consignee = obj(shipment.Consignee);
  const details = obj(shipment.Details);
  const notes = [...partyNotes("Shipper", shipper), ...partyNotes("Consignee", consignee)];
  const bad = (field: string, problem: string) => notes.push({ Code: "ERR", Message: `${field} - ${problem}` });

  const shipping = wcfMs(shipment.ShippingDateTime);
  const due = wcfMs(shipment.DueDate);
  if (shipping === null) bad("ShippingDateTime", "Invalid date");
  if (due === null) bad("DueDate", "Invalid date");
  else if (shipping !== null && due < shipping) bad("DueDate", "Must not be before ShippingDateTime");

  const weight = obj(details.ActualWeight);
  if (!["KG", "LB"].includes(text(weight.Unit))) bad("Details.ActualWeight.Unit", "Must be KG or LB");
  if (!(typeof weight.Value === "number" && weight.Value > 0))
    bad("Details.ActualWeight.Value", "Must be more than zero");
  if (!(Number.isInteger(details.NumberOfPieces) && (details.NumberOfPieces as number) >= 1))
    bad("Details.NumberOfPieces", "Must be a whole number from 1");

  const group = text(details.ProductGroup);
  const type = text(details.ProductType);
  if (group === "DOM") {
    if (!DOMESTIC_TYPES.includes(type)) bad("Details.ProductType", `Invalid product type for ${group}`);
    const from = text(obj(shipper.PartyAddress).CountryCode);
    const to = text(obj(consignee.PartyAddress).CountryCode);
    if (from !== client.AccountCountryCode || to !== client.AccountCountryCode)
      bad("Details.ProductGroup", "Domestic shipments must be within the account's country");
  } else if (group === "EXP") {
    if (!EXPRESS_TYPES.includes(type)) bad("Details.ProductType", `Invalid product type for ${group}`);
  } else bad("Details.ProductGroup", "Must be EXP or DOM");

  const payment = text(details.PaymentType);
  if (!["P", "C", "3"].includes(payment)) bad("Details.PaymentType", "Must be P, C or 3");
  if (payment === "P" && text(shipper.AccountNumber) !== client.AccountNumber)
    bad("Shipper.AccountNumber", "Must be the ClientInfo account for prepaid shipments");

  const services = text(details.Services)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const cod = details.CashOnDeliveryAmount == null ? null : obj(details.CashOnDeliveryAmount);
  const codValue = cod && typeof cod.Value === "number" ? cod.Value : 0;
  if (services.includes("CODS")) {
    if (!(codValue > 0)) bad("Details.CashOnDeliveryAmount", "Required for the CODS service");
    else if (text(cod?.CurrencyCode) !== "SAR") bad("Details.CashOnDeliveryAmount.CurrencyCode", "Must be SAR");
  } else if (codValue > 0) bad("Details.Services", "CODS is required with a CashOnDeliveryAmount");
  return notes;
}

async function newWaybill(kv: KVNamespace): Promise<string> {
  for (;;) {
    const waybill = `4${randomDigits(10)}`;
    if (!(await kv.get(waybillKey(waybill)))) return waybill;
  }
}

/** Creates a checked shipment: its waybill, the "Record created." step, and the processed shipment. */
async function create(kv: KVNamespace, shipment: Json, pickup: string | null, labelBase: string) {
  const details = obj(shipment.Details);
  const shipper = obj(shipment.Shipper);
  const consignee = obj(shipment.Consignee);
  const cod = details.CashOnDeliveryAmount == null ? null : obj(details.CashOnDeliveryAmount);
  const waybill = await newWaybill(kv);
  const created = codeForStatus("created")!;
  const stored: StoredAramexWaybill = {
    waybill,
    reference: text(shipment.Reference1),
    cod: cod && typeof cod.Value === "number" ? Math.round(cod.Value * 100) : 0,
    services: text(details.Services),
    productGroup: text(details.ProductGroup),
    productType: text(details.ProductType),
    weightKg: obj(details.ActualWeight).Value as number,
    origin: placeOf(obj(shipper.PartyAddress)),
    destination: placeOf(obj(consignee.PartyAddress)),
    pickup,
    updates: [
      {
        code: created.code,
        description: created.description,
        location: placeOf(obj(shipper.PartyAddress)),
        at: new Date().toISOString(),
      },
    ],
  };
  await saveWaybill(kv, stored);
  return {
    ID: waybill,
    Reference1: text(shipment.Reference1),
    Reference2: text(shipment.Reference2),
    Reference3: text(shipment.Reference3),
    ForeignHAWB: text(shipment.ForeignHAWB) || null,
    HasErrors: false,
    Notifications: [],
    ShipmentLabel: { LabelURL: `${labelBase}/content/rpt_cache/${waybill}.pdf`, LabelFileContents: null },
    ShipmentDetails: {
      Origin: ARAMEX_STAND_IN_CLIENT.AccountEntity,
      Destination: text(obj(consignee.PartyAddress).City),
      ChargeableWeight: obj(details.ActualWeight),
      DescriptionOfGoods: text(details.DescriptionOfGoods),
      GoodsOriginCountry: text(details.GoodsOriginCountry),
      NumberOfPieces: details.NumberOfPieces,
      ProductGroup: stored.productGroup,
      ProductType: stored.productType,
      PaymentType: text(details.PaymentType),
      PaymentOptions: text(details.PaymentOptions),
      CustomsValueAmount: details.CustomsValueAmount ?? null,
      CashOnDeliveryAmount: cod,
      InsuranceAmount: null,
      CashAdditionalAmount: null,
      CollectAmount: null,
      Services: stored.services,
    },
    ShipmentAttachments: [],
  };
}

/** A failed shipment in the answer: no ID, its own notes. */
const failedShipment = (shipment: Json, notes: Note[]) => ({
  ID: null,
  Reference1: text(shipment.Reference1),
  Reference2: text(shipment.Reference2),
  Reference3: text(shipment.Reference3),
  ForeignHAWB: null,
  HasErrors: true,
  Notifications: notes,
  ShipmentLabel: null,
  ShipmentDetails: null,
  ShipmentAttachments: [],
});

const trackingResult = (stored: StoredAramexWaybill, update: StandInUpdate) => ({
  WaybillNumber: stored.waybill,
  UpdateCode: update.code,
  UpdateDescription: update.description,
  UpdateDateTime: wcf(Date.parse(update.at)),
  UpdateLocation: update.location,
  Comments: "",
  ProblemCode: "",
  GrossWeight: String(stored.weightKg),
  ChargeableWeight: String(stored.weightKg),
  WeightUnit: "KG",
});

/** Whether Aramex has the parcel: a step past "Record created". */
const collected = (stored: StoredAramexWaybill) =>
  stored.updates.some((u) => {
    const status = statusOfUpdate(u.code, u.description);
    return status !== null && status !== "created";
  });

export function aramexStandIn(kv: KVNamespace): typeof fetch {
  const base = new URL(ARAMEX_STAND_IN_BASE);

  async function createShipments(body: Json): Promise<Response> {
    const shipments = Array.isArray(body.Shipments) ? body.Shipments.map(obj) : [];
    if (!shipments.length) return answer(body, [{ Code: "REQ", Message: "Shipments - Required" }], { Shipments: [] });
    const checked = shipments.map((shipment) => ({ shipment, notes: shipmentNotes(shipment) }));
    // Aramex creates none of a request with a faulty shipment: each is answered with its own notes.
    if (checked.some((c) => c.notes.length))
      return answer(body, [{ Code: "ERR", Message: "One or more shipments have errors" }], {
        Shipments: checked.map((c) => failedShipment(c.shipment, c.notes)),
      });
    const processed = [];
    for (const { shipment } of checked) processed.push(await create(kv, shipment, null, base.origin));
    return answer(body, [], { Shipments: processed });
  }

  async function trackShipments(body: Json): Promise<Response> {
    const wanted = Array.isArray(body.Shipments) ? body.Shipments.map(text).filter(Boolean) : [];
    if (!wanted.length)
      return answer(body, [{ Code: "REQ", Message: "Shipments - Required" }], {
        TrackingResults: [],
        NonExistingWaybills: [],
      });
    const lastOnly = body.GetLastTrackingUpdateOnly === true;
    const results = [];
    const missing = [];
    for (const waybill of wanted) {
      const stored = await loadAramexWaybill(kv, waybill);
      if (!stored) {
        missing.push(waybill);
        continue;
      }
      const newestFirst = [...stored.updates].reverse().map((u) => trackingResult(stored, u));
      results.push({ Key: waybill, Value: lastOnly ? newestFirst.slice(0, 1) : newestFirst });
    }
    return answer(body, [], { TrackingResults: results, NonExistingWaybills: missing });
  }

  async function createPickup(body: Json): Promise<Response> {
    const pickup = obj(body.Pickup);
    const notes: Note[] = [];
    const bad = (field: string, problem: string) =>
      notes.push({ Code: "ERR", Message: `Pickup.${field} - ${problem}` });
    const address = obj(pickup.PickupAddress);
    const contact = obj(pickup.PickupContact);
    if (!text(address.Line1)) bad("PickupAddress.Line1", "Required");
    if (!text(address.City)) bad("PickupAddress.City", "Required");
    if (!/^[A-Z]{2}$/.test(text(address.CountryCode))) bad("PickupAddress.CountryCode", "Invalid country code");
    if (!text(contact.PersonName)) bad("PickupContact.PersonName", "Required");
    if (!text(contact.PhoneNumber1)) bad("PickupContact.PhoneNumber1", "Required");
    const [date, ready, last, closing] = ["PickupDate", "ReadyTime", "LastPickupTime", "ClosingTime"].map((field) => {
      const ms = wcfMs(pickup[field]);
      if (ms === null) bad(field, "Invalid date");
      return ms;
    });
    if (ready !== null && last !== null && last <= ready) bad("LastPickupTime", "Must be after ReadyTime");
    if (last !== null && closing !== null && closing < last) bad("ClosingTime", "Must not be before LastPickupTime");
    if (date !== null && last !== null && last < Date.now()) bad("PickupDate", "Must not be in the past");
    const items = Array.isArray(pickup.PickupItems) ? pickup.PickupItems.map(obj) : [];
    if (!items.length) bad("PickupItems", "Required");
    for (const item of items) {
      if (!["DOM", "EXP"].includes(text(item.ProductGroup))) bad("PickupItems.ProductGroup", "Must be EXP or DOM");
      if (!(Number.isInteger(item.NumberOfShipments) && (item.NumberOfShipments as number) >= 1))
        bad("PickupItems.NumberOfShipments", "Must be a whole number from 1");
    }
    if (!["Ready", "Pending"].includes(text(pickup.Status))) bad("Status", "Must be Ready or Pending");
    const shipments = Array.isArray(pickup.Shipments) ? pickup.Shipments.map(obj) : [];
    const checked = shipments.map((shipment) => ({ shipment, notes: shipmentNotes(shipment) }));
    if (notes.length || checked.some((c) => c.notes.length)) {
      const shipmentNotesAll = checked.flatMap((c) => c.notes);
      return answer(body, [...notes, ...shipmentNotesAll], { ProcessedPickup: null });
    }
    const guid = crypto.randomUUID();
    const processed = [];
    for (const { shipment } of checked) processed.push(await create(kv, shipment, guid, base.origin));
    const stored: StoredPickup = {
      guid,
      id: `H${randomDigits(6)}`,
      reference: text(pickup.Reference1),
      waybills: processed.map((p) => p.ID),
      cancelled: false,
    };
    await savePickup(kv, stored);
    return answer(body, [], {
      ProcessedPickup: {
        ID: stored.id,
        GUID: guid,
        Reference1: stored.reference,
        Reference2: text(pickup.Reference2),
        ProcessedShipments: processed,
      },
    });
  }

  async function cancelPickup(body: Json): Promise<Response> {
    const guid = text(body.PickupGUID);
    const refuse = (Message: string) => answer(body, [{ Code: "ERR", Message }], {});
    if (!guid) return refuse("PickupGUID - Required");
    const stored = await loadPickup(kv, guid);
    if (!stored) return refuse("PickupGUID - Pickup not found");
    if (stored.cancelled) return refuse("Pickup is already cancelled");
    for (const waybill of stored.waybills) {
      const shipment = await loadAramexWaybill(kv, waybill);
      if (shipment && collected(shipment))
        return refuse(`Pickup cannot be cancelled, shipment ${waybill} has already been collected`);
    }
    stored.cancelled = true;
    await savePickup(kv, stored);
    return answer(body, [], {});
  }

  const ROUTES: Record<string, (body: Json) => Promise<Response>> = {
    "/Shipping/Service_1_0.svc/json/CreateShipments": createShipments,
    "/Shipping/Service_1_0.svc/json/CreatePickup": createPickup,
    "/Shipping/Service_1_0.svc/json/CancelPickup": cancelPickup,
    "/Tracking/Service_1_0.svc/json/TrackShipments": trackShipments,
  };

  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.origin !== base.origin || !url.pathname.startsWith(`${base.pathname}/`))
      throw new Error(`The Aramex stand-in was asked for ${url.origin}${url.pathname}`);
    const route = ROUTES[url.pathname.slice(base.pathname.length)];
    if (!route) return new Response("Endpoint not found.", { status: 404 });
    if (request.method !== "POST") return new Response("Method not allowed.", { status: 405 });
    const body = await request.json().catch(() => null);
    if (!body || typeof body !== "object" || Array.isArray(body))
      return new Response("The server encountered an error processing the request.", { status: 400 });
    const login = clientNotes(obj((body as Json).ClientInfo));
    if (login.length) return answer(body as Json, login, {});
    return route(body as Json);
  };
}

/**
 * Moves a parcel, as Aramex's courier would: appends the update code aramex-codes.ts gives for
 * `status` (at `at`, default now), where the parcel is for that step. Aramex has no cancellation
 * step, so "cancelled" is refused (call off a return with CancelPickup instead).
 */
export async function advanceAramex(
  kv: KVNamespace,
  waybill: string,
  status: ShipmentStatus,
  at: string = new Date().toISOString(),
): Promise<StandInUpdate> {
  const stored = await loadAramexWaybill(kv, waybill);
  if (!stored) throw new Error(`The Aramex stand-in has no waybill ${waybill}`);
  const row = codeForStatus(status);
  if (!row) throw new Error(`Aramex documents no tracking step for "${status}"`);
  const atDestination = ["out_for_delivery", "delivery_attempted", "delivered"].includes(status);
  const update: StandInUpdate = {
    code: row.code,
    description: row.description,
    location: atDestination ? stored.destination : stored.origin,
    at: new Date(at).toISOString(),
  };
  stored.updates.push(update);
  await saveWaybill(kv, stored);
  return update;
}

/** Records cash Aramex paid over for a waybill (a line of its COD statement); `amount` in halalas. */
export async function remitAramex(
  kv: KVNamespace,
  waybill: string,
  amount: number,
  at: string = new Date().toISOString(),
): Promise<CarrierRemittance> {
  const stored = await loadAramexWaybill(kv, waybill);
  if (!stored) throw new Error(`The Aramex stand-in has no waybill ${waybill}`);
  if (!Number.isInteger(amount) || amount <= 0) throw new Error(`A remittance is a whole number of halalas above 0`);
  const remittance: CarrierRemittance = {
    waybill,
    amount,
    reference: `COD-${randomDigits(8)}`,
    at: new Date(at).toISOString(),
  };
  await kv.put(`${REMITTANCES}${remittance.at}:${waybill}:${remittance.reference}`, JSON.stringify(remittance), {
    expirationTtl: TTL,
  });
  return remittance;
}

/** The stand-in's COD statement: the remittances recorded at or after `since`, oldest first. */
export function aramexStatement(kv: KVNamespace): (since: string) => Promise<CarrierRemittance[]> {
  return async (since) => {
    const from = Date.parse(since);
    const out: CarrierRemittance[] = [];
    let cursor: string | undefined;
    do {
      const page = await kv.list({ prefix: REMITTANCES, cursor });
      for (const key of page.keys) {
        const remittance = await kv.get<CarrierRemittance>(key.name, "json");
        if (remittance && !(Date.parse(remittance.at) < from)) out.push(remittance);
      }
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return out.sort((a, b) => a.at.localeCompare(b.at));
  };
}
