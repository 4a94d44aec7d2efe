import { SELF } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { cartContents } from "../../worker/backend/services/orders/cart";
import { computeTotals, writeOrder } from "../../worker/backend/services/orders/checkout";
import { isoIn } from "../../worker/backend/services/orders/orders";
import type { CartOwner } from "../../worker/backend/identity";
import { BackendError } from "../../worker/backend/http";
import { awayFromMinuteEdge, COUNTING_TIMEOUT, freshIp, freshPhone } from "../support/accounts";
import { seedCatalogue } from "../support/catalogue";
import { address, call, createProduct, newGuest, newUser, newVerifiedUser, type Shopper } from "../support/commerce";
import { commerceSettings } from "../../worker/backend/services/shared/settings";

/**
 * Promo-code abuse: enumerating codes, and using a once-per-customer code more than
 * once with a new guest id and email, or by racing two checkouts past the check before the batch.
 */

interface Reply {
  status: number;
  headers: Headers;
  // `any`: tests read answer fields loosely and assert on each.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A promo check from a given network address (the fixtures' own address is overridden). */
async function checkFrom(shopper: Pick<Shopper, "headers">, code: string, ip: string): Promise<Reply> {
  const res = await SELF.fetch("http://shop.test/backend/promo-code/check", {
    method: "POST",
    headers: {
      ...shopper.headers,
      accept: "application/json",
      "content-type": "application/json",
      "cf-connecting-ip": ip,
    },
    body: JSON.stringify({ code }),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

async function withCart(shopper: Shopper, halalas: number): Promise<Shopper> {
  const product = await createProduct({ price: halalas, stock: 100 });
  expect((await call(shopper, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 })).status).toBe(200);
  return shopper;
}

const checkout = (shopper: Shopper, email = shopper.email, deliverTo = address) =>
  call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email,
    address: deliverTo,
    shipping_method: "standard",
    payment_method: "card",
  });

async function promoId(code: string): Promise<number> {
  return (await env.DB.prepare("SELECT id FROM promo_codes WHERE code = ?").bind(code).first<{ id: number }>())!.id;
}

const count = async (sql: string, ...params: (string | number)[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n;

/** A once-per-customer code of this test's own, so tests never share its redemptions. */
async function oncePerCustomerCode(): Promise<string> {
  const code = `ONCE${crypto.randomUUID().slice(0, 8).toUpperCase()}`;
  await env.DB.prepare("INSERT INTO promo_codes (code, discount_type, value, per_user_limit) VALUES (?, 1, 10, 1)")
    .bind(code)
    .run();
  return code;
}

/**
 * Writes an order for the user's current cart with the code, straight through the order batch:
 * what a second checkout does when it passed the check before the batch while a first one was
 * committing (the race the review describes).
 */
async function writeRacedOrder(user: Shopper, code: string, email: string, deliverTo = address) {
  const owner: CartOwner = { userId: user.userId!, guestId: null };
  const contents = await cartContents(env.DB, owner, "en");
  const settings = commerceSettings(env);
  return writeOrder(env.DB, {
    owner,
    input: {
      idempotency_key: crypto.randomUUID(),
      email,
      address: { notes: null, additional_number: null, short_address: null, ...deliverTo },
      shipping_method: "standard",
      payment_method: "card",
    },
    email,
    address: deliverTo,
    contents,
    totals: computeTotals(contents.subtotal, Math.floor(contents.subtotal / 10), "standard", settings),
    vatRate: settings.vatRate,
    promo: { id: await promoId(code), code },
    reservedUntil: isoIn(30),
    lang: "en",
  });
}

describe("promo-code abuse", () => {
  beforeAll(async () => {
    await seedCatalogue(env.DB);
  });

  it(
    "promo enumeration: the 21st check in a minute from one network needs a Turnstile challenge, whichever guest asks",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const ip = freshIp();
      for (let i = 0; i < 20; i++) {
        expect((await checkFrom(await newGuest(), `GUESS${i}`, ip)).status).toBe(422);
      }
      // A carrier's shared address is many shoppers: challenged, not refused (shared-networks.test.ts).
      const limited = await checkFrom(await newGuest("ar"), "WELCOME10", ip);
      expect(limited.status).toBe(428);
      expect(limited.body.message).toBe("يتسوق كثيرون من شبكتك الآن. أكّد أنك شخص حقيقي للمتابعة.");
      expect(limited.body.challenge.site_key).toBeTruthy();
    },
  );

  it(
    "promo enumeration: one guest cycling through networks answers 429 on its 21st check in a minute",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      await awayFromMinuteEdge();
      const guest = await newGuest();
      for (let i = 0; i < 20; i++) expect((await checkFrom(guest, `GUESS${i}`, freshIp())).status).toBe(422);
      expect((await checkFrom(guest, "SAVE50", freshIp())).status).toBe(429);
      // Another guest from a fresh network is not affected.
      expect((await checkFrom(await newGuest(), "NOSUCHCODE", freshIp())).status).toBe(422);
    },
  );

  it("promo enumeration: an empty cart answers the same for a real code and a made-up one", async () => {
    for (const shopper of [await newGuest(), await newUser()]) {
      const answers = [];
      for (const code of ["WELCOME10", "SAVE50", "EXPIRED20", "USEDUP", "NOSUCHCODE"])
        answers.push(await checkFrom(shopper, code, freshIp()));
      for (const answer of answers) {
        expect(answer.status).toBe(422);
        expect(answer.body).toEqual({
          message: "Add products to your cart before applying a promo code.",
          errors: { code: ["Add products to your cart before applying a promo code."] },
        });
      }
    }
  });

  it("once-per-customer bypass: guests with a new guest id and a new email cannot use a once-per-customer code", async () => {
    // The review's attack: WELCOME10 twice, from two fresh guests with two fresh emails.
    for (const lang of ["en", "ar"] as const) {
      const guest = await withCart(await newGuest(lang), 20000);
      const refused = await checkFrom(guest, "WELCOME10", freshIp());
      expect(refused.status).toBe(422);
      const message = lang === "en" ? "Sign in to use this promo code." : "سجّل الدخول لاستخدام رمز الخصم هذا.";
      expect(refused.body).toEqual({ message, errors: { code: [message] } });
      expect((await call(guest, "GET", "/cart")).body.data).toMatchObject({ discount: 0, promo: null });
    }
    // A code put on a guest's cart some other way (before this rule, or by hand) is refused at checkout, with no order.
    const guest = await withCart(await newGuest(), 20000);
    await env.DB.prepare("UPDATE carts SET promo_code = 'WELCOME10' WHERE guest_id = ?").bind(guest.guestId).run();
    const before = await count("SELECT COUNT(*) AS n FROM orders WHERE guest_id = ?", guest.guestId!);
    const placed = await checkout(guest);
    expect(placed.status).toBe(422);
    expect(placed.body.errors?.code).toEqual(["Sign in to use this promo code."]);
    expect(await count("SELECT COUNT(*) AS n FROM orders WHERE guest_id = ?", guest.guestId!)).toBe(before);
    // A code without a per-customer limit still works for guests.
    expect((await checkFrom(await withCart(await newGuest(), 40000), "SAVE50", freshIp())).status).toBe(200);
  });

  it("once-per-customer: a second account checking out with the first one's email, in any case, is refused", async () => {
    const code = await oncePerCustomerCode();
    const first = await withCart(await newVerifiedUser(), 20000);
    expect((await checkFrom(first, code, freshIp())).status).toBe(200);
    expect((await checkout(first, "Shared.Buyer@Example.com")).status).toBe(201);
    const second = await withCart(await newVerifiedUser(), 20000);
    expect((await checkFrom(second, code, freshIp())).status).toBe(200);
    const placed = await checkout(second, "shared.buyer@EXAMPLE.COM", { ...address, phone: freshPhone() });
    expect(placed.status).toBe(422);
    expect(placed.body.errors?.code).toEqual(["You have already used this promo code."]);
    expect(await count("SELECT COUNT(*) AS n FROM promo_redemptions WHERE promo_id = ?", await promoId(code))).toBe(1);
  });

  it("once-per-customer race: the order batch itself refuses a second use by the same account or email, and writes nothing", async () => {
    const code = await oncePerCustomerCode();
    const id = await promoId(code);
    const first = await withCart(await newVerifiedUser(), 20000);
    expect((await checkFrom(first, code, freshIp())).status).toBe(200);
    expect((await checkout(first)).status).toBe(201);

    // The same account again, and another account with the same email in another case: each
    // batch was prepared as if the check before it had passed, as in a race.
    const again = await withCart(first, 20000);
    const other = await withCart(await newVerifiedUser(), 20000);
    for (const [who, email] of [
      [again, first.email],
      [other, first.email.toUpperCase()],
    ] as const) {
      const orders = await count("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?", who.userId!);
      const used = await count("SELECT used_count AS n FROM promo_codes WHERE id = ?", id);
      const refusal = await writeRacedOrder(who, code, email, { ...address, phone: freshPhone() }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refusal).toBeInstanceOf(BackendError);
      expect((refusal as BackendError).status).toBe(422);
      expect((refusal as BackendError).errors).toEqual({ code: ["You have already used this promo code."] });
      // Nothing of the order was written: no order, no use counted, the cart still there.
      expect(await count("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?", who.userId!)).toBe(orders);
      expect(await count("SELECT used_count AS n FROM promo_codes WHERE id = ?", id)).toBe(used);
      expect((await call(who, "GET", "/cart")).body.data.products.length).toBe(1);
    }
    expect(await count("SELECT COUNT(*) AS n FROM promo_redemptions WHERE promo_id = ?", id)).toBe(1);

    // The control: another account with its own email goes through the same path.
    const third = await withCart(await newVerifiedUser(), 20000);
    expect((await writeRacedOrder(third, code, third.email, { ...address, phone: freshPhone() })).created).toBe(true);
  });

  it("once-per-customer race: two checkouts of one account at once redeem the code once", async () => {
    const code = await oncePerCustomerCode();
    const user = await withCart(await newVerifiedUser(), 20000);
    expect((await checkFrom(user, code, freshIp())).status).toBe(200);
    const [a, b] = await Promise.all([checkout(user), checkout(user)]);
    expect([a.status, b.status].filter((s) => s === 201)).toHaveLength(1);
    expect(await count("SELECT COUNT(*) AS n FROM promo_redemptions WHERE promo_id = ?", await promoId(code))).toBe(1);
    expect(
      await count("SELECT COUNT(*) AS n FROM orders WHERE user_id = ? AND promo_code = ?", user.userId!, code),
    ).toBe(1);
  });

  it("throw-away accounts: fresh unverified accounts cannot use a once-per-customer code; a verified account uses it once, and a second verified account with the same delivery phone is refused", async () => {
    const code = await oncePerCustomerCode();
    const id = await promoId(code);
    // The review's attack: a new account with a made-up email for each order, never verified.
    for (const lang of ["en", "ar", "en"] as const) {
      const fresh = await withCart(await newUser(lang), 20000);
      const refused = await checkFrom(fresh, code, freshIp());
      expect(refused.status).toBe(422);
      const message =
        lang === "en"
          ? "Verify your account to use this promo code: enter the code we send to your email or phone."
          : "أكّد حسابك لاستخدام رمز الخصم هذا: أدخل الرمز الذي نرسله إلى بريدك الإلكتروني أو هاتفك.";
      expect(refused.body).toEqual({ message, errors: { code: [message] } });
      // The code put on its cart some other way is refused at checkout too, with no order written.
      await env.DB.prepare("UPDATE carts SET promo_code = ? WHERE user_id = ?").bind(code, fresh.userId).run();
      const placed = await checkout(fresh, fresh.email, { ...address, phone: freshPhone() });
      expect(placed.status).toBe(422);
      expect(placed.body.errors?.code).toEqual([message]);
      expect(await count("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?", fresh.userId!)).toBe(0);
      // And the order batch itself refuses it, as if the checks before it had passed.
      const raced = await writeRacedOrder(fresh, code, fresh.email, { ...address, phone: freshPhone() }).then(
        () => null,
        (err: unknown) => err,
      );
      expect(raced).toBeInstanceOf(BackendError);
    }
    expect(await count("SELECT COUNT(*) AS n FROM promo_redemptions WHERE promo_id = ?", id)).toBe(0);

    // A verified account uses it once.
    const phone = freshPhone();
    const verified = await withCart(await newVerifiedUser(), 20000);
    expect((await checkFrom(verified, code, freshIp())).status).toBe(200);
    expect((await checkout(verified, verified.email, { ...address, phone })).status).toBe(201);

    // A second verified account, its own email, the same delivery phone written the national way.
    const national = `0${phone.slice(4)}`;
    const second = await withCart(await newVerifiedUser("ar"), 20000);
    expect((await checkFrom(second, code, freshIp())).status).toBe(200);
    const again = await checkout(second, second.email, { ...address, phone: national });
    expect(again.status).toBe(422);
    expect(again.body.errors?.code).toEqual(["لقد استخدمت رمز الخصم هذا من قبل."]);
    expect(await count("SELECT COUNT(*) AS n FROM orders WHERE user_id = ?", second.userId!)).toBe(0);
    // The batch's own guard counts the phone too (a checkout that raced past the check).
    const raced = await writeRacedOrder(second, code, second.email, { ...address, phone: `00${phone.slice(1)}` }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(raced).toBeInstanceOf(BackendError);
    expect(await count("SELECT COUNT(*) AS n FROM promo_redemptions WHERE promo_id = ?", id)).toBe(1);

    // The control: a verified account with its own email and phone.
    const other = await withCart(await newVerifiedUser(), 20000);
    expect((await checkout(other, other.email, { ...address, phone: freshPhone() })).status).toBe(201);
  });
});
