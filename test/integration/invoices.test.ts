import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { TaxDocument } from "../../contract/invoices";
import { SANDBOX_REFUND_DECLINED_AMOUNT } from "../../worker/backend/services/payments/providers/sandbox";
import { allocate } from "../../worker/backend/services/shared/money";
import {
  decodeZatcaQr,
  ensureDocuments,
  presentTaxDocument,
  sellerOf,
  zatcaQr,
} from "../../worker/backend/services/orders/invoices";
import { refundOrder } from "../../worker/backend/services/orders/fulfilment";
import type { OrderRow } from "../../worker/backend/services/orders/orders";
import { call, newGuest, newUser } from "../support/commerce";
import { newStaff } from "../support/console";
import { paidOrder, placeOrder } from "../support/orders";

const sar = (halalas: number) => (halalas / 100).toFixed(2);

/** Checks a document's QR against what the document says, field by field. */
function expectQrMatches(doc: TaxDocument) {
  const fields = decodeZatcaQr(doc.qr);
  expect(fields).toEqual({
    1: env.SELLER_NAME_AR,
    2: env.SELLER_VAT_NUMBER,
    3: doc.issued_at,
    4: sar(doc.total),
    5: sar(doc.vat),
  });
}

describe("ZATCA's QR payload", () => {
  it("is tag, UTF-8 byte length and value for each field, base64 encoded", () => {
    const qr = zatcaQr({
      sellerName: "سوق",
      vatNumber: "300000000000003",
      timestamp: "2026-11-25T08:00:00Z",
      total: "115.00",
      vat: "15.00",
    });
    const bytes = Uint8Array.from(atob(qr), (c) => c.charCodeAt(0));
    // "سوق" is three Arabic letters, six UTF-8 bytes.
    expect([...bytes.slice(0, 2)]).toEqual([1, 6]);
    expect([...bytes.slice(8, 10)]).toEqual([2, 15]);
    expect(decodeZatcaQr(qr)).toEqual({
      1: "سوق",
      2: "300000000000003",
      3: "2026-11-25T08:00:00Z",
      4: "115.00",
      5: "15.00",
    });
  });

  it("shares the VAT among the lines so they add up exactly, a discount taking its share back", () => {
    expect(allocate(1500, [5750, 5750])).toEqual([750, 750]);
    const shares = allocate(1000, [3333, 3333, 3334, 2500, -5000]);
    expect(shares.reduce((a, b) => a + b, 0)).toBe(1000);
    expect(shares[4]).toBeLessThan(0);
  });
});

describe("the seller's configuration", () => {
  it("takes a Saudi VAT number only, and never the demo one in production", () => {
    const seller = { SELLER_NAME_EN: "Shop", SELLER_NAME_AR: "متجر" };
    expect(sellerOf({ ...seller, SELLER_VAT_NUMBER: "310122393500003" }, "en")).toMatchObject({
      name_ar: "متجر",
      vat_number: "310122393500003",
    });
    for (const bad of ["", "31012239350000", "410122393500003", "310122393500004", "3101223935000O3"])
      expect(() => sellerOf({ ...seller, SELLER_VAT_NUMBER: bad }, "en")).toThrow(/not available/);
    expect(() =>
      sellerOf({ ...seller, SELLER_VAT_NUMBER: "300000000000003", ENVIRONMENT: "production" }, "en"),
    ).toThrow(/not available/);
    expect(() => sellerOf({ SELLER_VAT_NUMBER: "310122393500003" }, "en")).toThrow(/not available/);
  });
});

