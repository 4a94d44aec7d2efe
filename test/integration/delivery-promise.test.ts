import { applyD1Migrations, SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { deliveryPromise, type DeliveryPromiseSettings } from "../../contract/delivery-promise";
import { shopArrivesBy, shopIsoDay } from "../../contract/shop-time";
import { loadSettings } from "../../worker/backend/services/shared/settings";
import { shopPeriods } from "../../worker/backend/services/console/dashboard";
import { address, call, checkoutWith, createProduct, newGuest, newUser } from "../support/commerce";
import { newStaff } from "../support/console";
import { dropAll } from "../support/d1-schema";

/**
 * The delivery promise end to end in the backend: the `delivery` settings section (owners,
 * checked per field in both languages), GET /delivery/promise (never cached), checkout's options,
 * the order that keeps its promise (orders.promised_by, migration 0047) and the dashboard's
 * on-time share computed from the stored promises.
 */

/** Promises far apart by city, so a promise tells which city it was made for whatever the clock. */
const delivery: DeliveryPromiseSettings = {
  cutoff: "14:00",
  lead_days: 10,
  zones: [],
  cities: [{ city: "Riyadh", days: 1 }],
  holidays: ["2027-02-22"],
  hijri: true,
};

/** The day the rule gives for a city around a call: the same unless the call crossed the cut-off. */
async function around<T>(city: string, run: () => Promise<T>): Promise<{ result: T; days: string[] }> {
  const settings = (await loadSettings(env)).delivery;
  const before = deliveryPromise(Date.now(), city, settings).arrives_by;
  const result = await run();
  const after = deliveryPromise(Date.now(), city, settings).arrives_by;
  return { result, days: [...new Set([before, after])] };
}

afterEach(async () => {
  await env.DB.prepare("DELETE FROM store_settings").run();
});

describe("the delivery settings", () => {
  it("start from the defaults: a 14:00 cut-off, official holidays, Gregorian only", async () => {
    const owner = await newStaff("owner");
    const read = await call(owner, "GET", "/admin/settings");
    const values = read.body.data.values.delivery as DeliveryPromiseSettings;
    expect(values).toMatchObject({ cutoff: "14:00", lead_days: 3, zones: [], hijri: false });
    const year = Number(shopIsoDay().slice(0, 4));
    expect(values.holidays).toEqual(
      expect.arrayContaining([`${year}-02-22`, `${year}-09-23`, `${year + 1}-02-22`, `${year + 1}-09-23`]),
    );
  });

  it("refuse a wrong field by name, in the owner's language, and save nothing", async () => {
    for (const lang of ["en", "ar"] as const) {
      const owner = await newStaff("owner", lang);
      const bad = await call(owner, "PUT", "/admin/settings/delivery", {
        cutoff: "2pm",
        lead_days: 99,
        zones: [{ zone: "", days: 1 }],
        cities: [{ city: "Riyadh", days: -1 }],
        holidays: ["2027-02-22", "2027-02-30"],
        hijri: "yes",
      });
      expect(bad.status).toBe(422);
      const keys = Object.keys(bad.body.errors!).sort();
      expect(keys).toEqual(["cities.0.days", "cutoff", "hijri", "holidays.1", "lead_days", "zones.0.zone"]);
      if (lang === "ar") for (const k of keys) expect(bad.body.errors![k]![0], k).toMatch(/[\u0600-\u06FF]/);
      else expect(bad.body.errors!.cutoff![0]).toMatch(/HH:MM/);
      expect(bad.body.errors!["holidays.1"]![0]).toContain("2027-02-30");
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM store_settings").first<number>("n")).toBe(0);
  });

  it("only owners change them; a save is read back in order, and the next promise follows it", async () => {
    const [owner, manager] = await Promise.all([newStaff("owner"), newStaff("manager")]);
    expect((await call(manager, "PUT", "/admin/settings/delivery", delivery)).status).toBe(403);
    const saved = await call(owner, "PUT", "/admin/settings/delivery", {
      ...delivery,
      holidays: ["2027-09-23", "2027-02-22", "2027-09-23"],
    });
    expect(saved.status).toBe(200);
    const values = (await call(owner, "GET", "/admin/settings")).body.data.values.delivery;
    expect(values).toEqual({ ...delivery, holidays: ["2027-02-22", "2027-09-23"] });
  });
});

describe("GET /delivery/promise", () => {
  it("answers the chosen city's promise, never cached; without a city it asks for one", async () => {
    const owner = await newStaff("owner");
    await call(owner, "PUT", "/admin/settings/delivery", { ...delivery, hijri: false });
    const guest = await newGuest();
    const riyadh = await around("Riyadh", () => call(guest, "GET", "/delivery/promise?city=Riyadh"));
    expect(riyadh.result.status).toBe(200);
    expect(riyadh.days).toContain(riyadh.result.body.data.promise.arrives_by);
    expect(riyadh.result.body.data).toMatchObject({ city: "Riyadh", source: "chosen" });
    expect(riyadh.result.body.data.promise.text).toBe(shopArrivesBy(riyadh.result.body.data.promise.arrives_by, "en"));
    const tabuk = await around("Tabuk", () => call(guest, "GET", "/delivery/promise?city=Tabuk"));
    expect(tabuk.days).toContain(tabuk.result.body.data.promise.arrives_by);
    // Ten working days against one: another city, another day.
    expect(tabuk.result.body.data.promise.arrives_by > riyadh.result.body.data.promise.arrives_by).toBe(true);

    const none = await call(guest, "GET", "/delivery/promise");
    expect(none.body.data).toMatchObject({ city: null, source: null, promise: null });
    expect(none.body.data.cities.map((c: { value: string }) => c.value)).toEqual(
      expect.arrayContaining(["Riyadh", "Jeddah", "Dammam"]),
    );

    const res = await SELF.fetch("http://shop.test/backend/delivery/promise?city=Riyadh", {
      headers: { "cf-connecting-ip": "198.51.100.7" },
    });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("a signed-in shopper's default address wins over the chosen city; Arabic adds the Hijri date when chosen", async () => {
    const owner = await newStaff("owner");
    await call(owner, "PUT", "/admin/settings/delivery", delivery);
    const user = await newUser("ar");
    const saved = await call(user, "POST", "/client/addresses", { ...address, city: "الرياض", is_default: true });
    expect(saved.status).toBe(201);
    const answer = await around("Riyadh", () => call(user, "GET", "/delivery/promise?city=Tabuk"));
    expect(answer.result.body.data).toMatchObject({ city: "الرياض", source: "address" });
    expect(answer.days).toContain(answer.result.body.data.promise.arrives_by);
    expect(answer.result.body.data.promise.text).toMatch(/^يصل بحلول .+ \(\d{1,2} .+ \d{4} هـ\)$/);
    expect(answer.result.body.data.cities.find((c: { value: string }) => c.value === "Riyadh").label).toBe("الرياض");
  });
});

describe("the order keeps its promise", () => {
  it("checkout's options follow the city; the placed order stores the day its city and the clock give", async () => {
    const owner = await newStaff("owner");
    await call(owner, "PUT", "/admin/settings/delivery", { ...delivery, hijri: false });
    const product = await createProduct({ price: 5000, stock: 20 });
    const guest = await newGuest();
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const quoted = {
      riyadh: await around("Riyadh", () => call(guest, "GET", "/checkout/options?city=Riyadh")),
      abha: await around("Abha", () => call(guest, "GET", "/checkout/options?city=Abha")),
    };
    expect(quoted.riyadh.days).toContain(quoted.riyadh.result.body.data.delivery_promise.arrives_by);
    expect(quoted.abha.days).toContain(quoted.abha.result.body.data.delivery_promise.arrives_by);
    expect(quoted.abha.result.body.data.delivery_promise.arrives_by).not.toBe(
      quoted.riyadh.result.body.data.delivery_promise.arrives_by,
    );

    for (const city of ["Riyadh", "Abha"]) {
      const shopper = await newGuest();
      const placed = await around(city, () => checkoutWith(shopper, product.id, 1, { address: { ...address, city } }));
      expect(placed.result.status).toBe(201);
      const number = placed.result.body.data.number as string;
      const row = await env.DB.prepare("SELECT promised_by FROM orders WHERE number = ?")
        .bind(number)
        .first<{ promised_by: string }>();
      expect(placed.days, city).toContain(row!.promised_by);
      // The order page says it until the order is delivered.
      const shown = await call(shopper, "GET", `/orders/${number}`);
      expect(shown.body.data.promised_by).toBe(row!.promised_by);
      expect(shown.body.data.delivery_promise).toEqual({
        arrives_by: row!.promised_by,
        text: shopArrivesBy(row!.promised_by, "en"),
      });
      await env.DB.prepare(
        "UPDATE orders SET status = 'delivered', delivered_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE number = ?",
      )
        .bind(number)
        .run();
      const delivered = await call(shopper, "GET", `/orders/${number}`);
      expect(delivered.body.data.delivery_promise).toBeNull();
      expect(delivered.body.data.promised_by).toBe(row!.promised_by);
    }
  });
});

describe("the dashboard's on-time share", () => {
  /** An order placed through checkout, then delivered at `deliveredAt` with the promise `promisedBy`. */
  async function delivered(promisedBy: string | null, deliveredAt: Date): Promise<void> {
    const product = await createProduct({ price: 3000, stock: 10 });
    const placed = await checkoutWith(await newGuest(), product.id);
    expect(placed.status).toBe(201);
    await env.DB.prepare("UPDATE orders SET status = 'delivered', delivered_at = ?, promised_by = ? WHERE number = ?")
      .bind(deliveredAt.toISOString(), promisedBy, placed.body.data.number)
      .run();
  }

  it("counts this week's delivered orders with a promise, on time when the shop day of delivery is the promised day or earlier", async () => {
    const manager = await newStaff("manager");
    const before = (await call(manager, "GET", "/admin/dashboard")).body.data.on_time;
    const now = new Date();
    const { week } = shopPeriods(now);
    const today = shopIsoDay(now);
    const yesterday = shopIsoDay(now.getTime() - 86_400_000);
    const inTwoDays = shopIsoDay(now.getTime() + 2 * 86_400_000);
    await delivered(inTwoDays, now); // early
    await delivered(today, now); // on the day
    await delivered(yesterday, now); // a day late
    await delivered(null, now); // placed before promises: not counted
    await delivered(today, new Date(week.getTime() - 60_000)); // last week: not this week's
    const after = (await call(manager, "GET", "/admin/dashboard")).body.data.on_time;
    expect(after.from).toBe(week.toISOString());
    expect(after.delivered - before.delivered).toBe(3);
    expect(after.on_time - before.on_time).toBe(2);
    expect(after.share).toBeCloseTo(after.on_time / after.delivered, 10);
  });

  it("reads the shop's day of delivered_at: 21:00 UTC is the next day in Riyadh", async () => {
    const manager = await newStaff("manager");
    const before = (await call(manager, "GET", "/admin/dashboard")).body.data.on_time;
    // The Riyadh midnight that began today: a delivery a minute after it belongs to today.
    const { today } = shopPeriods(new Date());
    const justAfter = new Date(today.getTime() + 60_000);
    const previousDay = shopIsoDay(today.getTime() - 60_000);
    await delivered(previousDay, justAfter); // late by its shop day, though the UTC date is the promised one
    await delivered(shopIsoDay(justAfter), justAfter);
    const after = (await call(manager, "GET", "/admin/dashboard")).body.data.on_time;
    expect(after.delivered - before.delivered).toBe(2);
    expect(after.on_time - before.on_time).toBe(1);
  });
});

describe("migration 0047 on a database made and used under the schema before it", () => {
  it("keeps every order as it was, with no promise, and the on-time share counts none of them", async () => {
    const db = env.REPLICA_DB;
    await dropAll(db);
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0047"),
    );
    const statements = ["delivered", "shipped", "paid"].map((status, i) =>
      db
        .prepare(
          `INSERT INTO orders (number, email, phone, status, subtotal, discount, shipping, vat, total, address,
             shipping_method, payment_method, stock_reserved, idempotency_key, delivered_at)
           VALUES (?, 'old@example.com', '+966500000000', ?, 10000, 0, 2500, 0, 12500, ?, 'standard', 'card', 0, ?, ?)`,
        )
        .bind(
          `SQ-OLD-P${i}`,
          status,
          JSON.stringify({ name: "Old", phone: "+966500000000", city: "Riyadh", district: "D", street: "S" }),
          `old-key-${i}`,
          status === "delivered" ? new Date().toISOString() : null,
        ),
    );
    await db.batch(statements);
    const read = () => db.prepare("SELECT * FROM orders ORDER BY id").all();
    const before = (await read()).results;
    expect(before).toHaveLength(3);
    await applyD1Migrations(db, env.TEST_MIGRATIONS);
    const after = (await read()).results;
    // Later migrations' columns (a business buyer's) come empty.
    expect(after).toEqual(
      before.map((row) => ({ ...row, promised_by: null, buyer_company: null, buyer_vat_number: null })),
    );
    // A promise must read as a day.
    await expect(
      db.prepare("UPDATE orders SET promised_by = 'tomorrow' WHERE number = 'SQ-OLD-P0'").run(),
    ).rejects.toThrow();
    const counted = await db
      .prepare("SELECT COUNT(*) AS n FROM orders WHERE delivered_at IS NOT NULL AND promised_by IS NOT NULL")
      .first<number>("n");
    expect(counted).toBe(0);
  });
});
