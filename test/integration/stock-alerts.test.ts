import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { StockAlertDemand } from "../../contract/stock-alerts";
import { awayFromMinuteEdge, COUNTING_TIMEOUT, freshEmail, freshPhone, outbox } from "../support/accounts";
import {
  call,
  checkoutWith,
  createProduct,
  createVariantProduct,
  freshIp,
  newGuest,
  newUser,
  newVerifiedUser,
  stockOf,
  type Shopper,
} from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { paidOrder } from "../support/orders";
import { releaseExpiredReservations } from "../../worker/backend/services/orders/reservations";
import { stockAlertStatements } from "../../worker/backend/services/stock-alerts/trigger";
import { deliverShopperMessage } from "../../worker/backend/services/messages/shopper-messages";

/**
 * Back-in-stock alerts: a shopper asks to be told when a sold-out variant (or product) is back;
 * each place that puts stock back writes one message per waiting subscription to the shopper
 * outbox, in the batch of the stock change, and the console shows the waiting demand.
 */

let manager: Staff;
beforeAll(async () => {
  manager = await newStaff("manager");
});

interface Message {
  key: string;
  channel: string;
  recipient: string;
  lang: string;
  params: Record<string, string>;
}

/** The stock-alert messages the outbox holds for `to`. */
async function messagesTo(to: string): Promise<Message[]> {
  const { results } = await env.DB.prepare(
    "SELECT key, channel, recipient, lang, params FROM shopper_messages WHERE topic = 'stock_alert' AND recipient = ? ORDER BY id",
  )
    .bind(to)
    .all<Omit<Message, "params"> & { params: string }>();
  return results.map((r) => ({ ...r, params: JSON.parse(r.params) as Record<string, string> }));
}

const subscribe = (shopper: Pick<Shopper, "headers"> | null, body: Record<string, unknown>) =>
  call(shopper, "POST", "/stock-alerts", body);

/** A guest in `lang` on a network of its own. */
const guest = (lang: "en" | "ar" = "en") => newGuest(lang);

async function soldOutProduct(name = "Alert gadget") {
  return createProduct({ stock: 0, name });
}

async function receive(productId: number, delta: number, variantId?: number) {
  const res = await call(manager, "POST", "/admin/inventory/adjustments", {
    product_id: productId,
    ...(variantId ? { variant_id: variantId } : {}),
    reason: "received",
    delta,
  });
  expect(res.status).toBe(201);
}

