import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { freshIp } from "../support/accounts";
import { seedCatalogue } from "../support/catalogue";
import { address, call, createProduct, newGuest, newVerifiedUser, type Shopper } from "../support/commerce";

/** A shopper with a cart worth `halalas`. */
async function cartWorth(halalas: number, shopper?: Shopper): Promise<Shopper> {
  const who = shopper ?? (await newGuest());
  const product = await createProduct({ price: halalas, stock: 100 });
  expect((await call(who, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(200);
  return who;
}

// Checks are rate limited per network: each comes from an address of its own unless the shopper has one.
const check = (shopper: Pick<Shopper, "headers">, code: string) =>
  call({ headers: { "cf-connecting-ip": freshIp(), ...shopper.headers } }, "POST", "/promo-code/check", { code });

const checkout = (shopper: Shopper) =>
  call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email: shopper.email,
    address,
    shipping_method: "standard",
    payment_method: "card",
  });

async function ownCode(code: string, fields: Record<string, string | number | null>) {
  const columns = ["code", ...Object.keys(fields)];
  await env.DB.prepare(`INSERT INTO promo_codes (${columns.join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`)
    .bind(code, ...Object.values(fields))
    .run();
}

describe("promo codes", () => {
  beforeAll(async () => {
    // The demo seed carries the promo codes (WELCOME10, SAVE50, RAMADAN15, EXPIRED20, USEDUP).
    await seedCatalogue(env.DB);
  });

  it("a percentage code answers discount_type 1 and the discount as its percentage, and the cart applies it", async () => {
    // WELCOME10 is once per customer, so for signed-in customers with a verified account only.
    const user = await cartWorth(15000, await newVerifiedUser());
    const checked = await check(user, "WELCOME10");
    expect(checked.status).toBe(200);
    // Spec §3: `discount` under type 1 is the percentage; what it takes off this cart is `amount`.
    expect(checked.body.data).toMatchObject({ code: "WELCOME10", discount_type: 1, discount: 10, amount: 1500 });
    const cart = (await call(user, "GET", "/cart")).body.data;
    expect(cart).toMatchObject({
      subtotal: 15000,
      discount: 1500,
      total: 13500,
      promo: { code: "WELCOME10", discount_type: 1, discount: 1500 },
    });
  });

  it("codes are matched without regard to case", async () => {
    const user = await cartWorth(15000, await newVerifiedUser());
    expect((await check(user, "  welcome10 ")).body.data.code).toBe("WELCOME10");
    expect((await check(await cartWorth(40000), " save50")).body.data.code).toBe("SAVE50");
  });

  it("a fixed code answers discount_type 2 and its amount", async () => {
    const guest = await cartWorth(40000);
    expect((await check(guest, "SAVE50")).body.data).toMatchObject({
      code: "SAVE50",
      discount_type: 2,
      discount: 5000,
      amount: 5000,
    });
  });

  it("a percentage discount respects its cap", async () => {
    const user = await cartWorth(200000, await newVerifiedUser());
    expect((await check(user, "RAMADAN15")).body.data).toMatchObject({ discount_type: 1, discount: 15, amount: 15000 });
  });

  it("an expired code is refused with a clear message in the shopper's language", async () => {
    const guest = await cartWorth(50000);
    const refused = await check(guest, "EXPIRED20");
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      message: "This promo code has expired.",
      errors: { code: ["This promo code has expired."] },
    });
    const arabic = await check({ ...guest, headers: { ...guest.headers, "content-language": "ar" } }, "EXPIRED20");
    expect(arabic.body.errors?.code).toEqual(["انتهت صلاحية رمز الخصم هذا."]);
  });

  it("an order below the minimum is refused naming the minimum", async () => {
    const user = await cartWorth(5000, await newVerifiedUser());
    const refused = await check(user, "WELCOME10");
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.code).toEqual(["This promo code needs a minimum order of 100 SAR."]);
    const guest = await cartWorth(5000);
    const arabic = await check({ ...guest, headers: { ...guest.headers, "content-language": "ar" } }, "SAVE50");
    expect(arabic.body.errors?.code).toEqual(["يتطلب رمز الخصم هذا حداً أدنى للطلب قدره 300 ريال."]);
  });

  it("a used-up code, an unknown code and a code not started yet are refused", async () => {
    const guest = await cartWorth(50000);
    expect((await check(guest, "USEDUP")).body.errors?.code).toEqual(["This promo code has reached its usage limit."]);
    expect((await check(guest, "NOSUCHCODE")).body.errors?.code).toEqual(["This promo code does not exist."]);
    await ownCode("LATER5", { value: 5, starts_at: "2099-01-01T00:00:00.000Z" });
    expect((await check(guest, "LATER5")).body.errors?.code).toEqual(["This promo code is not active yet."]);
    await ownCode("OFF5", { value: 5, active: 0 });
    expect((await check(guest, "OFF5")).body.errors?.code).toEqual(["This promo code does not exist."]);
    expect((await check(guest, "")).status).toBe(422);
  });

  it("an emptied code is refused by the server and takes an applied code off the cart", async () => {
    const guest = await cartWorth(50000);
    await check(guest, "SAVE50");
    expect((await call(guest, "GET", "/cart")).body.data.discount).toBe(5000);
    const refused = await check(guest, "  ");
    expect(refused.status).toBe(422);
    expect(refused.body.errors?.code).toEqual(["Promo code is required."]);
    expect((await call(guest, "GET", "/cart")).body.data).toMatchObject({ discount: 0, promo: null, total: 50000 });
  });

  it("a refused code resets the cart's discount to 0", async () => {
    const guest = await cartWorth(50000);
    await check(guest, "SAVE50");
    expect((await call(guest, "GET", "/cart")).body.data.discount).toBe(5000);
    await check(guest, "EXPIRED20");
    expect((await call(guest, "GET", "/cart")).body.data).toMatchObject({ discount: 0, promo: null, total: 50000 });
  });

  it("remove takes the code off the cart", async () => {
    const guest = await cartWorth(50000);
    await check(guest, "SAVE50");
    const removed = await call(guest, "POST", "/promo-code/remove");
    expect(removed.body.data).toMatchObject({ discount: 0, total: 50000, promo: null });
  });

  it("a shopper cannot use a code past their per-user limit", async () => {
    const user = await cartWorth(20000, await newVerifiedUser());
    expect((await check(user, "WELCOME10")).status).toBe(200);
    const placed = await checkout(user);
    expect(placed.status).toBe(201);
    expect(placed.body.data).toMatchObject({ promo_code: "WELCOME10", discount: 2000 });
    await cartWorth(20000, user);
    const again = await check(user, "WELCOME10");
    expect(again.status).toBe(422);
    expect(again.body.errors?.code).toEqual(["You have already used this promo code."]);
  });

  it("the order's totals carry the discount, shipping and VAT", async () => {
    const guest = await cartWorth(40000);
    await check(guest, "SAVE50");
    const options = (await call(guest, "GET", "/checkout/options")).body.data.totals;
    // 400 SAR - 50 SAR = 350 SAR of goods: above the free-shipping threshold.
    expect(options).toEqual({
      subtotal: 40000,
      discount: 5000,
      shipping: 0,
      vat: Math.round((35000 * 0.15) / 1.15),
      total: 35000,
      currency: "SAR",
    });
    const placed = await checkout(guest);
    expect(placed.body.data).toMatchObject({ subtotal: 40000, discount: 5000, shipping: 0, total: 35000 });
    const row = await env.DB.prepare("SELECT used_count FROM promo_codes WHERE code = 'SAVE50'").first<{
      used_count: number;
    }>();
    expect(row!.used_count).toBeGreaterThanOrEqual(1);
  });

  it("the last use of a code goes to one checkout only, even when two race", async () => {
    await ownCode("LASTONE", { value: 10, usage_limit: 1 });
    const a = await cartWorth(20000);
    const b = await cartWorth(20000);
    expect((await check(a, "LASTONE")).status).toBe(200);
    expect((await check(b, "LASTONE")).status).toBe(200);
    const [first, second] = await Promise.all([checkout(a), checkout(b)]);
    expect([first.status, second.status].sort()).toEqual([201, 422]);
    const refused = first.status === 422 ? first : second;
    expect(refused.body.errors?.code).toEqual(["This promo code has reached its usage limit."]);
    const row = await env.DB.prepare("SELECT used_count FROM promo_codes WHERE code = 'LASTONE'").first<{
      used_count: number;
    }>();
    expect(row!.used_count).toBe(1);
  });

  it("an unknown guest cannot check codes", async () => {
    expect(
      (await call({ headers: { "guest-id": crypto.randomUUID() } }, "POST", "/promo-code/check", { code: "SAVE50" }))
        .status,
    ).toBe(401);
  });
});
