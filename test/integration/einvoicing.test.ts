import { SELF, createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import type { PDFRawStream } from "pdf-lib";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { EInvoiceOverview } from "../../contract/einvoicing";
import type { EInvoiceJob } from "../../worker/backend/env";
import { queue } from "../../worker/backend/jobs";
import type { TaxDocument } from "../../contract/invoices";
import { loadUnit, stampWaiting } from "../../worker/backend/services/einvoicing/chain";
import { readCertificate, certificateOfToken } from "../../worker/backend/services/einvoicing/certificate";
import {
  alertOverdue,
  reportDue,
  resendEInvoice,
  submitEInvoice,
} from "../../worker/backend/services/einvoicing/reporting";
import { FIRST_PIH, readTlv, verifySignature } from "../../worker/backend/services/einvoicing/stamp";
import { checkDocument } from "../../worker/backend/services/einvoicing/verify";
import { descendant, invoiceHash, parseXml, textOf } from "../../worker/backend/services/einvoicing/xml";
import { failZatcaNext, loadZatcaDocument } from "../../worker/backend/services/einvoicing/zatca-stand-in";
import {
  creditNoteStatements,
  invoiceStatements,
  type EInvoiceRow,
} from "../../worker/backend/services/orders/invoices";
import { address, call, checkoutWith, createProduct, newUser, type Shopper } from "../support/commerce";
import { newStaff, type Staff } from "../support/console";
import { paidOrder, payOrder, placeOrder } from "../support/orders";

const REGISTRATION = {
  crn: "1010010000",
  branch: "Riyadh Branch",
  industry: "Electronics retail",
  address: {
    street: "King Fahd Road",
    building_number: "2322",
    additional_number: "1234",
    district: "Al Olaya",
    city: "Riyadh",
    postal_code: "12211",
  },
};

const text = (xml: string, local: string) => textOf(descendant(parseXml(xml).documentElement!, local));
const xmlOf = async (shopper: Shopper, path: string) => {
  const res = await SELF.fetch(`http://shop.test/backend${path}`, {
    headers: { ...shopper.headers, accept: "application/xml" },
  });
  return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
};
const chain = async () => (await env.DB.prepare("SELECT * FROM einvoices ORDER BY icv").all<EInvoiceRow>()).results;

let owner: Staff;

/** Onboards the shop's unit through the console's API, as its owner does. */
async function onboard(): Promise<EInvoiceOverview> {
  const registered = await call<EInvoiceOverview>(owner, "PUT", "/admin/einvoicing/registration", REGISTRATION);
  expect(registered.status).toBe(200);
  const compliance = await call<EInvoiceOverview>(owner, "POST", "/admin/einvoicing/compliance", { otp: "123345" });
  expect(compliance.status).toBe(200);
  const production = await call<EInvoiceOverview>(owner, "POST", "/admin/einvoicing/production");
  expect(production.status).toBe(200);
  return production.body.data;
}

beforeAll(async () => {
  owner = await newStaff("owner");
});

describe("onboarding the e-invoicing unit against ZATCA's stand-in", () => {
  it("refuses a bad registration and OTP with field errors, and a manager altogether", async () => {
    const bad = await call(owner, "PUT", "/admin/einvoicing/registration", { ...REGISTRATION, crn: "12" });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors ?? {})).toEqual(["crn"]);
    const manager = await newStaff("manager");
    expect((await call(manager, "PUT", "/admin/einvoicing/registration", REGISTRATION)).status).toBe(403);
    expect((await call(manager, "GET", "/admin/einvoicing")).status).toBe(200);
    expect((await call(owner, "PUT", "/admin/einvoicing/registration", REGISTRATION)).status).toBe(200);
    const wrongOtp = await call(owner, "POST", "/admin/einvoicing/compliance", { otp: "111111" });
    expect(wrongOtp.status).toBe(422);
    expect(Object.keys(wrongOtp.body.errors ?? {})).toEqual(["otp"]);
    expect((await call(owner, "POST", "/admin/einvoicing/production")).status).toBe(409);
  });

  it("registers, passes the six compliance checks with documents made from the shop's details, and reaches production", async () => {
    const overview = await onboard();
    expect(overview.status).toBe("production");
    expect(overview.compliance_passed).toHaveLength(6);
    expect(overview.serial).toMatch(/^1-SouqEdge\|2-Workers\|3-[0-9a-f-]{36}$/);
    expect(overview.certificate_days_left).toBeGreaterThan(300);
    const unit = (await loadUnit(env.DB))!;
    // The key is stored sealed, never as the raw 32 bytes.
    expect(unit.private_key).toMatch(/^v1\./);
    const cert = readCertificate(certificateOfToken(unit.production_token!));
    expect(cert.vatNumber).toBe(env.SELLER_VAT_NUMBER);
  });
});