describe("subscribing", () => {
  it("only a sold-out product takes an alert: in stock is a 409 that says so", async () => {
    const shopper = await guest();
    const inStock = await createProduct({ stock: 3 });
    const refused = await subscribe(shopper, { product: inStock.id, channel: "email", email: freshEmail() });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/in stock now/);

    const soldOut = await soldOutProduct();
    const email = freshEmail();
    const ok = await subscribe(shopper, { product: soldOut.id, channel: "email", email: email.toUpperCase() });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ data: { status: "subscribed" }, message: "We'll tell you once, when it's back." });
    const row = await env.DB.prepare(
      "SELECT variant_id, channel, recipient, lang, notified_at FROM stock_alerts WHERE product_id = ?",
    )
      .bind(soldOut.id)
      .first();
    expect(row).toEqual({ variant_id: null, channel: "email", recipient: email, lang: "en", notified_at: null });
  });

  it("bad input is a 422 with field errors, and nothing is written", async () => {
    const shopper = await guest();
    const product = await soldOutProduct();
    const phone = await createVariantProduct();
    const cases: [Record<string, unknown>, string][] = [
      [{ product: product.id, channel: "fax", email: freshEmail() }, "channel"],
      [{ product: product.id, channel: "email" }, "email"],
      [{ product: product.id, channel: "email", email: "not-an-email" }, "email"],
      [{ product: product.id, channel: "sms", phone: "12345" }, "phone"],
      // The form of E.164, but no number plan has it.
      [{ product: product.id, channel: "sms", phone: "+99912345678" }, "phone"],
      // A real number, but the shop texts only the countries it delivers to.
      [{ product: product.id, channel: "sms", phone: "+447911123456" }, "phone"],
      [{ product: product.id, channel: "sms", phone: freshPhone(), code: "12ab" }, "code"],
      [{ product: "one", channel: "email", email: freshEmail() }, "product"],
      [{ product: 999_999_999, channel: "email", email: freshEmail() }, "product"],
      // A product of several needs the choice, and the choice must be its own.
      [{ product: phone.id, channel: "email", email: freshEmail() }, "variant"],
      [{ product: phone.id, variant: product.id + 1_000_000, channel: "email", email: freshEmail() }, "variant"],
    ];
    for (const [body, field] of cases) {
      const res = await subscribe(shopper, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    const ar = await subscribe({ headers: { "content-language": "ar" } }, { product: product.id, channel: "email" });
    expect(ar.body.errors?.email[0]).toMatch(/البريد الإلكتروني/);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM stock_alerts WHERE product_id IN (?, ?)")
      .bind(product.id, phone.id)
      .first<number>("n");
    expect(count).toBe(0);
  });

  it("the same answer whether or not the address already waits, and one subscription", async () => {
    const product = await soldOutProduct();
    const email = freshEmail();
    const first = await subscribe(await guest(), { product: product.id, channel: "email", email });
    const again = await subscribe(await guest(), { product: product.id, channel: "email", email });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const count = await env.DB.prepare("SELECT COUNT(*) AS n FROM stock_alerts WHERE product_id = ?")
      .bind(product.id)
      .first<number>("n");
    expect(count).toBe(1);
  });

  it("a variant is subscribed by its id; a product without options is subscribed as a whole", async () => {
    const phone = await createVariantProduct();
    const soldOut = phone.variants.find((v) => v.stock === 0)!;
    const inStock = phone.variants.find((v) => v.stock > 0)!;
    const shopper = await guest();
    const email = freshEmail();
    expect((await subscribe(shopper, { product: phone.id, variant: inStock.id, channel: "email", email })).status).toBe(
      409,
    );
    expect((await subscribe(shopper, { product: phone.id, variant: soldOut.id, channel: "email", email })).status).toBe(
      200,
    );
    const row = await env.DB.prepare("SELECT variant_id FROM stock_alerts WHERE recipient = ?").bind(email).first();
    expect(row).toEqual({ variant_id: soldOut.id });
  });
});

describe("SMS alerts", () => {
  it("a phone that is not the account's gets a code first; the right code subscribes, a wrong one does not", async () => {
    const product = await soldOutProduct();
    const phone = freshPhone();
    const shopper = await guest();
    const asked = await subscribe(shopper, { product: product.id, channel: "sms", phone });
    expect(asked.status).toBe(202);
    expect(asked.body.data).toEqual({ status: "code_sent" });
    const sent = (await outbox(phone)).filter((m) => m.purpose === "stock_alert");
    expect(sent).toHaveLength(1);
    expect(sent[0].code).toMatch(/^\d{6}$/);
    const stored = await env.DB.prepare(
      "SELECT user_id, subject, code_hash FROM otp_codes WHERE purpose = 'stock_alert' ORDER BY id DESC LIMIT 1",
    ).first<{
      user_id: number | null;
      subject: string;
      code_hash: string;
    }>();
    // Owned by a keyed hash of the number, and only the code's hash is kept.
    expect(stored!.user_id).toBeNull();
    expect(stored!.subject).toMatch(/^[0-9a-f]{64}$/);
    expect(stored!.subject).not.toContain(phone.slice(1));
    expect(stored!.code_hash).not.toContain(sent[0].code);

    const wrong = sent[0].code === "000000" ? "111111" : "000000";
    const refused = await subscribe(shopper, { product: product.id, channel: "sms", phone, code: wrong });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({ code: [expect.stringMatching(/wrong or has expired/)] });
    const waiting = () =>
      env.DB.prepare("SELECT COUNT(*) AS n FROM stock_alerts WHERE recipient = ?").bind(phone).first<number>("n");
    expect(await waiting()).toBe(0);

    // Arabic-Indic digits are read as the digits they are.
    const arabic = sent[0].code.replace(/\d/g, (d) => String.fromCharCode(0x0660 + Number(d)));
    const ok = await subscribe(shopper, { product: product.id, channel: "sms", phone, code: arabic });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toEqual({ status: "subscribed" });
    expect(await waiting()).toBe(1);
    // Single use: the same code again is refused.
    const other = await soldOutProduct();
    const reused = await subscribe(shopper, { product: other.id, channel: "sms", phone, code: sent[0].code });
    expect(reused.status).toBe(422);
  });

  it("a signed-in shopper's own phone on a verified account needs no code; an unverified account's does", async () => {
    const product = await soldOutProduct();
    const verified = await newVerifiedUser();
    const own = (await env.DB.prepare("SELECT phone FROM users WHERE id = ?")
      .bind(verified.userId)
      .first<string>("phone"))!;
    const ok = await subscribe(verified, { product: product.id, channel: "sms", phone: own });
    expect(ok.status).toBe(200);
    const row = await env.DB.prepare("SELECT user_id, recipient FROM stock_alerts WHERE product_id = ?")
      .bind(product.id)
      .first();
    expect(row).toEqual({ user_id: verified.userId, recipient: own });

    const unverified = await newUser();
    const theirs = (await env.DB.prepare("SELECT phone FROM users WHERE id = ?")
      .bind(unverified.userId)
      .first<string>("phone"))!;
    const asked = await subscribe(unverified, { product: product.id, channel: "sms", phone: theirs });
    expect(asked.status).toBe(202);
  });
});