describe("a paid order's tax invoice", () => {
  it("the owner gets an invoice whose QR says the seller, VAT number, time, total and VAT", async () => {
    const shopper = await newUser();
    const { number, total } = await paidOrder(shopper, { price: 11500 });
    const answer = await call<TaxDocument>(shopper, "GET", `/orders/${number}/invoice`);
    expect(answer.status).toBe(200);
    const doc = answer.body.data;
    expect(doc).toMatchObject({
      kind: "invoice",
      order_number: number,
      total,
      currency: "SAR",
      seller: { vat_number: "300000000000003", name_ar: env.SELLER_NAME_AR },
      buyer: { name: expect.any(String), city: expect.any(String) },
    });
    expect(doc.number).toMatch(/^INV-\d{6}$/);
    expectQrMatches(doc);
    // The lines add up exactly, in halalas, to the totals.
    expect(doc.lines.reduce((a, l) => a + l.line_total, 0)).toBe(doc.total);
    expect(doc.lines.reduce((a, l) => a + l.vat, 0)).toBe(doc.vat);
    expect(doc.subtotal + doc.vat).toBe(doc.total);
    // The VAT is the one the order charged (prices include 15 % VAT).
    const order = (await call(shopper, "GET", `/orders/${number}`)).body.data;
    expect(doc.vat).toBe(order.vat);
    expect(order.invoice_number).toBe(doc.number);
    expect(order.credit_notes).toEqual([]);
    // Tracking by number and contact is not owning: no links to the owner's documents.
    const tracked = await call(null, "POST", "/orders/track", { number, contact: order.email });
    expect(tracked.status).toBe(200);
    expect(tracked.body.data).toMatchObject({ invoice_number: null, credit_notes: [] });
  });

  it("keeps its number across reads, and the next order's invoice is the next number", async () => {
    const shopper = await newGuest("ar");
    const first = await paidOrder(shopper);
    const second = await paidOrder(shopper);
    const a1 = (await call<TaxDocument>(shopper, "GET", `/orders/${first.number}/invoice`)).body.data;
    const a2 = (await call<TaxDocument>(shopper, "GET", `/orders/${first.number}/invoice`)).body.data;
    const b = (await call<TaxDocument>(shopper, "GET", `/orders/${second.number}/invoice`)).body.data;
    expect(a2.number).toBe(a1.number);
    expect(a2.issued_at).toBe(a1.issued_at);
    expect(Number(b.number.slice(4))).toBeGreaterThan(Number(a1.number.slice(4)));
    const { results } = await env.DB.prepare(
      "SELECT number FROM tax_documents WHERE kind = 'invoice' AND id > (SELECT id FROM tax_documents WHERE number = ?) AND id < (SELECT id FROM tax_documents WHERE number = ?)",
    )
      .bind(a1.number, b.number)
      .all();
    // Sequential: no invoice was numbered between them but the ones issued in between.
    expect(Number(b.number.slice(4)) - Number(a1.number.slice(4))).toBe(results.length + 1);
    // The lines are named in the request's language (an Arabic guest here).
    const item = await env.DB.prepare(
      "SELECT name_ar FROM order_items WHERE order_id = (SELECT id FROM orders WHERE number = ?) ORDER BY id",
    )
      .bind(first.number)
      .first<{ name_ar: string }>();
    expect(a1.lines[0].name).toBe(item!.name_ar);
  });

  it("a stranger gets the same 404 as for an unknown order, and an unpaid order has no invoice", async () => {
    const owner = await newUser();
    const { number } = await paidOrder(owner);
    const stranger = await newUser();
    expect((await call(stranger, "GET", `/orders/${number}/invoice`)).status).toBe(404);
    expect((await call(await newGuest(), "GET", `/orders/${number}/invoice`)).status).toBe(404);
    expect((await call(owner, "GET", `/orders/SQ-ZZZZZZZZ/invoice`)).status).toBe(404);
    const unpaid = await placeOrder(owner);
    expect((await call(owner, "GET", `/orders/${unpaid.number}/invoice`)).status).toBe(404);
    expect((await call(owner, "GET", `/orders/${unpaid.number}`)).body.data.invoice_number).toBeNull();
  });

  it("an order paid before invoices existed gets its invoice on first read", async () => {
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    await env.DB.prepare("DELETE FROM tax_documents WHERE order_id = (SELECT id FROM orders WHERE number = ?)")
      .bind(number)
      .run();
    expect((await call(shopper, "GET", `/orders/${number}`)).body.data.invoice_number).toBeNull();
    const doc = (await call<TaxDocument>(shopper, "GET", `/orders/${number}/invoice`)).body.data;
    expect(doc.number).toMatch(/^INV-\d{6}$/);
    expectQrMatches(doc);
  });
});

