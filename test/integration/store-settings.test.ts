import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import type { ConsoleSettings } from "../../contract/settings";
import { ensureDocuments, presentTaxDocument } from "../../worker/backend/services/orders/invoices";
import type { OrderRow } from "../../worker/backend/services/orders/orders";
import { call, checkoutWith, createProduct, newGuest, newUser } from "../support/commerce";
import { newStaff } from "../support/console";
import { paidOrder } from "../support/orders";

/**
 * The store's settings (services/shared/settings.ts): owners only, checked per field, audited, and read
 * by checkout, tax documents, returns and order messages on the next request.
 */

const shipping = { standard: 1900, express: 4500, free_threshold: 50000 };

afterEach(async () => {
  await env.DB.prepare("DELETE FROM store_settings").run();
});

const orderRow = async (number: string) =>
  (await env.DB.prepare("SELECT * FROM orders WHERE number = ?").bind(number).first<OrderRow>())!;

const eventually = <T>(fn: () => Promise<T>) => expect.poll(fn, { timeout: 10_000, interval: 100 });

describe("store settings", () => {
  it("only owners read or change them: managers and support are refused, strangers see nothing", async () => {
    const [owner, manager, support, shopper] = await Promise.all([
      newStaff("owner"),
      newStaff("manager"),
      newStaff("support"),
      newUser(),
    ]);
    expect((await call(owner, "GET", "/admin/settings")).status).toBe(200);
    for (const who of [manager, support]) {
      expect((await call(who, "GET", "/admin/settings")).status).toBe(403);
      expect((await call(who, "PUT", "/admin/settings/shipping", shipping)).status).toBe(403);
    }
    expect((await call(shopper, "PUT", "/admin/settings/shipping", shipping)).status).toBe(404);
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM store_settings").first<number>("n")).toBe(0);
  });

  it("start from the deployment's variables, and a refused field is named in the reader's language with nothing saved", async () => {
    const owner = await newStaff("owner", "ar");
    const read = await call<ConsoleSettings>(owner, "GET", "/admin/settings");
    expect(read.body.data.values.shipping).toEqual({ standard: 2500, express: 5000, free_threshold: 30000, zones: [] });
    expect(read.body.data.values.seller).toMatchObject({
      name_en: env.SELLER_NAME_EN,
      vat_number: env.SELLER_VAT_NUMBER,
    });
    expect(read.body.data.values.returns.window_days).toBe(14);

    const bad = await call(owner, "PUT", "/admin/settings/shipping", {
      standard: -1,
      express: "5",
      free_threshold: 1.5,
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors!).sort()).toEqual(["express", "free_threshold", "standard"]);
    expect(bad.body.errors!.standard![0]).toMatch(/[\u0600-\u06FF]/);

    const seller = await call(owner, "PUT", "/admin/settings/seller", {
      name_en: "",
      name_ar: "متجر",
      vat_number: "123",
      address_en: "",
      address_ar: "",
    });
    expect(seller.status).toBe(422);
    expect(Object.keys(seller.body.errors!).sort()).toEqual(["name_en", "vat_number"]);

    // Only a path on this site: the page's CSP loads no image from another host.
    for (const logo_url of ["javascript:alert(1)", "https://cdn.example.com/logo.png", "//cdn.example.com/logo.png"]) {
      const logo = await call(owner, "PUT", "/admin/settings/store", { name_en: "Shop", name_ar: "متجر", logo_url });
      expect(logo.status, logo_url).toBe(422);
      expect(Object.keys(logo.body.errors!)).toEqual(["logo_url"]);
    }
    expect(await env.DB.prepare("SELECT COUNT(*) AS n FROM store_settings").first<number>("n")).toBe(0);
  });

  it("a save is audited with what it was and what it became", async () => {
    const owner = await newStaff("owner");
    const saved = await call<ConsoleSettings>(owner, "PUT", "/admin/settings/shipping", shipping);
    expect(saved.status).toBe(200);
    expect(saved.body.data.values.shipping).toEqual({ ...shipping, zones: [] });
    expect(saved.body.data.saved.shipping?.by).toBe(owner.email);
    const audit = await env.DB.prepare(
      "SELECT staff_email, action, entity, entity_id, before_json, after_json FROM audit_log WHERE entity = 'settings' ORDER BY id DESC",
    ).first<Record<string, string>>();
    expect(audit).toMatchObject({
      staff_email: owner.email,
      action: "settings.update",
      entity_id: "shipping",
    });
    expect(JSON.parse(audit!.before_json!)).toEqual({
      standard: 2500,
      express: 5000,
      free_threshold: 30000,
      zones: [],
    });
    expect(JSON.parse(audit!.after_json!)).toEqual({ ...shipping, zones: [] });
  });

  it("checkout charges the new shipping rate on the very next request, without a restart", async () => {
    const owner = await newStaff("owner");
    const shopper = await newGuest();
    const product = await createProduct({ stock: 5, price: 10000 });
    await call(shopper, "POST", "/cart/add-product", { product_id: product.id, quantity: 1 });
    const before = await call(shopper, "GET", "/checkout/options");
    expect(before.body.data.totals.shipping).toBe(2500);

    expect((await call(owner, "PUT", "/admin/settings/shipping", shipping)).status).toBe(200);
    const after = await call(shopper, "GET", "/checkout/options?shipping_method=express");
    expect(after.body.data.shipping_methods.map((m: { price: number }) => m.price)).toEqual([1900, 4500]);
    expect(after.body.data.free_shipping_threshold).toBe(50000);
    expect(after.body.data.totals.shipping).toBe(4500);

    const placed = await checkoutWith(await newGuest(), product.id);
    expect(placed.status).toBe(201);
    expect(
      await env.DB.prepare("SELECT shipping FROM orders WHERE number = ?")
        .bind(placed.body.data.number)
        .first("shipping"),
    ).toBe(1900);
  });

  it("a new VAT rate applies to new orders only: a past invoice and its seller stay as issued", async () => {
    const owner = await newStaff("owner");
    const shopper = await newUser();
    const past = await paidOrder(shopper, { price: 11500 });
    const pastOrder = await orderRow(past.number);
    const invoice = (await ensureDocuments(env, pastOrder)).find((d) => d.kind === "invoice")!;
    const issued = await presentTaxDocument(env, pastOrder, invoice, "en");
    expect(issued.vat_rate).toBe(0.15);

    expect((await call(owner, "PUT", "/admin/settings/tax", { vat_rate: 0.05 })).status).toBe(200);
    const seller = {
      name_en: "New Seller Co",
      name_ar: "شركة البائع الجديد",
      vat_number: "310122393500003",
      address_en: "Jeddah",
      address_ar: "جدة",
    };
    expect((await call(owner, "PUT", "/admin/settings/seller", seller)).status).toBe(200);

    // The past invoice reads exactly as it was issued: its rate, its VAT, its seller, its QR.
    const pastNow = await orderRow(past.number);
    const invoiceNow = (await ensureDocuments(env, pastNow)).find((d) => d.kind === "invoice")!;
    expect(invoiceNow.id).toBe(invoice.id);
    expect(await presentTaxDocument(env, pastNow, invoiceNow, "en")).toEqual(issued);

    // A new order is charged and invoiced at the new rate, under the new seller.
    const fresh = await paidOrder(shopper, { price: 10500 });
    const freshOrder = await orderRow(fresh.number);
    expect(freshOrder.vat_rate).toBe(0.05);
    expect(freshOrder.vat).toBe(Math.round((freshOrder.total * 0.05) / 1.05));
    const freshInvoice = (await ensureDocuments(env, freshOrder)).find((d) => d.kind === "invoice")!;
    const presented = await presentTaxDocument(env, freshOrder, freshInvoice, "en");
    expect(presented.seller).toMatchObject({ name_en: seller.name_en, vat_number: seller.vat_number });
    expect(presented.vat_rate).toBe(0.05);
  });

  it("the return window is the saved one: 0 closes returns on an order delivered today", async () => {
    const [owner, manager, shopper] = await Promise.all([newStaff("owner"), newStaff("manager"), newUser()]);
    const order = await paidOrder(shopper);
    expect((await call(manager, "POST", `/admin/orders/${order.number}/process`)).status).toBe(200);
    const ship = { carrier: "SMSA", tracking_number: "SM123456" };
    expect((await call(manager, "POST", `/admin/orders/${order.number}/ship`, ship)).status).toBe(200);
    expect((await call(manager, "POST", `/admin/orders/${order.number}/deliver`)).status).toBe(200);
    expect((await call(shopper, "GET", `/orders/${order.number}`)).body.data.self_service.can_return).toBe(true);

    expect((await call(owner, "PUT", "/admin/settings/returns", { window_days: 0 })).status).toBe(200);
    expect((await call(shopper, "GET", `/orders/${order.number}`)).body.data.self_service.can_return).toBe(false);
    const refused = await call(shopper, "POST", `/orders/${order.number}/returns`, {
      items: [{ product_id: order.product.id, quantity: 1, reason: "changed_mind" }],
    });
    expect(refused.status).toBe(409);
  });

  it("the owner's wording of a message is sent, its links still the shop's own; a wording with an address or without its link is refused", async () => {
    const owner = await newStaff("owner");
    const path = "/admin/settings/messages";
    const withUrl = await call(owner, "PUT", path, {
      paid: { en: { subject: "Paid {{number}}", text: "Pay again at https://evil.example/x {{invoiceUrl}}" } },
    });
    expect(withUrl.status).toBe(422);
    expect(Object.keys(withUrl.body.errors!)).toEqual(["paid.en.text"]);
    const withoutLink = await call(owner, "PUT", path, {
      paid: { en: { subject: "Paid {{number}}", text: "Thanks for {{number}}." } },
    });
    expect(withoutLink.status).toBe(422);
    expect(withoutLink.body.errors!["paid.en.text"]![0]).toContain("{{invoiceUrl}}");
    const unknown = await call(owner, "PUT", path, {
      paid: { en: { subject: "Paid {{secret}}", text: "Thanks. {{invoiceUrl}}" } },
    });
    expect(Object.keys(unknown.body.errors!)).toEqual(["paid.en.subject"]);

    const ok = await call(owner, "PUT", path, {
      paid: { en: { subject: "Money in for {{number}}", text: "Thanks, {{total}} arrived. Invoice: {{invoiceUrl}}" } },
    });
    expect(ok.status).toBe(200);
    expect(
      (
        await call(owner, "PUT", "/admin/settings/store", {
          name_en: "Gadget House",
          name_ar: "بيت الأجهزة",
          logo_url: "",
        })
      ).status,
    ).toBe(200);

    const shopper = await newGuest("en");
    const order = await paidOrder(shopper);
    const paidMail = () =>
      env.DB.prepare("SELECT subject, body, html FROM dev_outbox WHERE recipient = ? AND purpose = 'order.paid'")
        .bind(shopper.email)
        .first<{ subject: string; body: string; html: string }>();
    await eventually(paidMail).toBeTruthy();
    const mail = (await paidMail())!;
    expect(mail.subject).toBe(`Money in for ${order.number}`);
    expect(mail.body).toContain(`/en/order/${order.number}/invoice`);
    expect(mail.body).toContain("Gadget House");
    // The shop's own link (a guest's carries its signed access in the fragment).
    expect(mail.html).toMatch(new RegExp(`href="http://shop\\.test/en/order/${order.number}/invoice(#access=[^"]+)?"`));
  }, 30_000);

  it("migration 0033 keeps every tax document of a database made under the old schema, which then read the seller in force", async () => {
    const db = env.REPLICA_DB;
    const old = env.TEST_MIGRATIONS.filter((m) => m.name < "0033");
    const added = env.TEST_MIGRATIONS.filter((m) => m.name.startsWith("0033_"));
    expect(added).toHaveLength(1);
    await applyD1Migrations(db, old);
    await db.batch([
      db.prepare(
        `INSERT INTO orders (id, number, email, status, subtotal, shipping, vat, total, address, shipping_method, payment_method, idempotency_key, paid_at)
         VALUES (1, 'SQ-OLD-1', 'old@example.com', 'paid', 10000, 0, 1304, 10000, '{}', 'standard', 'card', 'k-old-1', '2026-01-01T00:00:00Z')`,
      ),
      db.prepare(
        "INSERT INTO tax_documents (kind, seq, number, order_id, subtotal, vat, total, currency) VALUES ('invoice', 1, 'INV-000001', 1, 10000, 1304, 10000, 'SAR')",
      ),
    ]);
    const before = (await db.prepare("SELECT * FROM tax_documents").all()).results;
    await applyD1Migrations(db, [...old, ...added]);
    const after = (await db.prepare("SELECT * FROM tax_documents").all()).results;
    expect(after).toEqual(before.map((d) => ({ ...d, seller: null })));
    expect(await db.prepare("SELECT COUNT(*) AS n FROM store_settings").first<number>("n")).toBe(0);
  });
});
