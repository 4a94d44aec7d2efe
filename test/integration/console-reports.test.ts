import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { presetDays, type ConsoleReport } from "../../contract/console-reports";
import { parseCsv } from "../../worker/backend/services/shared/csv";
import { EXPORT_PAGE, ORDER_CSV_COLUMNS, ordersCsv } from "../../worker/backend/services/console/reports";
import { refundOrder } from "../../worker/backend/services/orders/fulfilment";
import type { OrderRow } from "../../worker/backend/services/orders/orders";
import { call, newUser } from "../support/commerce";
import { newStaff } from "../support/console";
import { paidOrder } from "../support/orders";

const orderRow = async (number: string) =>
  (await env.DB.prepare("SELECT * FROM orders WHERE number = ?").bind(number).first<OrderRow>())!;

/** A paid order (so invoiced), its payment and invoice moved to `paidAt`. */
async function invoicedAt(paidAt: string, price: number): Promise<OrderRow> {
  const { number } = await paidOrder(await newUser(), { price });
  const order = await orderRow(number);
  await env.DB.batch([
    env.DB.prepare("UPDATE orders SET paid_at = ?, created_at = ? WHERE id = ?").bind(paidAt, paidAt, order.id),
    env.DB.prepare("UPDATE tax_documents SET issued_at = ? WHERE order_id = ? AND kind = 'invoice'").bind(
      paidAt,
      order.id,
    ),
  ]);
  return orderRow(number);
}

/** A refund of `amount` on the order, it and its credit note moved to `at`. */
async function refundedAt(order: OrderRow, amount: number, at: string): Promise<void> {
  const outcome = await refundOrder(env, await orderRow(order.number), amount, { kind: "system" }, { lang: "en" });
  expect(outcome.succeeded).toBe(true);
  const refund = (await env.DB.prepare(
    "SELECT id FROM refunds WHERE order_id = ? AND status = 'succeeded' ORDER BY created_at DESC, rowid DESC",
  )
    .bind(order.id)
    .first<{ id: string }>())!;
  await env.DB.batch([
    env.DB.prepare("UPDATE refunds SET created_at = ? WHERE id = ?").bind(at, refund.id),
    env.DB.prepare("UPDATE tax_documents SET issued_at = ? WHERE refund_id = ?").bind(at, refund.id),
  ]);
}

