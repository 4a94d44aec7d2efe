import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import cancelPickupDoc from "../fixtures/aramex/cancel-pickup.request.json";
import createPickupDoc from "../fixtures/aramex/create-pickup.request.json";
import createPickupAnswer from "../fixtures/aramex/create-pickup.response.json";
import createRefused from "../fixtures/aramex/create-shipments.refused.json";
import createDoc from "../fixtures/aramex/create-shipments.request.json";
import createAnswer from "../fixtures/aramex/create-shipments.response.json";
import errorAnswer from "../fixtures/aramex/error.response.json";
import trackDoc from "../fixtures/aramex/track-shipments.request.json";
import trackAnswer from "../fixtures/aramex/track-shipments.response.json";
import sdkSample from "../fixtures/aramex/track-shipments.sdk-sample.json";
import {
  ARAMEX_API,
  ARAMEX_PATHS,
  AramexUnavailable,
  aramexCarrier,
  aramexFromEnv,
  eventsOfTracking,
  parseAramexDate,
  type AramexClientInfo,
  type AramexTrackingAnswer,
} from "../../worker/backend/services/shipping/aramex";
import { ARAMEX_UPDATE_CODES, statusOfUpdate } from "../../worker/backend/services/shipping/aramex-codes";
import {
  ARAMEX_STAND_IN_BASE,
  ARAMEX_STAND_IN_CLIENT,
  advanceAramex,
  aramexStandIn,
  loadAramexWaybill,
  remitAramex,
} from "../../worker/backend/services/shipping/aramex-stand-in";
import {
  CarrierRefused,
  type CarrierAddress,
  type PickupRequest,
  type ShipmentRequest,
  type ShipmentStatus,
} from "../../worker/backend/services/shipping/carrier";

// The Aramex adapter against Aramex's documented requests and answers (test/fixtures/aramex/, whose
// README gives each one's source), then against the offline stand-in the shop runs in development
// and test: the same adapter, its real requests, Aramex's shapes.

/** The manuals' test login, as the documented requests carry it. */
const CLIENT = createDoc.ClientInfo as AramexClientInfo;
const NOW = Date.parse("2026-12-01T09:00:00Z");

const shop: CarrierAddress = {
  name: "Souq Electronics",
  phone: "+966112345678",
  email: "shipping@souq.example",
  line1: "King Fahd Road 7070",
  district: "Al Olaya",
  city: "Riyadh",
  postal_code: "12211",
  short_address: "RRRD2929",
  building_number: "7070",
  additional_number: "2929",
  country: "SA",
};
const shopper: CarrierAddress = {
  name: "Noura Al-Qahtani",
  phone: "+966544337866",
  email: "noura@example.com",
  line1: "Prince Sultan Street 12",
  line2: "Flat 4",
  district: "Al Rawdah",
  city: "Jeddah",
  postal_code: "23435",
  short_address: "JRDA1234",
  building_number: "1234",
  additional_number: "5678",
  country: "SA",
};

const parcel = (over: Partial<ShipmentRequest> = {}): ShipmentRequest => ({
  reference: "1042-1",
  order_number: "1042",
  shipper: shop,
  consignee: shopper,
  items: [
    { sku: "PH-15", name: "Phone 15", quantity: 1, value: 10_000 },
    { sku: "CASE-1", name: "Case", quantity: 2, value: 2_500 },
  ],
  weight_grams: 1250,
  cod_amount: 12_345,
  declared_value: 15_000,
  description: "Electronics",
  ...over,
});

/** A return parcel picked up the day after tomorrow (Riyadh). */
function returnPickup(over: Partial<PickupRequest> = {}): PickupRequest {
  const day = new Date(Date.now() + 2 * 86_400_000 + 3 * 3_600_000).toISOString().slice(0, 10);
  return {
    reference: "1042-R1",
    order_number: "1042",
    pickup: shopper,
    deliver_to: shop,
    items: [{ sku: "CASE-1", name: "Case", quantity: 1, value: 2_500 }],
    weight_grams: 800,
    ready_on: day,
    ...over,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read the sent JSON loosely
type Body = Record<string, any>;
type Sent = { url: string; method: string; contentType: string | null; body: Body };

/** A fetcher that keeps each request and answers `answer` (as JSON unless a string). */
function recorder(answer: unknown, status = 200) {
  const calls: Sent[] = [];
  const fetcher = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    calls.push({
      url: request.url,
      method: request.method,
      contentType: request.headers.get("content-type"),
      body: (await request.json()) as Body,
    });
    return typeof answer === "string"
      ? new Response(answer, { status, headers: { "content-type": "text/html" } })
      : Response.json(answer, { status });
  }) as typeof fetch;
  return {
    calls,
    fetcher,
    carrier: aramexCarrier({ clientInfo: CLIENT, apiBase: ARAMEX_API, fetcher, now: () => NOW }),
  };
}

