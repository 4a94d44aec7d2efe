import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { maskIban, saudiIban } from "../../contract/inputs";
import {
  address,
  call,
  checkoutWith,
  createProduct,
  newGuest,
  newUser,
  stockOf,
  type Shopper,
} from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { outbox } from "../support/accounts";
import { releaseExpiredReservations } from "../../worker/backend/services/orders/reservations";
import { dropAll } from "../support/d1-schema";

// Cash on delivery: the operator's fee and largest total, the code texted to the delivery phone
// that confirms the order, the hold until then, the cash collected at delivery, and a refund of a
// delivered order by bank transfer to the IBAN the shopper gives.

const RETURN = "/en/payment-status";
// A valid Saudi IBAN (the check digits hold) and the same number with one digit changed.
const IBAN = "SA0380000000608010167519";
const BAD_IBAN = "SA0380000000608010167518";

async function codOrder(shopper: Shopper, opts: { price?: number; phone?: string } = {}) {
  const product = await createProduct({ stock: 5, price: opts.price ?? 20000 });
  const placed = await checkoutWith(shopper, product.id, 1, {
    payment_method: "cod",
    address: { ...address, phone: opts.phone ?? address.phone },
  });
  return { product, placed };
}

const start = (shopper: Shopper, number: string) =>
  call(shopper, "POST", `/payments/${number}/start`, { return_url: RETURN });
const confirm = (shopper: Shopper, paymentId: string, otp: string) =>
  call(shopper, "POST", `/payments/${paymentId}/cod`, { otp });

/** The newest COD code texted to the order's phone. */
async function codeFor(phone: string): Promise<string> {
  const entry = (await outbox(phone)).find((e) => e.purpose === "cod");
  if (!entry) throw new Error(`no cod code for ${phone}`);
  return entry.code;
}

