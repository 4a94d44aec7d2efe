import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The e-invoicing migration on a database made and used under the schema before it: the tax
 * documents' table is rebuilt to take debit notes and the transaction's kind, and every invoice and
 * credit note already issued keeps its id, number, amounts, seller and time; orders gain the
 * business buyer's columns empty.
 */

// A second, empty database of this file's own (the main one already has every migration).
const db = () => env.REPLICA_DB;
const OLD = (name: string) => name < "0048";

let before: Record<string, unknown>[];

beforeAll(async () => {
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => OLD(m.name)),
  );
  const order = (await db()
    .prepare(
      `INSERT INTO orders (number, email, subtotal, vat, total, address, shipping_method, payment_method, idempotency_key, status, paid_at)
       VALUES ('SQ-OLDINV01', 'old@example.com', 20000, 3000, 23000, '{"name":"Old","phone":"+966512345678","city":"Riyadh","district":"Olaya","street":"King Fahd"}', 'standard', 'card', 'old-key', 'paid', '2026-01-01T10:00:00.000Z')
       RETURNING id`,
    )
    .first<{ id: number }>())!.id;
  const payment = "pay_old_1";
  await db().batch([
    db()
      .prepare(
        "INSERT INTO payments (id, order_id, provider, amount, status, return_url) VALUES (?, ?, 'sandbox', 23000, 'paid', '/en/payment-status')",
      )
      .bind(payment, order),
    db()
      .prepare(
        "INSERT INTO refunds (id, order_id, payment_id, amount, status) VALUES ('rfd_old_1', ?, ?, 5750, 'succeeded')",
      )
      .bind(order, payment),
    db()
      .prepare(
        `INSERT INTO tax_documents (kind, seq, number, order_id, subtotal, discount, shipping, vat, total, currency, issued_at, seller)
         VALUES ('invoice', 7, 'INV-000007', ?, 20000, 0, 0, 3000, 23000, 'SAR', '2026-01-01T10:00:01.000Z', '{"name_en":"Old Seller"}')`,
      )
      .bind(order),
    db()
      .prepare(
        `INSERT INTO tax_documents (kind, seq, number, order_id, refund_id, vat, total, currency, issued_at)
         VALUES ('credit_note', 3, 'CN-000003', ?, 'rfd_old_1', 750, 5750, 'SAR', '2026-01-02T10:00:00.000Z')`,
      )
      .bind(order),
  ]);
  before = (await db().prepare("SELECT * FROM tax_documents ORDER BY id").all()).results;
  await applyD1Migrations(
    db(),
    env.TEST_MIGRATIONS.filter((m) => !OLD(m.name)),
  );
});

describe("the e-invoicing migration", () => {
  it("keeps every tax document as it was issued, ids and numbers included, as simplified ones", async () => {
    const after = (await db().prepare("SELECT * FROM tax_documents ORDER BY id").all()).results;
    expect(before).toHaveLength(2);
    expect(after).toEqual(before.map((row) => ({ ...row, transaction_type: "simplified", reason: null })));
  });

  it("still holds one invoice per order and a credit note to its refund, and takes a debit note with a reason only", async () => {
    const order = (await db().prepare("SELECT id FROM orders WHERE number = 'SQ-OLDINV01'").first<{ id: number }>())!
      .id;
    await expect(
      db()
        .prepare(
          "INSERT INTO tax_documents (kind, seq, number, order_id, vat, total, currency) VALUES ('invoice', 8, 'INV-000008', ?, 0, 0, 'SAR')",
        )
        .bind(order)
        .run(),
    ).rejects.toThrow(/UNIQUE/);
    await expect(
      db()
        .prepare(
          "INSERT INTO tax_documents (kind, seq, number, order_id, vat, total, currency) VALUES ('debit_note', 1, 'DN-000001', ?, 30, 230, 'SAR')",
        )
        .bind(order)
        .run(),
    ).rejects.toThrow(/CHECK/);
    await db()
      .prepare(
        "INSERT INTO tax_documents (kind, seq, number, order_id, vat, total, currency, reason) VALUES ('debit_note', 1, 'DN-000001', ?, 30, 230, 'SAR', 'Redelivery')",
      )
      .bind(order)
      .run();
    const orderRow = await db()
      .prepare("SELECT buyer_company, buyer_vat_number FROM orders WHERE id = ?")
      .bind(order)
      .first();
    expect(orderRow).toEqual({ buyer_company: null, buyer_vat_number: null });
    expect((await db().prepare("SELECT COUNT(*) AS n FROM einvoices").first<{ n: number }>())!.n).toBe(0);
  });
});