describe("a refund's credit note", () => {
  it("a succeeded refund issues a credit note with its amount and the VAT in it", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const { number } = await paidOrder(shopper, { price: 23000 });
    const refunded = await call(manager, "POST", `/admin/orders/${number}/refund`, {
      amount: 5750,
      reason: "Scratched",
    });
    expect(refunded.status).toBe(200);
    const order = (await call(shopper, "GET", `/orders/${number}`)).body.data;
    expect(order.credit_notes).toHaveLength(1);
    const { id, number: cn } = order.credit_notes[0];
    expect(cn).toMatch(/^CN-\d{6}$/);
    const answer = await call<TaxDocument>(shopper, "GET", `/orders/${number}/credit-notes/${id}`);
    expect(answer.status).toBe(200);
    const doc = answer.body.data;
    // 57.50 SAR including 15 % VAT contains 7.50 SAR of VAT.
    expect(doc).toMatchObject({
      kind: "credit_note",
      number: cn,
      total: 5750,
      vat: 750,
      subtotal: 5000,
      invoice_number: order.invoice_number,
    });
    expectQrMatches(doc);
    expect(decodeZatcaQr(doc.qr)[4]).toBe("57.50");
    expect(decodeZatcaQr(doc.qr)[5]).toBe("7.50");
    // The credit note is the owner's only.
    expect((await call(await newUser(), "GET", `/orders/${number}/credit-notes/${id}`)).status).toBe(404);
    expect((await call(shopper, "GET", `/orders/${number}/credit-notes/999999999`)).status).toBe(404);
    // The invoice is unchanged by the refund: a document never changes after issue.
    const invoice = (await call<TaxDocument>(shopper, "GET", `/orders/${number}/invoice`)).body.data;
    expect(invoice.total).toBe(order.total);
  });

  it("a refund the provider declines issues no credit note", async () => {
    const manager = await newStaff("manager");
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    const declined = await call(manager, "POST", `/admin/orders/${number}/refund`, {
      amount: SANDBOX_REFUND_DECLINED_AMOUNT,
    });
    expect(declined.status).toBe(422);
    expect((await call(shopper, "GET", `/orders/${number}`)).body.data.credit_notes).toEqual([]);
  });
});

describe("documents after the VAT rate changes", () => {
  const orderRow = async (number: string) =>
    (await env.DB.prepare("SELECT * FROM orders WHERE number = ?").bind(number).first<OrderRow>())!;

  it("an order keeps the rate it was charged at: its invoice and a later refund's credit note use it, not the new one", async () => {
    const shopper = await newUser();
    const { number } = await paidOrder(shopper, { price: 23000 });
    const order = await orderRow(number);
    // Charged at the configured 15 %: the order remembers it.
    expect(order.vat_rate).toBe(0.15);
    expect(order.vat).toBe(Math.round((order.total * 0.15) / 1.15));

    // The operator then sets VAT_RATE to 5 % (a new law): a document of this order does not change.
    const later = { ...env, VAT_RATE: "0.05" };
    const invoiceRow = (await ensureDocuments(later, order)).find((d) => d.kind === "invoice")!;
    const before = await presentTaxDocument(env, order, invoiceRow, "en");
    const after = await presentTaxDocument(later, order, invoiceRow, "en");
    expect(after).toEqual(before);
    expect(after.vat_rate).toBe(0.15);
    // Each line's price without VAT is worked out at the order's rate.
    const item = after.lines[0];
    expect(item.unit_price).toBe(Math.round(23000 / 1.15));

    // A refund under the new configuration takes back the VAT the sale charged: 57.50 holds 7.50 at 15 % (2.74 at 5 %).
    const outcome = await refundOrder(later, order, 5750, { kind: "system" }, { lang: "en", reason: "Scratched" });
    expect(outcome.succeeded).toBe(true);
    const note = (await ensureDocuments(later, await orderRow(number))).find((d) => d.kind === "credit_note")!;
    expect(note).toMatchObject({ total: 5750, vat: 750 });
    const presented = await presentTaxDocument(later, await orderRow(number), note, "en");
    expect(presented).toMatchObject({ vat_rate: 0.15, vat: 750, subtotal: 5000 });
    expect(decodeZatcaQr(presented.qr)[5]).toBe("7.50");

    // A credit note issued on first read (a refund from before documents existed) takes the order's rate too.
    await env.DB.prepare("DELETE FROM tax_documents WHERE id = ?").bind(note.id).run();
    const reissued = (await ensureDocuments(later, await orderRow(number))).find((d) => d.kind === "credit_note")!;
    expect(reissued.vat).toBe(750);
  });

  it("an order placed before orders kept their rate uses the configured one, as before", async () => {
    const shopper = await newUser();
    const { number } = await paidOrder(shopper, { price: 11500 });
    await env.DB.prepare("UPDATE orders SET vat_rate = NULL WHERE number = ?").bind(number).run();
    const order = await orderRow(number);
    const invoiceRow = (await ensureDocuments(env, order)).find((d) => d.kind === "invoice")!;
    expect((await presentTaxDocument(env, order, invoiceRow, "en")).vat_rate).toBe(0.15);
    expect((await presentTaxDocument({ ...env, VAT_RATE: "0.05" }, order, invoiceRow, "en")).vat_rate).toBe(0.05);
  });
});