/** A phone of its own per test, so the outbox reads only this order's codes. */
const freshPhone = () => `+9665${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

async function confirmedOrder(shopper: Shopper) {
  const phone = freshPhone();
  const { product, placed } = await codOrder(shopper, { phone });
  expect(placed.status).toBe(201);
  const number = placed.body.data.number as string;
  const started = await start(shopper, number);
  expect(started.status).toBe(200);
  const done = await confirm(shopper, started.body.data.payment_id, await codeFor(phone));
  expect(done.status).toBe(200);
  return { product, number, total: placed.body.data.total as number, paymentId: started.body.data.payment_id };
}

async function deliver(manager: Staff, number: string) {
  const shipped = await call(manager, "POST", `/admin/orders/${number}/ship`, {
    carrier: "SMSA",
    tracking_number: "SM123",
  });
  expect(shipped.status).toBe(200);
  return call(manager, "POST", `/admin/orders/${number}/deliver`);
}

describe("Saudi IBAN", () => {
  it("takes SA and 22 digits whose check digits hold, as typed with spaces or Arabic-Indic digits", () => {
    expect(saudiIban(IBAN)).toBe(IBAN);
    expect(saudiIban("sa03 8000 0000 6080 1016 7519")).toBe(IBAN);
    expect(saudiIban("SA٠٣80000000608010167519")).toBe(IBAN);
    expect(saudiIban(BAD_IBAN)).toBeNull();
    expect(saudiIban("GB82WEST12345698765432")).toBeNull();
    expect(saudiIban("SA038000000060801016751")).toBeNull();
    expect(maskIban(IBAN)).toBe("SA••••••••••••••••••7519");
  });
});

describe("cash on delivery at checkout", () => {
  it("is offered with its fee, and not for a total above the operator's largest", async () => {
    const guest = await newGuest();
    const small = await createProduct({ stock: 5, price: 20000 });
    await call(guest, "POST", "/cart/add-product", { product_id: small.id, quantity: 1 });
    const options = (await call(guest, "GET", "/checkout/options")).body.data;
    expect(options.payment_methods.at(-1)).toEqual({ id: "cod", name: "Cash on delivery", fee: 1500 });

    const ar = await newGuest("ar");
    await call(ar, "POST", "/cart/add-product", { product_id: small.id, quantity: 1 });
    const arOptions = (await call(ar, "GET", "/checkout/options")).body.data;
    expect(arOptions.payment_methods.at(-1)).toEqual({ id: "cod", name: "الدفع عند الاستلام", fee: 1500 });

    // 5,000 riyals is the default largest total, fee included.
    const big = await newGuest();
    const phone = await createProduct({ stock: 5, price: 499_000 });
    await call(big, "POST", "/cart/add-product", { product_id: phone.id, quantity: 1 });
    const bigOptions = (await call(big, "GET", "/checkout/options")).body.data;
    expect(bigOptions.payment_methods.map((m: { id: string }) => m.id)).not.toContain("cod");
    const refused = await call(big, "POST", "/checkout", {
      idempotency_key: crypto.randomUUID(),
      email: big.email,
      address,
      shipping_method: "standard",
      payment_method: "cod",
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors!.payment_method[0]).toMatch(/^Cash on delivery takes orders up to SAR\s?5,000\.00/);
    expect(await stockOf(phone.id)).toBe(5);
  });

  it("adds the fee to the total and its VAT, and needs a Saudi mobile for the code", async () => {
    const guest = await newGuest();
    const { placed } = await codOrder(guest);
    expect(placed.status).toBe(201);
    // 200 riyals of goods, 25 of shipping, 15 of fee; VAT is part of all of it.
    expect(placed.body.data).toMatchObject({
      payment_method: "cod",
      cod_fee: 1500,
      total: 20000 + 2500 + 1500,
      vat: Math.round((24000 * 0.15) / 1.15),
      status: "pending_payment",
    });

    const landline = await codOrder(await newGuest(), { phone: "+966112345678" });
    expect(landline.placed.status).toBe(422);
    expect(landline.placed.body.errors!["address.phone"][0]).toMatch(/Saudi mobile/);
  });

  it("follows the operator's settings from the console, validated", async () => {
    const owner = await newStaff("owner");
    const bad = await call(owner, "PUT", "/admin/settings/cod", { fee: -1, max_total: 100, confirm_minutes: 1 });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors!).sort()).toEqual(["confirm_minutes", "fee"]);
    const saved = await call(owner, "PUT", "/admin/settings/cod", { fee: 2000, max_total: 0, confirm_minutes: 15 });
    expect(saved.status).toBe(200);
    try {
      const guest = await newGuest();
      const product = await createProduct({ stock: 5, price: 20000 });
      await call(guest, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
      const options = (await call(guest, "GET", "/checkout/options")).body.data;
      // A largest total of 0 turns cash on delivery off.
      expect(options.payment_methods.map((m: { id: string }) => m.id)).not.toContain("cod");
    } finally {
      await env.DB.prepare("DELETE FROM store_settings WHERE key = 'cod'").run();
    }
  });
});

describe("the phone code", () => {
  it("texts a code to the delivery phone; the right code confirms the order and keeps its stock", async () => {
    const guest = await newGuest();
    const phone = freshPhone();
    const { product, placed } = await codOrder(guest, { phone });
    const number = placed.body.data.number as string;
    expect(await stockOf(product.id)).toBe(4);
    // No "pay by" message for a COD order: its first message is the code.
    const placedMessages = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM notifications WHERE order_id = (SELECT id FROM orders WHERE number = ?) AND kind = 'placed'",
    )
      .bind(number)
      .first<number>("n");
    expect(placedMessages).toBe(0);

    const started = await start(guest, number);
    expect(started.status).toBe(200);
    expect(started.body.data).toMatchObject({
      method: "cod",
      step: "cod",
      code_sent: true,
      mobile: `05•••••${phone.slice(-3)}`,
      redirect_url: `${RETURN}?order=${number}`,
    });
    const code = await codeFor(phone);
    expect(code).toMatch(/^\d{6}$/);
    // Kept only as an HMAC.
    const stored = await env.DB.prepare(
      "SELECT code_hash FROM cod_codes WHERE order_id = (SELECT id FROM orders WHERE number = ?)",
    )
      .bind(number)
      .first<string>("code_hash");
    expect(stored).toMatch(/^[0-9a-f]{64}$/);
    expect(stored).not.toContain(code);

    // Asking again within the minute sends nothing new and says so.
    const again = await start(guest, number);
    expect(again.body.data).toMatchObject({ code_sent: false, payment_id: started.body.data.payment_id });
    expect((await outbox(phone)).filter((e) => e.purpose === "cod")).toHaveLength(1);

    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const refused = await confirm(guest, started.body.data.payment_id, wrong);
    expect(refused.status).toBe(422);
    expect(refused.body.errors!.otp[0]).toMatch(/not right/);

    // Someone else's payment reads as none.
    expect((await confirm(await newGuest(), started.body.data.payment_id, code)).status).toBe(404);

    const done = await confirm(guest, started.body.data.payment_id, code);
    expect(done.status).toBe(200);
    expect(done.body.data).toMatchObject({ number, status: "processing", payment_status: "pending" });
    expect(await stockOf(product.id)).toBe(4);
    // The code is spent; the shopper is told "confirmed", not "paid".
    expect((await confirm(guest, started.body.data.payment_id, code)).status).toBe(409);
    const messages = await env.DB.prepare(
      "SELECT kind, detail FROM notifications WHERE order_id = (SELECT id FROM orders WHERE number = ?) AND channel = 'email'",
    )
      .bind(number)
      .all<{ kind: string; detail: string | null }>();
    expect(messages.results).toEqual([{ kind: "paid", detail: JSON.stringify({ cod: true }) }]);
  });

  it("allows five tries on a code, then asks for a new one", async () => {
    const guest = await newGuest();
    const phone = freshPhone();
    const { placed } = await codOrder(guest, { phone });
    const started = await start(guest, placed.body.data.number);
    const code = await codeFor(phone);
    const wrong = String((Number(code) + 7) % 1_000_000).padStart(6, "0");
    for (let i = 0; i < 5; i++)
      expect((await confirm(guest, started.body.data.payment_id, wrong)).body.errors!.otp[0]).toMatch(/not right/);
    const spent = await confirm(guest, started.body.data.payment_id, code);
    expect(spent.status).toBe(422);
    expect(spent.body.errors!.otp[0]).toMatch(/expired or was tried too often/);
  });

  it("gives the stock back and cancels the order when the window ends unconfirmed", async () => {
    const guest = await newGuest();
    const { product, placed } = await codOrder(guest);
    const number = placed.body.data.number as string;
    // The hold is the operator's confirmation window (30 minutes by default).
    const until = Date.parse(placed.body.data.reserved_until) - Date.now();
    expect(until).toBeGreaterThan(29 * 60_000);
    expect(until).toBeLessThanOrEqual(30 * 60_000);
    await env.DB.prepare("UPDATE orders SET reserved_until = '2000-01-01T00:00:00.000Z' WHERE number = ?")
      .bind(number)
      .run();
    await releaseExpiredReservations(env.DB);
    expect(await stockOf(product.id)).toBe(5);
    const order = (await call(guest, "GET", `/orders/${number}`)).body.data;
    expect(order.status).toBe("cancelled");
    const late = await start(guest, number);
    expect(late.status).toBe(409);
  });

  it("never swaps with another method: a COD total holds the fee", async () => {
    const guest = await newGuest();
    const { placed } = await codOrder(guest);
    const byCard = await call(guest, "POST", `/payments/${placed.body.data.number}/start`, {
      return_url: RETURN,
      method: "card",
    });
    expect(byCard.status).toBe(422);
    const card = await checkoutWith(guest, (await createProduct({ stock: 2 })).id, 1);
    const byCod = await call(guest, "POST", `/payments/${card.body.data.number}/start`, {
      return_url: RETURN,
      method: "cod",
    });
    expect(byCod.status).toBe(422);
  });
});

describe("the console and the courier", () => {
  it("lists unconfirmed COD orders apart, and the slip and shipment carry the cash to collect", async () => {
    const [manager, guest] = await Promise.all([newStaff("manager"), newGuest()]);
    const waiting = await codOrder(guest);
    const number = waiting.placed.body.data.number as string;
    const unconfirmed = (await call(manager, "GET", `/admin/orders?cod=unconfirmed&search=${number}`)).body.data;
    expect(unconfirmed).toEqual([
      expect.objectContaining({ number, payment_method: "cod", status: "pending_payment" }),
    ]);
    expect((await call(manager, "GET", "/admin/orders?cod=all")).status).toBe(422);

    const { number: confirmed, total } = await confirmedOrder(await newUser());
    expect((await call(manager, "GET", `/admin/orders?cod=unconfirmed&search=${confirmed}`)).body.data).toEqual([]);
    const detail = (await call(manager, "GET", `/admin/orders/${confirmed}`)).body.data;
    expect(detail).toMatchObject({ status: "processing", payment_status: "pending", cash_to_collect: total });
    expect(detail.actions).toContain("ship");
    expect(detail.refundable).toBe(0);
    const slip = (await call(manager, "GET", `/admin/orders/${confirmed}/packing-slip`)).body.data;
    expect(slip).toMatchObject({ cash_to_collect: total, currency: "SAR" });

    const delivered = await deliver(manager, confirmed);
    expect(delivered.status).toBe(200);
    // Delivered: the courier collected the cash; the order is paid, with its tax invoice.
    expect(delivered.body.data).toMatchObject({ payment_status: "paid", cash_to_collect: 0, refundable: total });
    expect(delivered.body.data.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(["cod_confirmed", "shipped", "cod_collected", "delivered"]),
    );
    const shipped = delivered.body.data.events.find((e: { type: string }) => e.type === "shipped");
    expect(shipped.detail).toMatchObject({ cash_to_collect: total });
    expect(delivered.body.data.documents.invoice_number).toMatch(/^INV-/);
    expect(delivered.body.data.payments).toEqual([
      expect.objectContaining({ provider: "cod", status: "paid", amount: total }),
    ]);
  });
});

describe("refunds of a delivered COD order", () => {
  it("go by bank transfer to the IBAN the shopper gives with the return, recorded in the console", async () => {
    const [manager, support, shopper] = await Promise.all([newStaff("manager"), newStaff("support"), newUser("ar")]);
    const { number, product } = await confirmedOrder(shopper);
    expect((await deliver(manager, number)).status).toBe(200);

    const line = { product_id: product.id, quantity: 1, reason: "damaged" };
    const without = await call(shopper, "POST", `/orders/${number}/returns`, { items: [line] });
    expect(without.status).toBe(422);
    expect(without.body.errors!["refund_account.iban"][0]).toBe("رقم الآيبان مطلوب.");
    const wrong = await call(shopper, "POST", `/orders/${number}/returns`, {
      items: [line],
      refund_account: { iban: BAD_IBAN, name: "سارة" },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors!["refund_account.iban"][0]).toMatch(/آيبان سعوديًا/);
    const none = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM returns WHERE order_id = (SELECT id FROM orders WHERE number = ?)",
    )
      .bind(number)
      .first<number>("n");
    expect(none).toBe(0);

    const requested = await call(shopper, "POST", `/orders/${number}/returns`, {
      items: [line],
      refund_account: { iban: "sa03 8000 0000 6080 1016 7519", name: "Sara Test" },
    });
    expect(requested.status).toBe(201);
    const id = requested.body.data.self_service.returns[0].id as string;
    const base = `/admin/orders/${number}/returns/${id}`;
    for (const step of ["approve", "receive", "refund"])
      expect((await call(manager, "POST", `${base}/${step}`)).status, step).toBe(200);

    const detail = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(detail.refund_account).toEqual({ iban: IBAN, name: "Sara Test" });
    expect(detail.bank_transfers).toEqual([
      expect.objectContaining({ amount: 20000, iban: IBAN, holder: "Sara Test", status: "due", reference: null }),
    ]);
    expect(detail.refunds).toEqual([expect.objectContaining({ amount: 20000, status: "succeeded" })]);
    expect(detail.documents.credit_notes).toHaveLength(1);
    // Support reads the IBAN masked, and cannot mark the transfer.
    const seen = (await call(support, "GET", `/admin/orders/${number}`)).body.data;
    expect(seen.bank_transfers[0].iban).toBe(maskIban(IBAN));
    expect(seen.refund_account.iban).toBe(maskIban(IBAN));
    const transfer = detail.bank_transfers[0].id as string;
    const path = `/admin/orders/${number}/transfers/${transfer}/sent`;
    expect((await call(support, "POST", path, { reference: "TRX1" })).status).toBe(403);
    expect((await call(manager, "POST", path, { reference: "" })).status).toBe(422);

    const sent = await call(manager, "POST", path, { reference: "SNB-20260104-77" });
    expect(sent.status).toBe(200);
    expect(sent.body.data.bank_transfers[0]).toMatchObject({ status: "sent", reference: "SNB-20260104-77" });
    expect(sent.body.data.events.map((e: { type: string }) => e.type)).toContain("transfer_sent");
    expect((await call(manager, "POST", path, { reference: "again" })).status).toBe(409);
    const audited = await env.DB.prepare(
      "SELECT COUNT(*) AS n FROM audit_log WHERE action = 'order.transfer_sent' AND entity_id = ?",
    )
      .bind(number)
      .first<number>("n");
    expect(audited).toBe(1);
  });

  it("are refused clearly by a console refund while the shopper gave no IBAN", async () => {
    const [manager, shopper] = await Promise.all([newStaff("manager"), newUser()]);
    const { number } = await confirmedOrder(shopper);
    expect((await deliver(manager, number)).status).toBe(200);
    const refused = await call(manager, "POST", `/admin/orders/${number}/refund`, { amount: 1000 });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/no IBAN/);
    const detail = (await call(manager, "GET", `/admin/orders/${number}`)).body.data;
    expect(detail.refunded).toBe(0);
  });
});

describe("the invoice of a COD order", () => {
  it("states the COD fee as a line of its own, and the lines add up to the total", async () => {
    const [manager, shopper] = await Promise.all([newStaff("manager"), newUser()]);
    const { number, total } = await confirmedOrder(shopper);
    expect((await deliver(manager, number)).status).toBe(200);
    const invoice = (await call(shopper, "GET", `/orders/${number}/invoice`)).body.data;
    expect(invoice.lines.map((l: { name: string }) => l.name)).toContain("Cash on delivery fee");
    const fee = invoice.lines.find((l: { name: string }) => l.name === "Cash on delivery fee");
    expect(fee).toMatchObject({ quantity: 1, line_total: 1500 });
    expect(invoice.lines.reduce((sum: number, l: { line_total: number }) => sum + l.line_total, 0)).toBe(total);
    expect(invoice.total).toBe(total);
  });
});

describe("migration 0045 on a database made and used under the schema before it", () => {
  it("keeps every order, each with no COD fee and no refund account", async () => {
    const db = env.REPLICA_DB;
    await dropAll(db);
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0045"),
    );
    await db
      .prepare(
        `INSERT INTO orders (number, email, status, subtotal, shipping, vat, total, address, shipping_method, payment_method, idempotency_key)
         VALUES ('SQ-OLD2', 'old-cod@example.com', 'delivered', 10000, 2500, 1630, 12500, '{}', 'standard', 'card', 'old-key-2')`,
      )
      .run();
    const read = () => db.prepare("SELECT * FROM orders ORDER BY id").all();
    const before = (await read()).results;
    // Up to this migration: later ones add columns of their own (0047's promised_by).
    await applyD1Migrations(
      db,
      env.TEST_MIGRATIONS.filter((m) => m.name < "0046"),
    );
    expect((await read()).results).toEqual(
      before.map((row) => ({ ...row, cod_fee: 0, refund_iban: null, refund_iban_name: null })),
    );
  });
});
