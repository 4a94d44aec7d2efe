import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { CART_CONTACT_PATH, CART_RESTORE_PATH } from "../../contract/cart-reminders";
import { shopDayOf, type ConsoleReport } from "../../contract/console-reports";
import type { CartRemindersSettings } from "../../contract/settings";
import { afterQuietHours, owedCartReminders } from "../../worker/backend/services/cart-reminders/cart-reminders";
import { deliverShopperMessage } from "../../worker/backend/services/messages/shopper-messages";
import { isOptedOut, recipientHash } from "../../worker/backend/services/messages/unsubscribe";
import {
  address,
  call,
  createProduct,
  createVariantProduct,
  newGuest,
  newUser,
  type Shopper,
} from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import ar from "../../worker/backend/messages/ar.json";
import en from "../../worker/backend/messages/en.json";
import { awayFromMinuteEdge, COUNTING_TIMEOUT } from "../support/accounts";

/**
 * Reminders about a cart left at checkout (services/cart-reminders): asked apart from the order
 * and recorded with their wording; owed only to a cart left unchanged for the set time, past the
 * quiet hours, at most two for the same contents; stopped by an order, the stop link or a no; the
 * link restores the exact cart in any browser; the console's report counts what they brought back.
 */
let owner: Staff;
const SETTINGS: CartRemindersSettings = {
  enabled: true,
  first_delay_hours: 3,
  second_delay_hours: 24,
  quiet_start: 0,
  quiet_end: 0,
  promo_code: "",
};

const unique = () => crypto.randomUUID().slice(0, 8);
const randomToken = () =>
  [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
const HOUR = 3_600_000;

async function saveSettings(value: Partial<CartRemindersSettings>) {
  return call(owner, "PUT", "/admin/settings/cart_reminders", { ...SETTINGS, ...value });
}

const cartIdOf = async (shopper: Shopper) =>
  (await env.DB.prepare(`SELECT id FROM carts WHERE ${shopper.userId ? "user_id" : "guest_id"} = ?`)
    .bind(shopper.userId ?? shopper.guestId)
    .first<number>("id"))!;

/** The cart as last changed `hours` ago. */
const leftFor = (cartId: number, hours: number) =>
  env.DB.prepare("UPDATE carts SET updated_at = ? WHERE id = ?")
    .bind(new Date(Date.now() - hours * HOUR).toISOString(), cartId)
    .run();

const remindersOf = async (cartId: number) =>
  (
    await env.DB.prepare(
      `SELECT r.round, m.id AS message_id, m.status, m.due_at, m.recipient, m.lang, m.channel
       FROM cart_reminders r JOIN shopper_messages m ON m.key = r.message_key WHERE r.cart_id = ? ORDER BY r.round`,
    )
      .bind(cartId)
      .all<{
        round: number;
        message_id: number;
        status: string;
        due_at: string;
        recipient: string;
        lang: string;
        channel: string;
      }>()
  ).results;

const outboxOf = async (to: string) =>
  (
    await env.DB.prepare("SELECT purpose, lang, subject, body, channel FROM dev_outbox WHERE recipient = ? ORDER BY id")
      .bind(to)
      .all<{ purpose: string; lang: string; subject: string; body: string; channel: string }>()
  ).results;

/** A guest with a product (two of it) in their cart, who said yes at checkout with `email`. */
async function remindedGuest(lang: "en" | "ar" = "en", consent = true) {
  const guest = await newGuest(lang);
  const product = await createProduct({ price: 12_500, name: `Reminded speaker ${unique()}` });
  expect((await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 2 })).status).toBe(200);
  const email = `left-${unique()}@example.com`;
  const answer = await call(guest, "POST", CART_CONTACT_PATH, { email, consent });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { guest, product, email, cartId: await cartIdOf(guest) };
}