const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/** Every field path of a JSON value with its kind (an array's first element stands for all of them). */
function shape(value: unknown, path = "", out = new Map<string, string>()): Map<string, string> {
  if (path) out.set(path, kind(value));
  if (Array.isArray(value)) {
    if (value.length) shape(value[0], `${path}[]`, out);
  } else if (value && typeof value === "object") {
    for (const [key, child] of Object.entries(value)) shape(child, path ? `${path}.${key}` : key, out);
  }
  return out;
}

/**
 * The documented fields our request lacks or sends as another kind ("Details.ActualWeight.Value:
 * number, sent string"). A field documented as null need only be there.
 */
function differences(documented: unknown, sent: unknown): string[] {
  const ours = shape(sent);
  const out: string[] = [];
  for (const [path, expected] of shape(documented)) {
    if (!ours.has(path)) {
      // A field under one we send as null (no cash to collect) is not missing.
      const parent = [...ours.entries()].find(([p, k]) => k === "null" && path.startsWith(`${p}.`));
      if (!parent) out.push(`${path}: missing`);
      continue;
    }
    const got = ours.get(path)!;
    if (expected !== "null" && got !== expected && got !== "null") out.push(`${path}: ${expected}, sent ${got}`);
  }
  return out;
}

/** "/Date(ms+0300)/" for a Riyadh wall-clock time. */
const riyadh = (day: string, time: string) => `/Date(${Date.parse(`${day}T${time}:00+03:00`)}+0300)/`;