describe("restocking tells each waiting subscriber once", () => {
  it("a console delivery: one message per subscription and channel, with the product's name and link", async () => {
    const product = await soldOutProduct("Alert speaker");
    const email = freshEmail();
    const verified = await newVerifiedUser();
    const phone = (await env.DB.prepare("SELECT phone FROM users WHERE id = ?")
      .bind(verified.userId)
      .first<string>("phone"))!;
    expect((await subscribe(await guest(), { product: product.id, channel: "email", email })).status).toBe(200);
    expect((await subscribe(verified, { product: product.id, channel: "sms", phone })).status).toBe(200);

    await receive(product.id, 5);
    expect(await stockOf(product.id)).toBe(5);
    const [mail] = await messagesTo(email);
    const id = await env.DB.prepare("SELECT id FROM stock_alerts WHERE recipient = ?").bind(email).first<number>("id");
    expect(mail).toEqual({
      key: `stock_alert:${id}:email`,
      channel: "email",
      recipient: email,
      lang: "en",
      params: {
        product: "Alert speaker",
        productUrl: `http://shop.test/en/product-details/${product.slug}`,
        __siteOrigin: "http://shop.test",
      },
    });
    expect((await messagesTo(phone)).map((m) => m.channel)).toEqual(["sms"]);
    const notified = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM stock_alerts WHERE product_id = ? AND notified_at IS NOT NULL",
    )
      .bind(product.id)
      .first<number>("n");
    expect(notified).toBe(2);
  });

  it("two restocks in a row send one message; a new subscription after that is a new one", async () => {
    const product = await soldOutProduct();
    const email = freshEmail();
    await subscribe(await guest(), { product: product.id, channel: "email", email });
    await receive(product.id, 1);
    await receive(product.id, 4);
    expect(await messagesTo(email)).toHaveLength(1);

    // Sold out again, and the same shopper asks again: told again at the next restock.
    const counted = await call(manager, "POST", "/admin/inventory/adjustments", {
      product_id: product.id,
      reason: "count",
      counted: 0,
    });
    expect(counted.status).toBe(201);
    expect((await subscribe(await guest(), { product: product.id, channel: "email", email })).status).toBe(200);
    await receive(product.id, 2);
    const keys = (await messagesTo(email)).map((m) => m.key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });

  it("the message is in the subscriber's language, and names and links the chosen variant", async () => {
    const phone = await createVariantProduct();
    const soldOut = phone.variants.find((v) => v.stock === 0)!;
    const [en, ar] = [freshEmail(), freshEmail()];
    await subscribe(await guest("en"), { product: phone.id, variant: soldOut.id, channel: "email", email: en });
    await subscribe(await guest("ar"), { product: phone.id, variant: soldOut.id, channel: "email", email: ar });
    await receive(phone.id, 3, soldOut.id);
    const query = `?colour=${soldOut.options.colour}&storage=${soldOut.options.storage}`;
    expect((await messagesTo(en))[0]).toMatchObject({
      lang: "en",
      params: {
        product: "Test phone, Blue, 512 GB",
        productUrl: `http://shop.test/en/product-details/${phone.slug}${query}`,
      },
    });
    expect((await messagesTo(ar))[0]).toMatchObject({
      lang: "ar",
      params: {
        product: "جهاز اختبار، أزرق، 512 جيجابايت",
        productUrl: `http://shop.test/ar/product-details/${phone.slug}${query}`,
      },
    });
  });

  it("another variant coming back tells no one waiting for this one", async () => {
    const phone = await createVariantProduct();
    const soldOut = phone.variants.find((v) => v.stock === 0)!;
    const other = phone.variants.find((v) => v.stock > 0)!;
    const email = freshEmail();
    await subscribe(await guest(), { product: phone.id, variant: soldOut.id, channel: "email", email });
    await receive(phone.id, 3, other.id);
    expect(await messagesTo(email)).toEqual([]);
  });

  it("a cancelled order giving its stock back", async () => {
    const product = await createProduct({ stock: 1 });
    const buyer = await newGuest();
    const placed = await checkoutWith(buyer, product.id, 1);
    expect(placed.status).toBe(201);
    expect(await stockOf(product.id)).toBe(0);
    const email = freshEmail();
    await subscribe(await guest(), { product: product.id, channel: "email", email });
    expect((await call(buyer, "POST", `/orders/${placed.body.data.number}/cancel`)).status).toBe(200);
    expect(await stockOf(product.id)).toBe(1);
    expect(await messagesTo(email)).toHaveLength(1);
  });

  it("an unpaid order whose hold ran out", async () => {
    const product = await createProduct({ stock: 2 });
    const placed = await checkoutWith(await newGuest(), product.id, 2);
    expect(placed.status).toBe(201);
    const email = freshEmail();
    await subscribe(await guest("ar"), { product: product.id, channel: "email", email });
    await env.DB.prepare("UPDATE orders SET reserved_until = '2000-01-01T00:00:00.000Z' WHERE number = ?")
      .bind(placed.body.data.number)
      .run();
    expect(await releaseExpiredReservations(env.DB)).toBeGreaterThan(0);
    expect(await stockOf(product.id)).toBe(2);
    expect((await messagesTo(email)).map((m) => m.lang)).toEqual(["ar"]);
  });

  it("a return received back on the shelf", async () => {
    const buyer = await newUser();
    const order = await paidOrder(buyer, { stock: 2, quantity: 2 });
    expect(await stockOf(order.product.id)).toBe(0);
    const email = freshEmail();
    await subscribe(await guest(), { product: order.product.id, channel: "email", email });
    expect((await call(manager, "POST", `/admin/orders/${order.number}/process`)).status).toBe(200);
    const ship = { carrier: "SMSA", tracking_number: "SM123456" };
    expect((await call(manager, "POST", `/admin/orders/${order.number}/ship`, ship)).status).toBe(200);
    expect((await call(manager, "POST", `/admin/orders/${order.number}/deliver`)).status).toBe(200);
    const requested = await call(buyer, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: order.product.id, quantity: 1, reason: "damaged" }],
    });
    const id = requested.body.data.self_service.returns[0].id as string;
    const base = `/admin/orders/${order.number}/returns/${id}`;
    expect((await call(manager, "POST", `${base}/approve`)).status).toBe(200);
    expect(await messagesTo(email)).toEqual([]);
    expect((await call(manager, "POST", `${base}/receive`)).status).toBe(200);
    expect(await stockOf(order.product.id)).toBe(1);
    expect(await messagesTo(email)).toHaveLength(1);
  });

  it("a bulk edit of stock in the product list", async () => {
    const product = await soldOutProduct();
    const email = freshEmail();
    await subscribe(await guest(), { product: product.id, channel: "email", email });
    const res = await call(manager, "POST", "/admin/products/bulk", {
      ids: [product.id],
      stock: { mode: "set", value: 7 },
    });
    expect(res.status).toBe(200);
    expect(await stockOf(product.id)).toBe(7);
    expect(await messagesTo(email)).toHaveLength(1);
  });

  it("the variants editor putting a stopped variant back on sale", async () => {
    const phone = await createVariantProduct();
    const soldOut = phone.variants.find((v) => v.stock === 0)!;
    const email = freshEmail();
    await subscribe(await guest(), { product: phone.id, variant: soldOut.id, channel: "email", email });
    // Staff stop the variant, then count stock for it while stopped: nobody is told yet.
    await env.DB.prepare("UPDATE product_variants SET active = 0, stock = 4 WHERE id = ?").bind(soldOut.id).run();
    expect(await messagesTo(email)).toEqual([]);
    const current = await call(manager, "GET", `/admin/products/${phone.id}/variants`);
    expect(current.status).toBe(200);
    const body = {
      options: current.body.data.options,
      variants: current.body.data.variants.map((v: Record<string, unknown>) => ({
        id: v.id,
        sku: v.sku,
        barcode: v.barcode,
        price: v.price,
        compare_at_price: v.compare_at_price,
        max_per_order: v.max_per_order,
        active: true,
        options: v.options,
      })),
    };
    const saved = await call(manager, "PUT", `/admin/products/${phone.id}/variants`, body);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(await messagesTo(email)).toHaveLength(1);
  });

  it("a rolled-back restock owes nothing", async () => {
    const product = await soldOutProduct();
    const email = freshEmail();
    await subscribe(await guest(), { product: product.id, channel: "email", email });
    // A count that no longer matches (the stock moved since it was read) fails its whole batch.
    await expect(
      env.DB.batch([
        env.DB.prepare("UPDATE product_variants SET stock = 3 WHERE product_id = ?").bind(product.id),
        ...stockAlertStatements(env.DB, { productIds: [product.id] }),
        env.DB.prepare(
          "INSERT INTO inventory_adjustments (product_id, delta, reason, stock_after, applied) VALUES (?, 3, 'count', 3, 0)",
        ).bind(product.id),
      ]),
    ).rejects.toThrow(/CHECK constraint/);
    expect(await stockOf(product.id)).toBe(0);
    expect(await messagesTo(email)).toEqual([]);
  });
});