// The shop's day of an instant, worked out by Intl rather than by the report's own arithmetic.
const riyadhDay = (iso: string) =>
  new Intl.DateTimeFormat("en-CA", {
    timeZone: "Asia/Riyadh",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date(iso));

/** The VAT return's figures summed straight from the document rows whose Riyadh day is in the period. */
async function vatFromDocuments(from: string, to: string) {
  const { results } = await env.DB.prepare("SELECT kind, vat, total, issued_at FROM tax_documents").all<{
    kind: string;
    vat: number;
    total: number;
    issued_at: string;
  }>();
  const sum = { taxable: 0, vat: 0, invoices: 0, notes: 0 };
  for (const d of results) {
    const day = riyadhDay(d.issued_at);
    if (day < from || day > to) continue;
    const sign = d.kind === "invoice" ? 1 : -1;
    sum.taxable += sign * (d.total - d.vat);
    sum.vat += sign * d.vat;
    if (sign > 0) sum.invoices++;
    else sum.notes++;
  }
  return sum;
}

const report = async (who: Parameters<typeof call>[0], from: string, to: string) =>
  call<ConsoleReport>(who, "GET", `/admin/reports?from=${from}&to=${to}`);

describe("the console's reports", () => {
  it("the VAT report's totals equal the sum of the period's invoices minus its credit notes", async () => {
    const manager = await newStaff("manager");
    // April, May and June 2019 in Riyadh: nothing else in the suite is dated then.
    const earlier = await invoicedAt("2019-04-15T09:00:00.000Z", 23000);
    const may = await invoicedAt("2019-05-10T09:00:00.000Z", 11500);
    // 23:59:59.999 on 31 May in Riyadh: still May.
    const lastMoment = await invoicedAt("2019-05-31T20:59:59.999Z", 34500);
    // 00:00 on 1 June in Riyadh, though UTC still says 31 May: June's.
    const june = await invoicedAt("2019-05-31T21:00:00.000Z", 5750);
    // 00:30 on 1 May in Riyadh, though UTC still says 30 April: May's.
    const firstMoment = await invoicedAt("2019-04-30T21:30:00.000Z", 46000);

    await refundedAt(may, 2300, "2019-05-20T10:00:00.000Z");
    // A credit note in May for an invoice of April, and one in June for an invoice of May.
    await refundedAt(earlier, 5750, "2019-05-05T10:00:00.000Z");
    await refundedAt(firstMoment, 11500, "2019-06-02T10:00:00.000Z");

    const answer = await report(manager, "2019-05-01", "2019-05-31");
    expect(answer.status).toBe(200);
    const r = answer.body.data;
    const expected = await vatFromDocuments("2019-05-01", "2019-05-31");
    expect({ taxable: r.vat.taxable, vat: r.vat.vat }).toEqual({ taxable: expected.taxable, vat: expected.vat });
    expect(r.vat.invoices.count).toBe(3);
    expect(r.vat.credit_notes.count).toBe(2);
    expect(expected).toMatchObject({ invoices: 3, notes: 2 });
    // Invoices: the three orders' totals; credit notes 23 + 57.50 SAR.
    expect(r.vat.invoices.total).toBe(may.total + lastMoment.total + firstMoment.total);
    expect(r.vat.credit_notes.total).toBe(2300 + 5750);
    expect(r.vat.taxable).toBe(r.vat.invoices.taxable - r.vat.credit_notes.taxable);
    expect(r.starts_at).toBe("2019-04-30T21:00:00.000Z");
    expect(r.ends_at).toBe("2019-05-31T21:00:00.000Z");

    // Sales count the orders paid in May; refunds the refunds made in May, whichever month sold them.
    expect(r.sales.orders).toBe(3);
    expect(r.sales.total).toBe(may.total + lastMoment.total + firstMoment.total);
    expect(r.sales.gross - r.sales.discounts + r.sales.shipping).toBe(r.sales.total);
    expect(r.refunds).toEqual({ count: 2, amount: 2300 + 5750 });
    expect(r.net).toBe(r.sales.total - 2300 - 5750);
    expect(r.by_product.count).toBe(3);
    expect(r.by_product.rows.map((p) => p.net)).toEqual([46000, 34500, 11500]);
    expect(r.by_category.rows.reduce((n, c) => n + c.units, 0)).toBe(3);

    const juneReport = (await report(manager, "2019-06-01", "2019-06-30")).body.data;
    const juneExpected = await vatFromDocuments("2019-06-01", "2019-06-30");
    expect({ taxable: juneReport.vat.taxable, vat: juneReport.vat.vat }).toEqual({
      taxable: juneExpected.taxable,
      vat: juneExpected.vat,
    });
    expect(juneReport.vat.invoices.total).toBe(june.total);
    expect(juneReport.vat.credit_notes.total).toBe(11500);

    // The quarter is the three months together.
    const quarter = (await report(manager, "2019-04-01", "2019-06-30")).body.data;
    const quarterExpected = await vatFromDocuments("2019-04-01", "2019-06-30");
    expect(quarter.vat.vat).toBe(quarterExpected.vat);
    expect(quarter.vat.invoices.count).toBe(5);
  }, 60_000);

  it("the presets are the shop's month, last month and quarter, turning at Riyadh's midnight", () => {
    // 21:30 UTC on 31 March is 00:30 on 1 April in Riyadh.
    const now = new Date("2026-03-31T21:30:00Z");
    expect(presetDays("this_month", now)).toEqual({ from: "2026-04-01", to: "2026-04-01" });
    expect(presetDays("last_month", now)).toEqual({ from: "2026-03-01", to: "2026-03-31" });
    expect(presetDays("this_quarter", now)).toEqual({ from: "2026-04-01", to: "2026-04-01" });
    expect(presetDays("this_quarter", new Date("2026-03-15T12:00:00Z"))).toEqual({
      from: "2026-01-01",
      to: "2026-03-15",
    });
    expect(presetDays("last_month", new Date("2026-01-10T12:00:00Z"))).toEqual({
      from: "2025-12-01",
      to: "2025-12-31",
    });
  });

  it("a period that is not whole days, runs backwards or is longer than a year is refused with field errors", async () => {
    const owner = await newStaff("owner", "ar");
    for (const [query, field] of [
      ["from=2026-02-30&to=2026-03-01", "from"],
      ["from=2026-03-02&to=2026-03-01", "to"],
      ["from=2024-01-01&to=2025-12-31", "to"],
      ["to=2026-03-01", "from"],
    ] as const) {
      const answer = await call(owner, "GET", `/admin/reports?${query}`);
      expect(answer.status, query).toBe(422);
      expect(Object.keys(answer.body.errors ?? {}), query).toContain(field);
    }
    const bad = await call(owner, "GET", "/admin/reports/orders.csv?from=x&to=y");
    expect(bad.status).toBe(422);
  });

  it("owners and managers read reports and export; support, who sees no revenue, gets 403", async () => {
    const [owner, manager, support] = await Promise.all([newStaff("owner"), newStaff("manager"), newStaff("support")]);
    const q = "from=2019-01-01&to=2019-01-31";
    for (const path of [`/admin/reports?${q}`, `/admin/reports/orders.csv?${q}`, "/admin/reports/customers.csv"]) {
      expect((await call(support, "GET", path)).status, path).toBe(403);
      expect((await call(manager, "GET", path)).status, path).toBe(200);
      expect((await call(owner, "GET", path)).status, path).toBe(200);
    }
    // Every export is in the audit log, with its period; support's refused ones are not.
    const { results } = await env.DB.prepare(
      "SELECT staff_email, action, after_json FROM audit_log WHERE entity = 'report' AND staff_email IN (?, ?, ?) ORDER BY id",
    )
      .bind(owner.email, manager.email, support.email)
      .all<{ staff_email: string; action: string; after_json: string }>();
    expect(results.map((r) => [r.staff_email, r.action])).toEqual([
      [manager.email, "report.export_orders"],
      [owner.email, "report.export_orders"],
      [manager.email, "report.export_customers"],
      [owner.email, "report.export_customers"],
    ]);
    expect(JSON.parse(results[0].after_json)).toEqual({ from: "2019-01-01", to: "2019-01-31" });
  });

  it("the orders export is a stream read a page at a time, and parses back with formula cells quoted", async () => {
    const owner = await newStaff("owner");
    const { number } = await paidOrder(await newUser(), { price: 11500 });
    const source = await orderRow(number);
    const many = EXPORT_PAGE * 2 + 37;
    // Copies of one real order, placed across March 2018 in Riyadh (the first at its first moment).
    const hostile = '=HYPERLINK("https://evil.example"),"x"';
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
       INSERT INTO orders (number, user_id, email, phone, status, subtotal, discount, shipping, vat, total, currency,
         promo_code, address, shipping_method, payment_method, stock_reserved, idempotency_key, paid_at, created_at)
       SELECT 'SQ-RPT' || printf('%05d', i), o.user_id, o.email, o.phone, o.status, o.subtotal, o.discount, o.shipping,
         o.vat, o.total, o.currency, CASE WHEN i = 2 THEN ?3 ELSE o.promo_code END, o.address, o.shipping_method,
         o.payment_method, 0, 'report-' || i, o.paid_at,
         strftime('%Y-%m-%dT%H:%M:%fZ', '2018-02-28T21:00:00', '+' || ((i - 1) * 5) || ' minutes')
       FROM orders o, n WHERE o.id = ?1`,
    )
      .bind(source.id, many, hostile)
      .run();

    const stream = ordersCsv(env.DB, { from: "2018-03-01", to: "2018-03-31" });
    expect(stream).toBeInstanceOf(ReadableStream);
    const reader = stream.getReader();
    const chunks: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    // The header, then one chunk per page of rows.
    expect(chunks.length).toBe(1 + Math.ceil(many / EXPORT_PAGE));
    // ignoreBOM keeps the byte order mark in the text, to see it is there.
    const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
    const text = chunks.map((c) => decoder.decode(c, { stream: true })).join("") + decoder.decode();
    expect(text.startsWith("\uFEFF")).toBe(true);
    const records = parseCsv(text);
    expect(records[0]).toEqual([...ORDER_CSV_COLUMNS]);
    expect(records.length).toBe(1 + many);
    const col = (name: (typeof ORDER_CSV_COLUMNS)[number]) => ORDER_CSV_COLUMNS.indexOf(name);
    expect(records[1][col("number")]).toBe("SQ-RPT00001");
    expect(records[1][col("placed_at")]).toBe("2018-02-28T21:00:00.000Z");
    expect(records[1][col("total_sar")]).toBe((source.total / 100).toFixed(2));
    // A cell a spreadsheet would run is written behind a quote mark, and the CSV still parses.
    expect(records[2][col("promo_code")]).toBe(`'${hostile}`);
    expect(new Set(records.slice(1).map((r) => r[col("number")])).size).toBe(many);

    // Through the API: the same file, as an attachment.
    const res = await call(owner, "GET", "/admin/reports/orders.csv?from=2018-03-01&to=2018-03-31");
    expect(res.status).toBe(200);
    expect(parseCsv(res.body.data as string).length).toBe(1 + many);
  }, 30_000);

  it("the customers export lists every account with its contact data, one line each", async () => {
    const owner = await newStaff("owner");
    const customer = await newUser();
    const res = await call(owner, "GET", "/admin/reports/customers.csv");
    const records = parseCsv(res.body.data as string);
    expect(records[0]).toEqual([
      "id",
      "name",
      "email",
      "phone",
      "verified",
      "registered_at",
      "orders",
      "spent_sar",
      "last_order_at",
    ]);
    const line = records.find((r) => r[0] === String(customer.userId));
    expect(line?.[2]).toBe(customer.email);
    const ids = records.slice(1).map((r) => r[0]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