describe("Aramex: the adapter's requests against the documented ones, field by field", () => {
  it("CreateShipments: the documented fields, DOM/ONP prepaid by the shop's account, CODS with the cash in SAR, our reference", async () => {
    const { calls, carrier } = recorder(createAnswer);
    const created = await carrier.createShipment(parcel());
    expect(created).toEqual({ waybill: "44261925190" });

    expect(calls).toHaveLength(1);
    const [sent] = calls;
    expect(sent.url).toBe(`${ARAMEX_API}/Shipping/Service_1_0.svc/json/CreateShipments`);
    expect(sent.method).toBe("POST");
    expect(sent.contentType).toBe("application/json");
    expect(differences(createDoc, sent.body)).toEqual([]);

    const body = sent.body;
    expect(body.ClientInfo).toEqual(createDoc.ClientInfo);
    expect(body.LabelInfo).toEqual(createDoc.LabelInfo);
    expect(body.Transaction).toEqual({ ...createDoc.Transaction, Reference1: "1042-1" });
    expect(body.Shipments).toHaveLength(1);
    const shipment = body.Shipments[0];
    const documented = createDoc.Shipments[0];
    expect(shipment.Reference1).toBe("1042-1");
    expect(shipment.Reference2).toBe("1042");
    expect(shipment.ShippingDateTime).toBe(`/Date(${NOW}+0300)/`);
    expect(shipment.DueDate).toBe(`/Date(${NOW + 3 * 86_400_000}+0300)/`);
    expect(shipment.PickupLocation).toBe(documented.PickupLocation);

    expect(shipment.Shipper.Reference1).toBe("1042-1");
    expect(shipment.Shipper.AccountNumber).toBe(CLIENT.AccountNumber);
    expect(shipment.Shipper.PartyAddress).toMatchObject({
      Line1: "King Fahd Road 7070",
      Line3: "Al Olaya",
      City: "Riyadh",
      PostCode: "12211",
      CountryCode: "SA",
    });
    expect(shipment.Shipper.Contact).toMatchObject({
      PersonName: "Souq Electronics",
      CompanyName: "Souq Electronics",
      PhoneNumber1: "+966112345678",
      CellPhone: "+966112345678",
      EmailAddress: "shipping@souq.example",
    });
    expect(shipment.Consignee.AccountNumber).toBe("");
    expect(shipment.Consignee.PartyAddress).toMatchObject({
      Line1: "Prince Sultan Street 12",
      Line2: "Flat 4",
      Line3: "Al Rawdah",
      City: "Jeddah",
      PostCode: "23435",
      CountryCode: "SA",
    });
    expect(shipment.Consignee.Contact).toMatchObject({
      PersonName: "Noura Al-Qahtani",
      CompanyName: "Noura Al-Qahtani",
      PhoneNumber1: "+966544337866",
      CellPhone: "+966544337866",
      EmailAddress: "noura@example.com",
    });

    const details = shipment.Details;
    expect(details.ProductGroup).toBe(documented.Details.ProductGroup);
    expect(details.ProductType).toBe(documented.Details.ProductType);
    expect(details.PaymentType).toBe(documented.Details.PaymentType);
    expect(details.Services).toBe(documented.Details.Services);
    expect([details.ProductGroup, details.ProductType, details.PaymentType, details.Services]).toEqual([
      "DOM",
      "ONP",
      "P",
      "CODS",
    ]);
    expect(details.ActualWeight).toEqual({ Unit: "KG", Value: 1.25 });
    expect(details.NumberOfPieces).toBe(1);
    expect(details.CashOnDeliveryAmount).toEqual({ CurrencyCode: "SAR", Value: 123.45 });
    expect(details.CustomsValueAmount).toEqual({ CurrencyCode: "SAR", Value: 150 });
    expect(details.DescriptionOfGoods).toBe("Electronics");
    expect(details.GoodsOriginCountry).toBe("SA");
    expect(details.Items).toEqual([
      { PackageType: "Box", Quantity: 1, Weight: null, Comments: "Phone 15", Reference: "PH-15" },
      { PackageType: "Box", Quantity: 2, Weight: null, Comments: "Case", Reference: "CASE-1" },
    ]);
  });

  it("CreateShipments for a paid order: no CODS and no cash to collect", async () => {
    const { calls, carrier } = recorder(createAnswer);
    await carrier.createShipment(parcel({ cod_amount: 0 }));
    const details = calls[0].body.Shipments[0].Details;
    expect(details.Services).toBe("");
    expect(details.CashOnDeliveryAmount).toBeNull();
    expect(details.ProductGroup).toBe("DOM");
  });

  it("TrackShipments: the documented request, at the Tracking service", async () => {
    const { calls, carrier } = recorder(trackAnswer);
    await carrier.track(["44261925190", "44261925190", " "]);
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe(`${ARAMEX_API}/Tracking/Service_1_0.svc/json/TrackShipments`);
    expect(differences(trackDoc, calls[0].body)).toEqual([]);
    expect(calls[0].body).toEqual(trackDoc);
  });

  it("TrackShipments asks in batches of 50 and asks nothing for no waybill", async () => {
    const { calls, carrier } = recorder({ ...trackAnswer, TrackingResults: [] });
    expect(await carrier.track([])).toEqual([]);
    expect(calls).toHaveLength(0);
    await carrier.track(Array.from({ length: 120 }, (_, i) => String(40_000_000_000 + i)));
    expect(calls.map((c) => c.body.Shipments.length)).toEqual([50, 50, 20]);
  });

  it("CreatePickup: the documented fields, the return parcel in Pickup.Shipments, the courier's hours in Riyadh time", async () => {
    const { calls, carrier } = recorder(createPickupAnswer);
    const request = returnPickup({ ready_on: "2026-12-08" });
    expect(await carrier.bookPickup(request)).toEqual({
      waybill: "44261925191",
      pickup_reference: "4e29b471-0ed8-4ba8-ac0e-fddedfb6beec",
    });
    const [sent] = calls;
    expect(sent.url).toBe(`${ARAMEX_API}/Shipping/Service_1_0.svc/json/CreatePickup`);
    expect(differences(createPickupDoc, sent.body)).toEqual([]);
    const pickup = sent.body.Pickup;
    expect(sent.body.ClientInfo).toEqual(createPickupDoc.ClientInfo);
    expect(pickup.PickupAddress).toMatchObject({ Line1: "Prince Sultan Street 12", City: "Jeddah", CountryCode: "SA" });
    expect(pickup.PickupContact).toMatchObject({ PersonName: "Noura Al-Qahtani", PhoneNumber1: "+966544337866" });
    expect(pickup.PickupDate).toBe(riyadh("2026-12-08", "09:00"));
    expect(pickup.ReadyTime).toBe(riyadh("2026-12-08", "09:00"));
    expect(pickup.LastPickupTime).toBe(riyadh("2026-12-08", "17:00"));
    expect(pickup.ClosingTime).toBe(riyadh("2026-12-08", "18:00"));
    expect(pickup.Reference1).toBe("1042-R1");
    expect(pickup.Status).toBe(createPickupDoc.Pickup.Status);
    expect(pickup.PickupItems).toEqual([
      {
        ...createPickupDoc.Pickup.PickupItems[0],
        ShipmentWeight: { Unit: "KG", Value: 0.8 },
        Comments: "Return of order 1042",
      },
    ]);
    expect(pickup.Shipments).toHaveLength(1);
    const shipment = pickup.Shipments[0];
    expect(differences(createDoc.Shipments[0], shipment)).toEqual([]);
    expect(shipment.Reference1).toBe("1042-R1");
    expect(shipment.Shipper.AccountNumber).toBe(CLIENT.AccountNumber);
    expect(shipment.Shipper.PartyAddress.City).toBe("Jeddah");
    expect(shipment.Consignee.PartyAddress.City).toBe("Riyadh");
    expect(shipment.Details).toMatchObject({
      ProductGroup: "DOM",
      ProductType: "ONP",
      PaymentType: "P",
      Services: "",
      CashOnDeliveryAmount: null,
      ActualWeight: { Unit: "KG", Value: 0.8 },
    });
  });

  it("CancelPickup: the documented request with the pickup's GUID", async () => {
    const { calls, carrier } = recorder({ Transaction: null, Notifications: [], HasErrors: false });
    await carrier.cancelPickup("4e29b471-0ed8-4ba8-ac0e-fddedfb6beec");
    expect(calls[0].url).toBe(`${ARAMEX_API}/Shipping/Service_1_0.svc/json/CancelPickup`);
    expect(differences(cancelPickupDoc, calls[0].body)).toEqual([]);
    expect(calls[0].body.PickupGUID).toBe(cancelPickupDoc.PickupGUID);
  });

  it("each call goes to its documented path", () => {
    expect(ARAMEX_PATHS).toEqual({
      createShipments: "/Shipping/Service_1_0.svc/json/CreateShipments",
      createPickup: "/Shipping/Service_1_0.svc/json/CreatePickup",
      cancelPickup: "/Shipping/Service_1_0.svc/json/CancelPickup",
      trackShipments: "/Tracking/Service_1_0.svc/json/TrackShipments",
    });
  });
});