describe("a paid order's documents in the chain", () => {
  it("signs the invoice on its first read, reports it, and its credit note follows it in the chain", async () => {
    const shopper = await newUser();
    const manager = await newStaff("manager");
    const { number } = await paidOrder(shopper, { price: 23_000, quantity: 2 });
    const page = await call<TaxDocument>(shopper, "GET", `/orders/${number}/invoice`);
    expect(page.status).toBe(200);
    const doc = page.body.data;
    expect(doc.einvoice?.status).toBe("pending");
    const xml = await xmlOf(shopper, `/orders/${number}/invoice.xml`);
    expect(xml.status).toBe(200);
    expect(xml.type).toContain("application/xml");
    // Every check ZATCA makes on receipt: rules, hash (digest and QR tag 6), signature, digests.
    expect(checkDocument(xml.body).errors).toEqual([]);
    const hash = invoiceHash(xml.body).base64;
    const qr = readTlv(doc.qr);
    expect([...qr.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(new TextDecoder().decode(qr.get(6))).toBe(hash);
    expect(new TextDecoder().decode(qr.get(4))).toBe((doc.total / 100).toFixed(2));
    expect(new TextDecoder().decode(qr.get(5))).toBe((doc.vat / 100).toFixed(2));
    const cert = readCertificate(text(xml.body, "X509Certificate"));
    expect(verifySignature(hash, new TextDecoder().decode(qr.get(7)), cert.publicKey)).toBe(true);
    expect(text(xml.body, "UUID")).toBe(doc.einvoice!.uuid);

    // The queue (or the cron) reports it; ZATCA's stand-in keeps what it was sent.
    const row = (await env.DB.prepare("SELECT * FROM einvoices WHERE uuid = ?")
      .bind(doc.einvoice!.uuid)
      .first<EInvoiceRow>())!;
    expect(await submitEInvoice(env, row.id)).toBe(true);
    expect((await call<TaxDocument>(shopper, "GET", `/orders/${number}/invoice`)).body.data.einvoice?.status).toBe(
      "reported",
    );
    expect(await loadZatcaDocument(env.KV, row.uuid)).toMatchObject({ invoice_hash: row.hash, status: "REPORTED" });

    const refunded = await call(manager, "POST", `/admin/orders/${number}/refund`, {
      amount: 11_500,
      reason: "Scratched",
    });
    expect(refunded.status).toBe(200);
    const order = (await call(shopper, "GET", `/orders/${number}`)).body.data;
    const note = await call<TaxDocument>(shopper, "GET", `/orders/${number}/credit-notes/${order.credit_notes[0].id}`);
    expect(note.body.data.einvoice!.icv).toBeGreaterThan(row.icv);
    const noteXml = await xmlOf(shopper, `/orders/${number}/credit-notes/${order.credit_notes[0].id}.xml`);
    expect(checkDocument(noteXml.body).errors).toEqual([]);
    expect(text(noteXml.body, "InvoiceTypeCode")).toBe("381");
    // BR-KSA-56: the note names its invoice; BR-KSA-17: its reason.
    expect(noteXml.body).toContain(
      `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${doc.number}</cbc:ID>`,
    );
    expect(text(noteXml.body, "InstructionNote")).toContain("Scratched");

    // The PDF/A-3 the shopper downloads carries that XML.
    const pdf = await SELF.fetch(`http://shop.test/backend/orders/${number}/invoice.pdf`, { headers: shopper.headers });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const { PDFDocument, PDFName, PDFDict, PDFArray, decodePDFRawStream } = await import("pdf-lib");
    const loaded = await PDFDocument.load(new Uint8Array(await pdf.arrayBuffer()));
    const af = loaded.catalog.lookup(PDFName.of("AF"), PDFArray);
    const spec = af.lookup(0, PDFDict);
    const stream = spec.lookup(PDFName.of("EF"), PDFDict).lookup(PDFName.of("F")) as PDFRawStream;
    expect(new TextDecoder().decode(decodePDFRawStream(stream).decode())).toBe(xml.body);

    // A stranger gets the order's 404 for its XML too.
    expect((await xmlOf(await newUser(), `/orders/${number}/invoice.xml`)).status).toBe(404);
  });

  it("raises an order's total with a debit note that names its invoice and why, chained and checked", async () => {
    const shopper = await newUser();
    const manager = await newStaff("manager");
    const { number } = await paidOrder(shopper);
    const invoice = (await call<TaxDocument>(shopper, "GET", `/orders/${number}/invoice`)).body.data;
    const bad = await call(manager, "POST", `/admin/orders/${number}/debit-notes`, { amount: 0, reason: "" });
    expect(bad.status).toBe(422);
    const raised = await call(manager, "POST", `/admin/orders/${number}/debit-notes`, {
      amount: 2_300,
      reason: "Redelivery fee",
    });
    expect(raised.status).toBe(200);
    const order = (await call(shopper, "GET", `/orders/${number}`)).body.data;
    expect(order.debit_notes).toHaveLength(1);
    const { id, number: dn } = order.debit_notes[0];
    expect(dn).toMatch(/^DN-\d{6}$/);
    const note = (await call<TaxDocument>(shopper, "GET", `/orders/${number}/debit-notes/${id}`)).body.data;
    expect(note).toMatchObject({ kind: "debit_note", total: 2_300, reason: "Redelivery fee" });
    expect(note.einvoice!.icv).toBeGreaterThan(invoice.einvoice!.icv);
    const xml = await xmlOf(shopper, `/orders/${number}/debit-notes/${id}.xml`);
    expect(checkDocument(xml.body).errors).toEqual([]);
    expect(text(xml.body, "InvoiceTypeCode")).toBe("383");
    expect(xml.body).toContain(`<cac:InvoiceDocumentReference><cbc:ID>${invoice.number}</cbc:ID>`);
    expect(text(xml.body, "InstructionNote")).toBe("Redelivery fee");
    expect(text(xml.body, "PayableAmount")).toBe("23.00");
    // An unpaid order has no invoice to raise.
    const unpaid = await placeOrder(shopper);
    expect(
      (await call(manager, "POST", `/admin/orders/${unpaid.number}/debit-notes`, { amount: 100, reason: "x" })).status,
    ).toBe(409);
  });

  it("clears a business buyer's standard invoice before the buyer receives it, naming the company", async () => {
    const buyer = await newUser();
    const product = await createProduct({ stock: 5, price: 57_500 });
    const missing = await checkoutWith(buyer, product.id, 1, {
      buyer_company: "Digital Solutions Co.",
      buyer_vat_number: "310122393500003",
      address: { ...address, building: undefined, postal_code: undefined },
    });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors ?? {}).sort()).toEqual(["address.building", "address.postal_code"]);
    // The whole national address (with its additional number, which ZATCA otherwise warns about).
    const placed = await checkoutWith(buyer, product.id, 1, {
      buyer_company: "Digital Solutions Co.",
      buyer_vat_number: "٣١٠١٢٢٣٩٣٥٠٠٠٠٣",
      address: { ...address, additional_number: "7023" },
    });
    expect(placed.status).toBe(201);
    const number = placed.body.data.number as string;
    await payOrder(buyer, number);
    const doc = (await call<TaxDocument>(buyer, "GET", `/orders/${number}/invoice`)).body.data;
    expect(doc.transaction).toBe("standard");
    expect(doc.buyer).toMatchObject({ company: "Digital Solutions Co.", vat_number: "310122393500003" });
    // Not the buyer's until ZATCA cleared it.
    expect((await xmlOf(buyer, `/orders/${number}/invoice.xml`)).status).toBe(409);
    const row = (await env.DB.prepare("SELECT * FROM einvoices WHERE uuid = ?")
      .bind(doc.einvoice!.uuid)
      .first<EInvoiceRow>())!;
    expect(await submitEInvoice(env, row.id)).toBe(true);
    const xml = await xmlOf(buyer, `/orders/${number}/invoice.xml`);
    expect(xml.status).toBe(200);
    expect(checkDocument(xml.body).errors).toEqual([]);
    expect(text(xml.body, "InvoiceTypeCode")).toBe("388");
    expect(xml.body).toContain('<cbc:InvoiceTypeCode name="0100000">');
    expect(xml.body).toContain("<cbc:CompanyID>310122393500003</cbc:CompanyID>");
    expect((await call<TaxDocument>(buyer, "GET", `/orders/${number}/invoice`)).body.data.einvoice?.status).toBe(
      "cleared",
    );
  });

  it("reports a stamped copy from the queue, whatever ZATCA answers the message is done", async () => {
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    await call(shopper, "GET", `/orders/${number}/invoice`);
    const row = (await chain()).at(-1)!;
    const batch = createMessageBatch<EInvoiceJob>("souq-notifications", [
      { id: "m-einvoice", timestamp: new Date(), attempts: 1, body: { einvoice: row.id } },
    ]);
    const ctx = createExecutionContext();
    await queue(batch as MessageBatch<unknown>, env);
    const result = await getQueueResult(batch, ctx);
    expect(result.explicitAcks).toEqual(["m-einvoice"]);
    expect((await env.DB.prepare("SELECT status FROM einvoices WHERE id = ?").bind(row.id).first())?.status).toBe(
      "reported",
    );
  });

  it("renews the production certificate with a new OTP; documents after it are signed with the new one", async () => {
    const before = (await loadUnit(env.DB))!;
    expect((await call(owner, "POST", "/admin/einvoicing/renew", { otp: "111111" })).status).toBe(422);
    const renewed = await call<EInvoiceOverview>(owner, "POST", "/admin/einvoicing/renew", { otp: "123345" });
    expect(renewed.status).toBe(200);
    const after = (await loadUnit(env.DB))!;
    expect(after.production_token).not.toBe(before.production_token);
    expect(after.starts_after).toBe(before.starts_after);
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    const xml = await xmlOf(shopper, `/orders/${number}/invoice.xml`);
    expect(text(xml.body, "X509Certificate")).toBe(certificateOfToken(after.production_token!));
    expect(checkDocument(xml.body).errors).toEqual([]);
  });

  it("retries a report ZATCA could not take, with a growing delay, and raises the alert long before 24 hours", async () => {
    const shopper = await newUser();
    const { number } = await paidOrder(shopper);
    await call(shopper, "GET", `/orders/${number}/invoice`);
    const row = (await chain()).at(-1)!;
    await failZatcaNext(env.KV, 1);
    expect(await submitEInvoice(env, row.id)).toBe(false);
    const retried = (await env.DB.prepare("SELECT * FROM einvoices WHERE id = ?").bind(row.id).first<EInvoiceRow>())!;
    expect(retried.status).toBe("pending");
    expect(retried.attempts).toBe(1);
    expect(Date.parse(retried.next_attempt_at!)).toBeGreaterThan(Date.now() + 30_000);
    // Not due yet: the cron leaves it.
    await reportDue(env);
    expect((await env.DB.prepare("SELECT status FROM einvoices WHERE id = ?").bind(row.id).first())?.status).toBe(
      "pending",
    );
    // Twelve hours unreported: the alert, once.
    await env.DB.prepare("UPDATE einvoices SET created_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 13 * 3_600_000).toISOString(), row.id)
      .run();
    expect(await alertOverdue(env)).toBe(1);
    expect(await alertOverdue(env)).toBe(0);
    expect((await call<EInvoiceOverview>(owner, "GET", "/admin/einvoicing")).body.data.overdue).toBeGreaterThanOrEqual(
      1,
    );
    // Due: the cron sends it and ZATCA takes it.
    await env.DB.prepare("UPDATE einvoices SET next_attempt_at = ? WHERE id = ?")
      .bind(new Date(0).toISOString(), row.id)
      .run();
    await reportDue(env);
    const sent = await env.DB.prepare("SELECT status, messages FROM einvoices WHERE id = ?").bind(row.id).first();
    expect(sent?.messages).toBe("[]");
    expect(sent?.status).toBe("reported");
  });

  it("keeps a rejected document in the chain; corrected and sent again, a new copy follows the head", async () => {
    const shopper = await newUser();
    // The cause: the seller's VAT number changed in the settings, not the one ZATCA certified.
    const seller = (await call(owner, "GET", "/admin/settings")).body.data.values.seller;
    expect(
      (await call(owner, "PUT", "/admin/settings/seller", { ...seller, vat_number: "399999999900003" })).status,
    ).toBe(200);
    const { number } = await paidOrder(shopper);
    await call(shopper, "GET", `/orders/${number}/invoice`);
    const rejected = (await chain()).at(-1)!;
    await submitEInvoice(env, rejected.id);
    const answered = (await call<EInvoiceOverview>(owner, "GET", "/admin/einvoicing?status=rejected")).body.data;
    const listed = answered.documents.find((d) => d.id === rejected.id)!;
    expect(listed.status).toBe("rejected");
    expect(listed.messages.map((m) => m.code)).toContain("certificate-permissions");
    // Corrected: the seller's VAT number back; sent again from the console.
    expect((await call(owner, "PUT", "/admin/settings/seller", seller)).status).toBe(200);
    const resent = await call<EInvoiceOverview>(owner, "POST", `/admin/einvoicing/documents/${rejected.id}/resend`);
    expect(resent.status).toBe(200);
    const rows = await chain();
    const copies = rows.filter((r) => r.document_id === rejected.document_id);
    expect(copies.map((r) => r.status)).toEqual(["superseded", "reported"]);
    expect(copies[1].pih).toBe(rows.find((r) => r.icv === copies[1].icv - 1)!.hash);
    // The rejected copy kept its place: the chain has no gap.
    expect(rows.map((r) => r.icv)).toEqual(rows.map((_, i) => i + 1));
    expect((await call(owner, "POST", `/admin/einvoicing/documents/${rejected.id}/resend`)).status).toBe(409);
    expect(await resendEInvoice(env, copies[1].id)).toBeNull();
  });
});

describe("the chain under load", () => {
  it("200 documents issued at once, refunds among them, leave no gap, fork or duplicate in ICV and PIH", async () => {
    const shopper = await newUser();
    const { number } = await paidOrder(shopper, { price: 5_000 });
    const source = (await env.DB.prepare("SELECT * FROM orders WHERE number = ?")
      .bind(number)
      .first<{ id: number }>())!;
    // 160 more paid orders like it (copies of its row and line), paid at once below.
    const ids: number[] = [];
    for (let i = 0; i < 160; i++) {
      const copy = await env.DB.prepare(
        `INSERT INTO orders (number, user_id, guest_id, email, phone, status, subtotal, discount, shipping, vat, total, currency,
           promo_code, address, shipping_method, payment_method, stock_reserved, reserved_until, idempotency_key, lang, vat_rate)
         SELECT ?, user_id, guest_id, email, phone, 'pending_payment', subtotal, discount, shipping, vat, total, currency,
           promo_code, address, shipping_method, payment_method, 0, reserved_until, ?, lang, vat_rate FROM orders WHERE id = ?
         RETURNING id`,
      )
        .bind(`SQ-LOAD${String(i).padStart(4, "0")}`, crypto.randomUUID(), source.id)
        .first<{ id: number }>();
      await env.DB.prepare(
        `INSERT INTO order_items (order_id, product_id, variant_id, sku, slug, name_en, name_ar, quantity, unit_price, line_total)
         SELECT ?, product_id, variant_id, sku, slug, name_en, name_ar, quantity, unit_price, line_total FROM order_items WHERE order_id = ?`,
      )
        .bind(copy!.id, source.id)
        .run();
      ids.push(copy!.id);
    }
    while ((await stampWaiting(env)).length);
    const before = (await chain()).length;
    // Paid at once: each payment's batch issues the invoice, then stamps, as the first read does;
    // forty refunds land among them.
    await Promise.all(
      ids.map(async (id, i) => {
        await env.DB.batch([
          env.DB.prepare("UPDATE orders SET status = 'paid', paid_at = ? WHERE id = ?").bind(
            new Date().toISOString(),
            id,
          ),
          ...invoiceStatements(env.DB, { id }),
        ]);
        if (i % 4 === 0) {
          const refund = `rfd_load_${i}_${crypto.randomUUID().slice(0, 8)}`;
          await env.DB.batch([
            env.DB.prepare(
              `INSERT INTO refunds (id, order_id, payment_id, amount, status)
               SELECT ?, ?, id, 1000, 'succeeded' FROM payments WHERE order_id = ? LIMIT 1`,
            ).bind(refund, id, source.id),
            ...creditNoteStatements(env.DB, { id, currency: "SAR" }, { id: refund, amount: 1000 }, 0.15).slice(1),
          ]);
        }
        await stampWaiting(env);
      }),
    );
    while ((await stampWaiting(env)).length);
    const rows = await chain();
    expect(rows.length - before).toBe(200);
    expect(rows.map((r) => r.icv)).toEqual(rows.map((_, i) => i + 1));
    expect(rows[0].pih).toBe(FIRST_PIH);
    for (let i = 1; i < rows.length; i++) expect(rows[i].pih).toBe(rows[i - 1].hash);
    expect(new Set(rows.map((r) => r.hash)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.document_id)).size).toBe(rows.filter((r) => r.status !== "superseded").length);
    // Each copy's ICV and PIH are the ones written in its XML, and its hash is its own.
    for (const r of rows.slice(before, before + 20)) {
      expect(text(r.xml, "UUID")).toBe(r.uuid);
      expect(r.xml).toContain(`<cbc:ID>ICV</cbc:ID><cbc:UUID>${r.icv}</cbc:UUID>`);
      expect(r.xml).toContain(`mimeCode="text/plain">${r.pih}<`);
      expect(invoiceHash(r.xml).base64).toBe(r.hash);
    }
  }, 120_000);
});