describe("the message as sent", () => {
  const rowOf = (to: string) =>
    env.DB.prepare("SELECT id, status FROM shopper_messages WHERE topic = 'stock_alert' AND recipient = ?")
      .bind(to)
      .first<{ id: number; status: string }>();

  it("the outbox sends it once, in the subscriber's language, with the product link and a stop link", async () => {
    const product = await soldOutProduct();
    const email = freshEmail();
    await subscribe(await guest("ar"), { product: product.id, channel: "email", email });
    await receive(product.id, 2);
    const row = (await rowOf(email))!;
    // The route sent it to the queue, whose consumer may be first: sent once either way.
    await deliverShopperMessage(env, row.id);
    expect(await deliverShopperMessage(env, row.id)).toBe("skipped");
    const sent = (await outbox(email)) as unknown as { purpose: string; lang: string; subject: string; text: string }[];
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ purpose: "shopper.stock_alert", lang: "ar", subject: "جهاز اختبار متوفر من جديد" });
    expect(sent[0].text).toContain(`http://shop.test/ar/product-details/${product.slug}`);
    expect(sent[0].text).toMatch(/http:\/\/shop\.test\/ar\/unsubscribe\?topic=stock_alert&token=/);
  });

  it("a subscriber who stopped back-in-stock alerts from a message's link gets no more", async () => {
    const [first, second] = [await soldOutProduct(), await soldOutProduct()];
    const email = freshEmail();
    await subscribe(await guest(), { product: first.id, channel: "email", email });
    await subscribe(await guest(), { product: second.id, channel: "email", email });
    await receive(first.id, 1);
    await deliverShopperMessage(env, (await rowOf(email))!.id);
    const [sent] = (await outbox(email)) as unknown as { text: string }[];
    const stop = new URL(sent.text.match(/http:\/\/\S+\/unsubscribe\?\S+/)![0]);
    const stopped = await call(null, "POST", "/unsubscribe", {
      topic: stop.searchParams.get("topic"),
      token: stop.searchParams.get("token"),
    });
    expect(stopped.status).toBe(200);

    await receive(second.id, 1);
    const rows = await messagesTo(email);
    expect(rows).toHaveLength(2);
    const secondId = (await env.DB.prepare("SELECT id FROM shopper_messages WHERE key = ?")
      .bind(rows[1].key)
      .first<number>("id"))!;
    expect(await deliverShopperMessage(env, secondId)).toBe("skipped");
    expect(await outbox(email)).toHaveLength(1);
    const skipped = await env.DB.prepare("SELECT status, last_error FROM shopper_messages WHERE id = ?")
      .bind(secondId)
      .first();
    expect(skipped).toEqual({ status: "skipped", last_error: "opted_out" });
  });
});