describe("Aramex: the documented answers, read", () => {
  it("a TrackShipments answer of the JSON binding: the step, its code, words, place and WCF moment", async () => {
    const { carrier } = recorder(trackAnswer);
    expect(await carrier.track(["44261925190"])).toEqual([
      {
        waybill: "44261925190",
        status: "created",
        code: "SH014",
        description: "Record created.",
        location: "Dubai, United Arab Emirates",
        at: new Date(1706788140000).toISOString(),
      },
    ]);
  });

  it("the SDK's tracking sample: newest first becomes oldest first, each code in the shop's words", () => {
    const records = sdkSample.TrackingResults.KeyValueOfstringArrayOfTrackingResultmFAkxlpY.Value.TrackingResult;
    // The same TrackingResult records, in the JSON binding's dictionary.
    const lifted: AramexTrackingAnswer = {
      HasErrors: false,
      Notifications: [],
      TrackingResults: [{ Key: "41118182136", Value: records }],
      NonExistingWaybills: sdkSample.NonExistingWaybills.string,
    };
    expect(eventsOfTracking(lifted)).toEqual([
      {
        waybill: "41118182136",
        status: "in_transit",
        code: "SH160",
        description: "Under processing at operations facility",
        location: "Al Muqabalain, Jordan",
        at: "2015-07-13T01:30:00.000Z",
      },
      {
        waybill: "41118182136",
        status: "out_for_delivery",
        code: "SH003",
        description: "Out for Delivery",
        location: "Al Muqabalain, Jordan",
        at: "2015-07-13T05:46:00.000Z",
      },
      {
        waybill: "41118182136",
        status: "delivered",
        code: "SH005",
        description: "Delivered",
        location: "Al Muqabalain, Jordan",
        at: "2015-07-13T10:08:00.000Z",
      },
      {
        waybill: "30994423681",
        status: "created",
        code: "SH014",
        description: "Record created.",
        location: "Amman, Jordan",
        at: "2018-10-11T13:05:00.000Z",
      },
    ]);
  });

  it("HasErrors with Notifications is a refusal in Aramex's words, with its code", async () => {
    const { carrier } = recorder(errorAnswer);
    const refused = await carrier.track(["44261925190"]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CarrierRefused);
    expect((refused as CarrierRefused).message).toBe("ClientInfo - Invalid username or password");
    expect((refused as CarrierRefused).code).toBe("ERR01");
  });

  it("a processed shipment with errors refuses the shipment, in Aramex's words", async () => {
    const { carrier } = recorder(createRefused);
    const refused = await carrier.createShipment(parcel()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CarrierRefused);
    expect((refused as CarrierRefused).message).toBe("ClientInfo - Invalid username or password");
    expect((refused as CarrierRefused).code).toBe("ERR01");
  });

  it("a 5xx, no answer, or an answer without Aramex's envelope is Aramex unavailable, never a refusal", async () => {
    for (const carrier of [
      // Even an envelope that says HasErrors is no refusal when it comes with a 5xx.
      recorder({ HasErrors: true, Notifications: [{ Code: "503", Message: "Service Unavailable" }] }, 503).carrier,
      recorder("<html>Request Error</html>", 400).carrier,
      aramexCarrier({
        clientInfo: CLIENT,
        apiBase: ARAMEX_API,
        fetcher: (async () => {
          throw new TypeError("Network connection lost.");
        }) as typeof fetch,
      }),
    ]) {
      const failed = await carrier.track(["44261925190"]).catch((e: unknown) => e);
      expect(failed).toBeInstanceOf(AramexUnavailable);
      expect(failed).not.toBeInstanceOf(CarrierRefused);
    }
  });

  it("WCF moments and zoneless ones (Riyadh) are read; a step of an unknown code and plain words changes nothing", () => {
    expect(parseAramexDate("/Date(1706788140000+0300)/")).toBe("2024-02-01T11:49:00.000Z");
    expect(parseAramexDate("/Date(1706788140000)/")).toBe("2024-02-01T11:49:00.000Z");
    expect(parseAramexDate("2015-07-13T13:08:00")).toBe("2015-07-13T10:08:00.000Z");
    expect(parseAramexDate("yesterday")).toBeNull();
    const step = (code: string, description: string, ms: number) => ({
      WaybillNumber: "41111111111",
      UpdateCode: code,
      UpdateDescription: description,
      UpdateDateTime: `/Date(${ms}+0300)/`,
      UpdateLocation: "Riyadh, Saudi Arabia",
    });
    const events = eventsOfTracking({
      HasErrors: false,
      TrackingResults: [
        {
          Key: "41111111111",
          Value: [
            step("SH239", "COD amount settled", 5_000),
            step("SH005", "Delivered", 4_000),
            step("SH998", "Shipment on hold for customs", 3_000),
            step("SH012", "Picked up from shipper", 2_000),
            step("SH014", "Record created.", 1_000),
          ],
        },
      ],
    });
    expect(events.map((e) => [e.code, e.status])).toEqual([
      ["SH014", "created"],
      ["SH012", "picked_up"],
      ["SH998", "picked_up"],
      ["SH005", "delivered"],
      ["SH239", "delivered"],
    ]);
  });

  it("every code of the table reads as its status, and plain words read without a code", () => {
    for (const row of ARAMEX_UPDATE_CODES) expect(statusOfUpdate(row.code, "")).toBe(row.status);
    expect(statusOfUpdate("SH005", "")).toBe("delivered");
    expect(statusOfUpdate("SH003", "")).toBe("out_for_delivery");
    expect(statusOfUpdate("SH069", "")).toBe("returned_to_sender");
    expect(statusOfUpdate("SH014", "")).toBe("created");
    expect(statusOfUpdate("SH999", "Returned to shipper")).toBe("returned_to_sender");
    expect(statusOfUpdate("SH999", "Not delivered - consignee not available")).toBe("delivery_attempted");
    expect(statusOfUpdate("SH999", "Customs clearance")).toBeNull();
  });
});