/** Sends a reminder's message as the queue would, and answers the restore link's token. */
async function send(messageId: number, to: string): Promise<{ token: string; body: string }> {
  expect(await deliverShopperMessage(env, messageId)).toBe("sent");
  const sent = (await outboxOf(to)).at(-1)!;
  const token = sent.body.match(/\/cart\/restore\/([0-9a-f]{64})/)?.[1];
  expect(token).toBeTruthy();
  return { token: token!, body: sent.body };
}

const checkout = (shopper: Shopper, email: string) =>
  call(shopper, "POST", "/checkout", {
    idempotency_key: crypto.randomUUID(),
    email,
    address,
    shipping_method: "standard",
    payment_method: "card",
  });

beforeAll(async () => {
  owner = await newStaff("owner");
  const saved = await saveSettings({});
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
});

describe("cart reminders", () => {
  it("records the guest's yes with the wording they saw, under their address's hash, and a no withdraws it", async () => {
    const { guest, email, cartId } = await remindedGuest("ar");
    const hash = await recipientHash(env, email);
    const newest = () =>
      env.DB.prepare(
        "SELECT granted, wording, lang, source FROM consents WHERE recipient_hash = ? AND purpose = 'cart_reminders' ORDER BY id DESC LIMIT 1",
      )
        .bind(hash)
        .first();
    expect(await newest()).toEqual({
      granted: 1,
      wording: ar.consents.cart_reminders.v1,
      lang: "ar",
      source: "checkout",
    });
    const contact = await env.DB.prepare("SELECT channel, recipient FROM cart_contacts WHERE cart_id = ?")
      .bind(cartId)
      .first();
    expect(contact).toEqual({ channel: "email", recipient: email });
    // The log names no one: only the keyed hash.
    expect(
      await env.DB.prepare("SELECT COUNT(*) AS n FROM consents WHERE recipient_hash = ?").bind(email).first("n"),
    ).toBe(0);

    const no = await call(guest, "POST", CART_CONTACT_PATH, { email, consent: false });
    expect(no.body.data).toEqual({ consent: false });
    expect(await newest()).toMatchObject({ granted: 0, source: "checkout" });
    expect(await env.DB.prepare("SELECT 1 AS x FROM cart_contacts WHERE cart_id = ?").bind(cartId).first()).toBeNull();
  });

  it("owes nothing to a cart whose shopper did not say yes", async () => {
    const { cartId } = await remindedGuest("en", false);
    const silent = await newGuest();
    const product = await createProduct();
    await call(silent, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const silentCart = await cartIdOf(silent);
    await leftFor(cartId, 30);
    await leftFor(silentCart, 30);
    await owedCartReminders(env);
    expect(await remindersOf(cartId)).toEqual([]);
    expect(await remindersOf(silentCart)).toEqual([]);
  });

  it("owes the first reminder once the cart was left for the first delay, not before, in the shopper's language", async () => {
    const { email, cartId, product } = await remindedGuest("ar");
    await leftFor(cartId, 2.95);
    await owedCartReminders(env);
    expect(await remindersOf(cartId)).toEqual([]);
    await leftFor(cartId, 3.05);
    expect(await owedCartReminders(env)).toBeGreaterThanOrEqual(1);
    const [first, ...more] = await remindersOf(cartId);
    expect(more).toEqual([]);
    expect(first).toMatchObject({ round: 1, status: "queued", recipient: email, lang: "ar", channel: "email" });
    expect(Math.abs(Date.parse(first!.due_at) - Date.now())).toBeLessThan(60_000);
    // The cron again: nothing more for the same contents yet.
    await owedCartReminders(env);
    expect(await remindersOf(cartId)).toHaveLength(1);

    const { body } = await send(first!.message_id, email);
    const [mail] = await outboxOf(email);
    expect(mail).toMatchObject({ purpose: "shopper.cart_reminder", lang: "ar", channel: "email" });
    expect(mail!.subject).toBe(ar.mail.shopper.cart_reminder.subject);
    expect(body).toContain("2 × جهاز اختبار");
    expect(body).toContain("250.00");
    expect(body).toMatch(/http:\/\/shop\.test\/ar\/cart\/restore\/[0-9a-f]{64}/);
    expect(body).toMatch(/\/ar\/unsubscribe\?topic=cart_reminder/);
    expect(product.price).toBe(12_500);
  });

  it("pushes a reminder due in the quiet hours to their end, shop time", async () => {
    const quiet = { quiet_start: 22, quiet_end: 9 };
    // 23:30 and 03:00 in Riyadh wait for 09:00; 12:00 goes at once.
    expect(afterQuietHours(new Date("2026-12-06T20:30:00Z"), quiet).toISOString()).toBe("2026-12-07T06:00:00.000Z");
    expect(afterQuietHours(new Date("2026-12-07T00:00:00Z"), quiet).toISOString()).toBe("2026-12-07T06:00:00.000Z");
    expect(afterQuietHours(new Date("2026-12-07T09:00:00Z"), quiet).toISOString()).toBe("2026-12-07T09:00:00.000Z");

    // Quiet hours around this very hour: the reminder written now waits for their end.
    const riyadhHour = new Date(Date.now() + 3 * HOUR).getUTCHours();
    const end = (riyadhHour + 2) % 24;
    expect((await saveSettings({ quiet_start: riyadhHour, quiet_end: end })).status).toBe(200);
    try {
      const { cartId } = await remindedGuest("en");
      await leftFor(cartId, 4);
      await owedCartReminders(env);
      const [first] = await remindersOf(cartId);
      const due = new Date(Date.parse(first!.due_at) + 3 * HOUR);
      expect(due.getUTCHours()).toBe(end);
      expect(due.getUTCMinutes()).toBe(0);
      expect(Date.parse(first!.due_at)).toBeGreaterThan(Date.now() + HOUR - 60_000);
      expect(Date.parse(first!.due_at)).toBeLessThanOrEqual(Date.now() + 2 * HOUR);
      // Not due: the outbox's sender sends nothing yet.
      expect(await deliverShopperMessage(env, first!.message_id)).toBe("skipped");
    } finally {
      expect((await saveSettings({})).status).toBe(200);
    }
  });

  it("owes a second reminder after the second delay, and never a third for the same contents", async () => {
    const { email, cartId } = await remindedGuest("en");
    await leftFor(cartId, 4);
    await owedCartReminders(env);
    await send((await remindersOf(cartId))[0]!.message_id, email);
    await leftFor(cartId, 23.9);
    await owedCartReminders(env);
    expect(await remindersOf(cartId)).toHaveLength(1);
    await leftFor(cartId, 24.1);
    await owedCartReminders(env);
    const both = await remindersOf(cartId);
    expect(both.map((r) => r.round)).toEqual([1, 2]);
    await send(both[1]!.message_id, email);
    await leftFor(cartId, 100);
    await owedCartReminders(env);
    expect(await remindersOf(cartId)).toHaveLength(2);
    expect(await outboxOf(email)).toHaveLength(2);
  });

  it("cancels the second reminder when the shopper orders, and counts the order as recovered", async () => {
    const { guest, email, cartId } = await remindedGuest("en");
    await leftFor(cartId, 4);
    await owedCartReminders(env);
    await send((await remindersOf(cartId))[0]!.message_id, email);
    await leftFor(cartId, 25);
    await owedCartReminders(env);
    const second = (await remindersOf(cartId))[1]!;
    expect(second.status).toBe("queued");
    const placed = await checkout(guest, email);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const status = (id: number) =>
      env.DB.prepare("SELECT status FROM shopper_messages WHERE id = ?").bind(id).first<string>("status");
    expect(await status(second.message_id)).toBe("cancelled");
    expect(await deliverShopperMessage(env, second.message_id)).toBe("skipped");
    // The cart is gone with the order: its reminders let go of it, and nothing more is owed.
    expect(await remindersOf(cartId)).toEqual([]);
    expect(await outboxOf(email)).toHaveLength(1);
    const recovered = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM cart_recoveries rc JOIN orders o ON o.id = rc.order_id WHERE o.number = ?",
    )
      .bind(placed.body.data.number)
      .first("n");
    expect(recovered).toBe(1);
  });

  it("stops at the message's stop link, which records the withdrawal", async () => {
    const { email, cartId } = await remindedGuest("en");
    await leftFor(cartId, 4);
    await owedCartReminders(env);
    const { body } = await send((await remindersOf(cartId))[0]!.message_id, email);
    const link = new URL(body.match(/https?:\/\/\S+\/en\/unsubscribe\?\S+/)![0]);
    const stop = await call(null, "POST", "/unsubscribe", {
      topic: link.searchParams.get("topic"),
      token: link.searchParams.get("token"),
    });
    expect(stop.status).toBe(200);
    expect(await isOptedOut(env, email, "cart_reminder")).toBe(true);
    const newest = await env.DB.prepare(
      "SELECT granted, source, wording FROM consents WHERE recipient_hash = ? AND purpose = 'cart_reminders' ORDER BY id DESC LIMIT 1",
    )
      .bind(await recipientHash(env, email))
      .first();
    expect(newest).toEqual({ granted: 0, source: "link", wording: en.consents.cart_reminders.v1 });
    await leftFor(cartId, 25);
    await owedCartReminders(env);
    expect(await remindersOf(cartId)).toHaveLength(1);
  });

  it("restores the exact cart, variants, quantities and promo code, in a new guest's cart, again without doubling", async () => {
    const guest = await newGuest("en");
    const phone = await createVariantProduct();
    const plain = await createProduct({ price: 5_000 });
    const gone = await createProduct({ price: 7_000, name: "Discontinued cable" });
    const [a, b] = phone.variants.filter((v) => v.stock > 2);
    for (const body of [
      { product_id: phone.id, variant_id: a!.id, quantity: 1 },
      { product_id: phone.id, variant_id: b!.id, quantity: 2 },
      { product_id: plain.id, quantity: 3 },
      { product_id: gone.id, quantity: 1 },
    ])
      expect((await call(guest, "POST", "/cart/add-product", body)).status).toBe(200);
    const code = `BACK${unique()}`.toUpperCase();
    await env.DB.prepare("INSERT INTO promo_codes (code, discount_type, value) VALUES (?, 1, 10)").bind(code).run();
    expect((await call(guest, "POST", "/promo-code/check", { code })).status).toBe(200);
    const email = `restore-${unique()}@example.com`;
    await call(guest, "POST", CART_CONTACT_PATH, { email, consent: true });
    const cartId = await cartIdOf(guest);
    await leftFor(cartId, 4);
    await owedCartReminders(env);
    const { token } = await send((await remindersOf(cartId))[0]!.message_id, email);
    await env.DB.prepare("UPDATE products SET active = 0 WHERE id = ?").bind(gone.id).run();

    const original = (await call(guest, "GET", "/cart")).body.data;
    const fresh = await newGuest("en");
    const restored = await call(fresh, "POST", CART_RESTORE_PATH, { token });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect(restored.body.data).toEqual({
      restored: 3,
      reduced: [],
      unavailable: ["Discontinued cable"],
      promo_code: code,
    });
    expect(JSON.stringify(restored.body)).not.toContain(email);
    type Lines = { products: { product_id: number; variant_id: number; quantity: number }[] };
    const lines = (c: Lines) =>
      c.products
        .filter((l) => l.product_id !== gone.id)
        .map((l) => [l.variant_id, l.quantity])
        .sort();
    expect(lines(original)).toHaveLength(3);
    const cart = (await call(fresh, "GET", "/cart")).body.data;
    expect(lines(cart)).toEqual(lines(original));
    expect(cart.products).toHaveLength(3);
    expect(cart.promo?.code).toBe(code);
    // Used again: the same cart, not twice as much.
    expect((await call(fresh, "POST", CART_RESTORE_PATH, { token })).status).toBe(200);
    expect(lines((await call(fresh, "GET", "/cart")).body.data)).toEqual(lines(original));
  });

  it("refuses an unknown token with a 404 and a malformed one with a field error", async () => {
    const guest = await newGuest("ar");
    const unknown = await call(guest, "POST", CART_RESTORE_PATH, { token: "a".repeat(64) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(ar.cartReminders.linkGone);
    const malformed = await call(guest, "POST", CART_RESTORE_PATH, { token: "not-a-token" });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors?.token?.length).toBe(1);
    expect((await call(guest, "POST", CART_RESTORE_PATH, {})).status).toBe(422);
  });

  it(
    "counts restore attempts per network: the token is the only key, so guessing is slowed",
    { timeout: COUNTING_TIMEOUT },
    async () => {
      const guest = await newGuest("en");
      await awayFromMinuteEdge();
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++)
        statuses.push((await call(guest, "POST", CART_RESTORE_PATH, { token: randomToken() })).status);
      expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
      expect(statuses[20]).toBe(429);
    },
  );

  it("reports the reminders sent and the orders they brought back, with their totals exactly", async () => {
    const day = shopDayOf(new Date());
    const report = async () =>
      (await call<ConsoleReport>(owner, "GET", `/admin/reports?from=${day}&to=${day}`)).body.data.cart_reminders;
    const before = await report();

    // Reminded, restored elsewhere, ordered there.
    const restoredCart = await remindedGuest("en");
    await leftFor(restoredCart.cartId, 4);
    await owedCartReminders(env);
    const { token } = await send((await remindersOf(restoredCart.cartId))[0]!.message_id, restoredCart.email);
    const elsewhere = await newGuest("en");
    expect((await call(elsewhere, "POST", CART_RESTORE_PATH, { token })).status).toBe(200);
    const fromLink = await checkout(elsewhere, restoredCart.email);
    expect(fromLink.status, JSON.stringify(fromLink.body)).toBe(201);
    // The reminded cart itself is owed nothing more.
    await leftFor(restoredCart.cartId, 25);
    await owedCartReminders(env);
    expect(await remindersOf(restoredCart.cartId)).toHaveLength(1);

    // Reminded, ordered from the same cart.
    const direct = await remindedGuest("ar");
    await leftFor(direct.cartId, 4);
    await owedCartReminders(env);
    await send((await remindersOf(direct.cartId))[0]!.message_id, direct.email);
    const ordered = await checkout(direct.guest, direct.email);
    expect(ordered.status).toBe(201);

    // Owed but never sent: ordering is no recovery.
    const unsent = await remindedGuest("en");
    await leftFor(unsent.cartId, 4);
    await owedCartReminders(env);
    expect((await checkout(unsent.guest, unsent.email)).status).toBe(201);

    const after = await report();
    expect(after.sent - before.sent).toBe(2);
    expect(after.recovered - before.recovered).toBe(2);
    expect(after.revenue - before.revenue).toBe(fromLink.body.data.total + ordered.body.data.total);
  });

  it("refuses bad contacts and settings with field errors, writing nothing", async () => {
    const guest = await newGuest("en");
    const product = await createProduct();
    await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const badEmail = await call(guest, "POST", CART_CONTACT_PATH, { email: "nobody", consent: true });
    expect(badEmail.status).toBe(422);
    expect(badEmail.body.errors?.email?.length).toBeGreaterThan(0);
    const badPhone = await call(guest, "POST", CART_CONTACT_PATH, { phone: "12", consent: true });
    expect(badPhone.body.errors?.phone?.length).toBeGreaterThan(0);
    const noAddress = await call(guest, "POST", CART_CONTACT_PATH, { consent: true });
    expect(noAddress.status).toBe(422);
    expect(noAddress.body.errors?.email?.length).toBe(1);
    const noAnswer = await call(guest, "POST", CART_CONTACT_PATH, { email: "a@b.co" });
    expect(noAnswer.status).toBe(422);
    expect(noAnswer.body.errors?.consent?.length).toBeGreaterThan(0);
    expect(
      await env.DB.prepare("SELECT 1 AS x FROM cart_contacts WHERE cart_id = ?")
        .bind(await cartIdOf(guest))
        .first(),
    ).toBeNull();
    expect((await call(null, "POST", CART_CONTACT_PATH, { email: "a@b.co", consent: true })).status).toBe(401);

    const second = await saveSettings({ first_delay_hours: 24, second_delay_hours: 12 });
    expect(second.status).toBe(422);
    expect(second.body.errors?.second_delay_hours?.[0]).toBe(en.cartReminders.secondAfterFirst);
    const code = await saveSettings({ promo_code: "NOSUCHCODE" });
    expect(code.status).toBe(422);
    expect(code.body.errors?.promo_code?.[0]).toBe(en.cartReminders.unknownCode);
    expect((await saveSettings({ quiet_start: 24 })).body.errors?.quiet_start?.length).toBe(1);
    expect((await saveSettings({ first_delay_hours: 0 })).status).toBe(422);
    const read = await call(owner, "GET", "/admin/settings");
    expect(read.body.data.values.cart_reminders).toEqual(SETTINGS);
  });

  it("sends a signed-in shopper's reminder to their account on their account's consent, and a no in the profile stops it", async () => {
    const user = await newUser("en");
    const product = await createProduct();
    await call(user, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    // What the body names is not read: the account's address is the one.
    const yes = await call(user, "POST", CART_CONTACT_PATH, { email: "someone-else@example.com", consent: true });
    expect(yes.status).toBe(200);
    const consent = await env.DB.prepare(
      "SELECT granted, source, user_id FROM consents WHERE user_id = ? AND purpose = 'cart_reminders' ORDER BY id DESC LIMIT 1",
    )
      .bind(user.userId)
      .first();
    expect(consent).toEqual({ granted: 1, source: "checkout", user_id: user.userId });
    const cartId = await cartIdOf(user);
    await leftFor(cartId, 4);
    await owedCartReminders(env);
    const [first] = await remindersOf(cartId);
    expect(first).toMatchObject({ recipient: user.email, status: "queued", channel: "email" });

    const no = await call(user, "POST", "/client/consents", { purpose: "cart_reminders", granted: false });
    expect(no.status).toBe(200);
    expect((await remindersOf(cartId))[0]!.status).toBe("cancelled");
    await leftFor(cartId, 25);
    await owedCartReminders(env);
    expect(await remindersOf(cartId)).toHaveLength(1);
  });

  it("reminds one address at most twice a day, however many carts name it", async () => {
    const email = `flood-${unique()}@example.com`;
    const carts: number[] = [];
    for (let i = 0; i < 3; i++) {
      const guest = await newGuest("en");
      const product = await createProduct();
      await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
      expect((await call(guest, "POST", CART_CONTACT_PATH, { email, consent: true })).status).toBe(200);
      const cartId = await cartIdOf(guest);
      await leftFor(cartId, 4);
      carts.push(cartId);
    }
    await owedCartReminders(env);
    const written = await Promise.all(carts.map(remindersOf));
    expect(written.flat()).toHaveLength(2);
    expect(written.flat().every((r) => r.recipient === email)).toBe(true);
  });

  it("sends nothing while the owner has reminders switched off", async () => {
    expect((await saveSettings({ enabled: false })).status).toBe(200);
    try {
      const { cartId } = await remindedGuest("en");
      await leftFor(cartId, 4);
      expect(await owedCartReminders(env)).toBe(0);
      expect(await remindersOf(cartId)).toEqual([]);
    } finally {
      expect((await saveSettings({})).status).toBe(200);
    }
  });
});