describe("limits", () => {
  it(
    "one address may subscribe 5 times a minute, one network 20 times",
    async () => {
      await awayFromMinuteEdge();
      const product = await soldOutProduct();
      const email = freshEmail();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++)
        statuses.push((await subscribe(null, { product: product.id, channel: "email", email })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

      const network = { headers: { "cf-connecting-ip": freshIp(), "content-language": "en" } };
      const fromOne: number[] = [];
      for (let i = 0; i < 21; i++)
        fromOne.push((await subscribe(network, { product: product.id, channel: "email", email: freshEmail() })).status);
      expect(fromOne.slice(0, 20).every((s) => s === 200)).toBe(true);
      expect(fromOne[20]).toBe(429);
    },
    COUNTING_TIMEOUT,
  );
});

describe("the console's waiting demand", () => {
  it("per variant, how many wait by email and SMS, most wanted first; a support agent may not read it", async () => {
    const phone = await createVariantProduct();
    const soldOut = phone.variants.find((v) => v.stock === 0)!;
    const lone = await soldOutProduct("Lonely gadget");
    for (let i = 0; i < 3; i++)
      await subscribe(await guest(), { product: phone.id, variant: soldOut.id, channel: "email", email: freshEmail() });
    const verified = await newVerifiedUser();
    const own = (await env.DB.prepare("SELECT phone FROM users WHERE id = ?")
      .bind(verified.userId)
      .first<string>("phone"))!;
    await subscribe(verified, { product: phone.id, variant: soldOut.id, channel: "sms", phone: own });
    await subscribe(await guest(), { product: lone.id, channel: "email", email: freshEmail() });

    const res = await call<StockAlertDemand[]>(manager, "GET", "/admin/inventory/stock-alerts?per_page=100");
    expect(res.status).toBe(200);
    const rows = res.body.data.filter((r) => r.product_id === phone.id || r.product_id === lone.id);
    expect(rows.map((r) => [r.product_id, r.waiting, r.email, r.sms])).toEqual([
      [phone.id, 4, 3, 1],
      [lone.id, 1, 1, 0],
    ]);
    expect(rows[0]).toMatchObject({ variant_id: soldOut.id, stock: 0, name_en: "Test phone, Blue, 512 GB" });
    const waitingOrder = res.body.data.map((r) => r.waiting);
    expect(waitingOrder).toEqual([...waitingOrder].sort((a, b) => b - a));

    const one = await call<StockAlertDemand[]>(manager, "GET", `/admin/inventory/stock-alerts?product_id=${lone.id}`);
    expect(one.body.data.map((r) => r.product_id)).toEqual([lone.id]);
    const bySms = await call<StockAlertDemand[]>(manager, "GET", "/admin/inventory/stock-alerts?sort=sms&dir=desc");
    expect(bySms.body.meta).toMatchObject({ sort: "sms", dir: "desc" });

    // Told: no longer waiting.
    await receive(lone.id, 1);
    const after = await call<StockAlertDemand[]>(manager, "GET", `/admin/inventory/stock-alerts?product_id=${lone.id}`);
    expect(after.body.data).toEqual([]);

    const support = await newStaff("support");
    expect((await call(support, "GET", "/admin/inventory/stock-alerts")).status).toBe(403);
  });
});
