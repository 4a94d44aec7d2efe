import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { regionOfCity } from "../../contract/regions";
import type { ConsoleSettings, ShippingSettings } from "../../contract/settings";
import { address, call, createProduct, newGuest, newUser, type Shopper } from "../support/commerce";
import { newStaff } from "../support/console";

/**
 * Shipping zones (contract/settings.ts, services/orders/checkout.ts): the owner's zones charge their own
 * rates to the regions they cover; the delivery city picks the zone, in the options' quote and in
 * the order's total alike; any other address pays the rest of the country's rates.
 */

const western = {
  name_en: "Western region",
  name_ar: "المنطقة الغربية",
  regions: ["makkah", "madinah"],
  standard: 1500,
  express: 3000,
  free_threshold: 20000,
};
const shipping: ShippingSettings = { standard: 2500, express: 5000, free_threshold: 30000, zones: [western] as never };

afterEach(async () => {
  await env.DB.prepare("DELETE FROM store_settings").run();
});

const save = async (value: unknown) =>
  call<ConsoleSettings>(await newStaff("owner"), "PUT", "/admin/settings/shipping", value);

async function cartOf(price: number): Promise<{ shopper: Shopper }> {
  const shopper = await newGuest();
  const product = await createProduct({ stock: 20, price });
  await call(shopper, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
  return { shopper };
}

const options = (shopper: Shopper, query = "") => call(shopper, "GET", `/checkout/options${query}`);

describe("shipping zones", () => {
  it("cities are placed in their region however they are written", () => {
    expect(regionOfCity("Jeddah")).toBe("makkah");
    expect(regionOfCity("  جدة ")).toBe("makkah");
    expect(regionOfCity("Al-Khobar")).toBe("eastern");
    expect(regionOfCity("الخُبَر")).toBe("eastern");
    expect(regionOfCity("مكة المكرمة")).toBe("makkah");
    expect(regionOfCity("riyadh")).toBe("riyadh");
    expect(regionOfCity("Atlantis")).toBeNull();
  });

  it("the options quote the zone of the address's city, and the rest of the country without a city or outside the zones", async () => {
    expect((await save(shipping)).status).toBe(200);
    const { shopper } = await cartOf(10000);

    const jeddah = await options(shopper, `?city=${encodeURIComponent("جدة")}&shipping_method=express`);
    expect(jeddah.status).toBe(200);
    expect(jeddah.body.data.shipping_methods.map((m: { price: number }) => m.price)).toEqual([1500, 3000]);
    expect(jeddah.body.data.totals.shipping).toBe(3000);
    expect(jeddah.body.data.free_shipping_threshold).toBe(20000);
    expect(jeddah.body.data.shipping_zone).toBe("Western region");

    // The spec's call, without a city: the rest of the country.
    const plain = await options(shopper);
    expect(plain.body.data.totals.shipping).toBe(2500);
    expect(plain.body.data.shipping_zone).toBeNull();
    const riyadh = await options(shopper, "?city=Riyadh");
    expect(riyadh.body.data.totals.shipping).toBe(2500);
    const unknown = await options(shopper, "?city=Atlantis");
    expect(unknown.body.data.totals.shipping).toBe(2500);
  });

  it("each zone has its own free-shipping threshold", async () => {
    expect((await save(shipping)).status).toBe(200);
    // 250 riyals: above the western zone's 200, below the country's 300.
    const { shopper } = await cartOf(25000);
    expect((await options(shopper, "?city=Madinah")).body.data.totals.shipping).toBe(0);
    expect((await options(shopper, "?city=Dammam")).body.data.totals.shipping).toBe(2500);
  });

  it("the order placed is charged what the options quoted for its address, whatever the client sends", async () => {
    expect((await save(shipping)).status).toBe(200);
    for (const [city, expected] of [
      ["Jeddah", 1500],
      ["Riyadh", 2500],
    ] as const) {
      const { shopper } = await cartOf(10000);
      const quote = await options(shopper, `?city=${city}`);
      const placed = await call(shopper, "POST", "/checkout", {
        idempotency_key: crypto.randomUUID(),
        email: shopper.email,
        address: { ...address, city },
        shipping_method: "standard",
        payment_method: "card",
        // Not part of the input: a client cannot name its price.
        shipping: 0,
        totals: { shipping: 0 },
      });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      expect(placed.body.data.shipping).toBe(expected);
      expect(placed.body.data.total).toBe(quote.body.data.totals.total);
    }
  });

  it("a signed-in shopper's saved address is charged by its own city's zone", async () => {
    expect((await save(shipping)).status).toBe(200);
    const shopper = await newUser();
    const saved = await call(shopper, "POST", "/client/addresses", { ...address, city: "Yanbu" });
    expect(saved.status).toBe(201);
    const product = await createProduct({ stock: 20, price: 10000 });
    await call(shopper, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const placed = await call(shopper, "POST", "/checkout", {
      idempotency_key: crypto.randomUUID(),
      address_id: saved.body.data.id,
      shipping_method: "express",
      payment_method: "card",
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data.shipping).toBe(3000);
  });

  it("settings saved before zones existed still read, as the rest of the country with no zones", async () => {
    await env.DB.prepare("INSERT INTO store_settings (key, value, updated_by) VALUES ('shipping', ?, 'owner@test')")
      .bind(JSON.stringify({ standard: 1900, express: 4500, free_threshold: 50000 }))
      .run();
    const read = await call<ConsoleSettings>(await newStaff("owner"), "GET", "/admin/settings");
    expect(read.body.data.values.shipping).toEqual({ standard: 1900, express: 4500, free_threshold: 50000, zones: [] });
    const { shopper } = await cartOf(10000);
    expect((await options(shopper, "?city=Jeddah")).body.data.totals.shipping).toBe(1900);
  });

  it("refuses a zone without a name or regions, and a region in two zones, naming the field; nothing is saved", async () => {
    const owner = await newStaff("owner", "ar");
    const bad = await call(owner, "PUT", "/admin/settings/shipping", {
      ...shipping,
      zones: [western, { ...western, name_ar: "" }, { ...western, regions: [] }, { ...western, regions: ["atlantis"] }],
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors!).sort()).toEqual(["zones.1.name_ar", "zones.2.regions", "zones.3.regions.0"]);

    const twice = await call(owner, "PUT", "/admin/settings/shipping", {
      ...shipping,
      zones: [
        western,
        { ...western, name_en: "Holy cities", name_ar: "المدن المقدسة", regions: ["riyadh", "madinah"] },
      ],
    });
    expect(twice.status).toBe(422);
    expect(Object.keys(twice.body.errors!)).toEqual(["zones.1.regions"]);
    expect(twice.body.errors!["zones.1.regions"]![0]).toContain("المنطقة الغربية");
    expect(twice.body.errors!["zones.1.regions"]![0]).toContain("المدينة المنورة");
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM store_settings").first<number>("n")).toBe(0);
  });

  it("a save of zones is audited with the zones before and after", async () => {
    expect((await save(shipping)).status).toBe(200);
    const audit = await env.DB.prepare(
      "SELECT before_json, after_json FROM audit_log WHERE entity = 'settings' AND entity_id = 'shipping' ORDER BY id DESC",
    ).first<Record<string, string>>();
    expect(JSON.parse(audit!.before_json).zones).toEqual([]);
    expect(JSON.parse(audit!.after_json).zones).toEqual([western]);
  });
});