describe("Aramex: the stand-in, through the same adapter", () => {
  const standIn = () => {
    const carrier = aramexFromEnv(env);
    expect(carrier).not.toBeNull();
    return carrier!;
  };
  const later = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
  const statuses = async (waybill: string) =>
    (await standIn().track([waybill])).filter((e) => e.waybill === waybill).map((e) => e.status);

  it("create → advance → track: the steps in order, the COD amount carried", async () => {
    const carrier = standIn();
    const { waybill } = await carrier.createShipment(parcel({ reference: `RT-${crypto.randomUUID()}` }));
    expect(waybill).toMatch(/^\d{11}$/);
    const stored = await loadAramexWaybill(env.KV, waybill);
    expect(stored).toMatchObject({ cod: 12_345, services: "CODS", productGroup: "DOM", productType: "ONP" });
    expect(await statuses(waybill)).toEqual(["created"]);

    const path: ShipmentStatus[] = ["picked_up", "in_transit", "out_for_delivery", "delivered"];
    for (const [i, status] of path.entries()) await advanceAramex(env.KV, waybill, status, later(i + 1));
    const events = (await carrier.track([waybill])).filter((e) => e.waybill === waybill);
    expect(events.map((e) => e.status)).toEqual(["created", ...path]);
    expect(events.map((e) => e.code)).toEqual(["SH014", "SH012", "SH160", "SH003", "SH005"]);
    expect(events.at(-1)).toMatchObject({ description: "Delivered", location: "Jeddah, Saudi Arabia" });
    expect(events[1].location).toBe("Riyadh, Saudi Arabia");
  });

  it("an attempt and a return to the shop read as such", async () => {
    const { waybill } = await standIn().createShipment(parcel({ cod_amount: 0 }));
    for (const [i, status] of (["picked_up", "delivery_attempted", "returned_to_sender"] as const).entries())
      await advanceAramex(env.KV, waybill, status, later(i + 1));
    expect(await statuses(waybill)).toEqual(["created", "picked_up", "delivery_attempted", "returned_to_sender"]);
  });

  it("cancelling: fine before Aramex has the parcel, refused once picked up, in Aramex's words", async () => {
    const carrier = standIn();
    const early = await carrier.createShipment(parcel());
    await expect(carrier.cancelShipment(early.waybill)).resolves.toBeUndefined();

    const taken = await carrier.createShipment(parcel());
    await advanceAramex(env.KV, taken.waybill, "picked_up", later(1));
    const refused = await carrier.cancelShipment(taken.waybill).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CarrierRefused);
    expect((refused as CarrierRefused).code).toBe("picked_up");
    expect((refused as CarrierRefused).message).toContain("Picked up from shipper");

    const unknown = await carrier.cancelShipment("49999999999").catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(CarrierRefused);
    expect((unknown as CarrierRefused).code).toBe("not_found");
  });

  it("a return pickup: booked with its waybill and GUID, called off once, refused once collected", async () => {
    const carrier = standIn();
    const booked = await carrier.bookPickup(returnPickup());
    expect(booked.waybill).toMatch(/^\d{11}$/);
    expect(booked.pickup_reference).toMatch(/^[0-9a-f-]{36}$/);
    expect(await statuses(booked.waybill)).toEqual(["created"]);
    const stored = await loadAramexWaybill(env.KV, booked.waybill);
    expect(stored).toMatchObject({ cod: 0, services: "", pickup: booked.pickup_reference });
    expect(stored!.origin).toBe("Jeddah, Saudi Arabia");
    expect(stored!.destination).toBe("Riyadh, Saudi Arabia");

    await expect(carrier.cancelPickup(booked.pickup_reference!)).resolves.toBeUndefined();
    await expect(carrier.cancelPickup(booked.pickup_reference!)).rejects.toThrow("already cancelled");

    const collected = await carrier.bookPickup(returnPickup());
    await advanceAramex(env.KV, collected.waybill, "picked_up", later(1));
    const refused = await carrier.cancelPickup(collected.pickup_reference!).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(CarrierRefused);
    expect((refused as CarrierRefused).message).toContain("already been collected");
  });

  it("a pickup day in the past, or not a day, is refused", async () => {
    const carrier = standIn();
    await expect(carrier.bookPickup(returnPickup({ ready_on: "2020-01-05" }))).rejects.toThrow(CarrierRefused);
    await expect(carrier.bookPickup(returnPickup({ ready_on: "tomorrow" }))).rejects.toThrow(CarrierRefused);
  });

  it("COD remitted on the stand-in's statement comes back from remittances(), from the moment asked", async () => {
    const carrier = standIn();
    const { waybill } = await carrier.createShipment(parcel());
    await advanceAramex(env.KV, waybill, "delivered", later(1));
    const at = later(2);
    await remitAramex(env.KV, waybill, 12_345, at);
    const since = await carrier.remittances(new Date(Date.parse(at) - 1000).toISOString());
    expect(since.filter((r) => r.waybill === waybill)).toEqual([
      { waybill, amount: 12_345, reference: expect.stringMatching(/^COD-\d{8}$/), at },
    ]);
    expect((await carrier.remittances(later(3))).filter((r) => r.waybill === waybill)).toEqual([]);
  });

  it("the stand-in refuses what Aramex refuses: a wrong login, no weight, cash without CODS' currency", async () => {
    const wrong = aramexCarrier({
      clientInfo: { ...ARAMEX_STAND_IN_CLIENT, Password: "not-it" },
      apiBase: ARAMEX_STAND_IN_BASE,
      fetcher: aramexStandIn(env.KV),
    });
    const login = await wrong.createShipment(parcel()).catch((e: unknown) => e);
    expect(login).toBeInstanceOf(CarrierRefused);
    expect(login).toMatchObject({ code: "ERR01", message: "ClientInfo - Invalid username or password" });

    const weightless = await standIn()
      .createShipment(parcel({ weight_grams: 0 }))
      .catch((e: unknown) => e);
    expect(weightless).toBeInstanceOf(CarrierRefused);
    expect((weightless as CarrierRefused).message).toContain("Details.ActualWeight.Value");

    const abroad = await standIn()
      .createShipment(parcel({ consignee: { ...shopper, country: "AE", city: "Dubai" } }))
      .catch((e: unknown) => e);
    expect(abroad).toBeInstanceOf(CarrierRefused);
    expect((abroad as CarrierRefused).code).toBe("not_domestic");
  });

  it("the stand-in has no cancellation step to move a parcel to", async () => {
    const { waybill } = await standIn().createShipment(parcel());
    await expect(advanceAramex(env.KV, waybill, "cancelled")).rejects.toThrow("no tracking step");
  });
});

describe("Aramex: configuration", () => {
  const login = {
    ARAMEX_USERNAME: "api@souq.example",
    ARAMEX_PASSWORD: "secret",
    ARAMEX_ACCOUNT_NUMBER: "60001234",
    ARAMEX_ACCOUNT_PIN: "112233",
    ARAMEX_ACCOUNT_ENTITY: "RUH",
  };

  it("production: the real API with a full login, nothing without one or with half of one", () => {
    const production = { ENVIRONMENT: "production" as const, KV: env.KV };
    expect(aramexFromEnv(production)).toBeNull();
    expect(aramexFromEnv({ ...production, ...login })?.id).toBe("aramex");
    expect(aramexFromEnv({ ...production, ...login, ARAMEX_ACCOUNT_PIN: "" })).toBeNull();
    expect(aramexFromEnv({ ...production, ...login, ARAMEX_ACCOUNT_ENTITY: " " })).toBeNull();
  });

  it("development and test without a login: the stand-in", () => {
    expect(aramexFromEnv({ ENVIRONMENT: "development", KV: env.KV })?.id).toBe("aramex");
    expect(aramexFromEnv({ ENVIRONMENT: "test", KV: env.KV })?.id).toBe("aramex");
  });
});
