import {
  REPORT_TOP_SHOWN,
  shopDayStart,
  type ConsoleReport,
  type ReportSalesRow,
  type VatDocumentTotals,
} from "../../../../contract/console-reports";
import type { Lang, StaffCaller } from "../../env";
import { BOM, csvLine } from "../shared/csv";
import { CUSTOMERS_FROM, CUSTOMERS_SELECT } from "./customers";
import { parseAddress, presentedStatus, type StoredOrderStatus } from "../orders/orders";
import { auditStatement } from "./audit-log";
import { cartRemindersReport } from "../cart-reminders/cart-reminders";

/**
 * The console's reports and exports (owners and managers: support sees no revenue and no
 * unmasked contact data, and both are the whole point of these). contract/console-reports.ts says
 * what each figure counts.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** A period of shop days as the UTC instants it runs between (timestamps are ISO text, compared as strings). */
export function periodBounds(period: { from: string; to: string }): { start: string; end: string } {
  return {
    start: shopDayStart(period.from).toISOString(),
    end: new Date(shopDayStart(period.to).getTime() + DAY_MS).toISOString(),
  };
}

const VAT_TOTALS = `COUNT(*) AS count, COALESCE(SUM(total - vat), 0) AS taxable, COALESCE(SUM(vat), 0) AS vat,
  COALESCE(SUM(total), 0) AS total`;

// The lines of the orders paid in the period (?1 to ?2), for the best sellers.
const paidLines = (joins = "") => `FROM order_items oi JOIN orders o ON o.id = oi.order_id ${joins}
  WHERE o.paid_at >= ?1 AND o.paid_at < ?2`;
const PRODUCT = "LEFT JOIN products p ON p.id = oi.product_id";

export async function salesReport(
  db: D1Database,
  period: { from: string; to: string },
  lang: Lang,
): Promise<ConsoleReport> {
  const { start, end } = periodBounds(period);
  const name = lang === "ar" ? "name_ar" : "name_en";
  const [sales, refunds, invoices, notes, debits, products, productCount, categories, categoryCount] = await db.batch([
    db
      .prepare(
        `SELECT COUNT(*) AS orders, COALESCE(SUM(subtotal), 0) AS gross, COALESCE(SUM(discount), 0) AS discounts,
           COALESCE(SUM(shipping), 0) AS shipping, COALESCE(SUM(total), 0) AS total
         FROM orders WHERE paid_at >= ?1 AND paid_at < ?2`,
      )
      .bind(start, end),
    db
      .prepare(
        `SELECT COUNT(*) AS count, COALESCE(SUM(amount), 0) AS amount FROM refunds
         WHERE status = 'succeeded' AND created_at >= ?1 AND created_at < ?2`,
      )
      .bind(start, end),
    db
      .prepare(`SELECT ${VAT_TOTALS} FROM tax_documents WHERE kind = 'invoice' AND issued_at >= ?1 AND issued_at < ?2`)
      .bind(start, end),
    db
      .prepare(
        `SELECT ${VAT_TOTALS} FROM tax_documents WHERE kind = 'credit_note' AND issued_at >= ?1 AND issued_at < ?2`,
      )
      .bind(start, end),
    db
      .prepare(
        `SELECT ${VAT_TOTALS} FROM tax_documents WHERE kind = 'debit_note' AND issued_at >= ?1 AND issued_at < ?2`,
      )
      .bind(start, end),
    // The name a product had when sold, unless it is still in the catalogue (its current name).
    db
      .prepare(
        `SELECT oi.product_id AS id, COALESCE(p.${name}, MAX(oi.${name})) AS name, SUM(oi.quantity) AS units,
           SUM(COALESCE(oi.net_total, oi.line_total)) AS net
         ${paidLines(PRODUCT)}
         GROUP BY oi.product_id ORDER BY net DESC, units DESC, oi.product_id LIMIT ?3`,
      )
      .bind(start, end, REPORT_TOP_SHOWN),
    db.prepare(`SELECT COUNT(DISTINCT oi.product_id) AS n ${paidLines()}`).bind(start, end),
    db
      .prepare(
        `SELECT c.id AS id, c.${name} AS name, SUM(oi.quantity) AS units, SUM(COALESCE(oi.net_total, oi.line_total)) AS net
         ${paidLines(`${PRODUCT} LEFT JOIN categories c ON c.id = p.category_id`)}
         GROUP BY c.id ORDER BY net DESC, units DESC, c.id LIMIT ?3`,
      )
      .bind(start, end, REPORT_TOP_SHOWN),
    db.prepare(`SELECT COUNT(DISTINCT p.category_id) AS n ${paidLines(PRODUCT)}`).bind(start, end),
  ]);
  const reminders = await cartRemindersReport(db, start, end);
  const first = <T>(r: D1Result) => r.results[0] as T;
  const s = first<ConsoleReport["sales"]>(sales);
  const r = first<ConsoleReport["refunds"]>(refunds);
  const inv = first<VatDocumentTotals>(invoices);
  const cn = first<VatDocumentTotals>(notes);
  const dn = first<VatDocumentTotals>(debits);
  return {
    from: period.from,
    to: period.to,
    starts_at: start,
    ends_at: end,
    time_zone: "Asia/Riyadh",
    currency: "SAR",
    cart_reminders: reminders,
    sales: s,
    refunds: r,
    net: s.total - r.amount,
    vat: {
      invoices: inv,
      credit_notes: cn,
      debit_notes: dn,
      taxable: inv.taxable - cn.taxable + dn.taxable,
      vat: inv.vat - cn.vat + dn.vat,
    },
    by_product: { count: first<{ n: number }>(productCount).n, rows: products.results as ReportSalesRow[] },
    by_category: { count: first<{ n: number }>(categoryCount).n, rows: categories.results as ReportSalesRow[] },
  };
}

/** How many rows an export reads from D1 at a time: its memory is one page, whatever the shop's size. */
export const EXPORT_PAGE = 200;

/** Money in a CSV cell as people read it: riyals with two decimals ("349.00"), not halalas. */
const riyals = (halalas: number) =>
  `${halalas < 0 ? "-" : ""}${Math.floor(Math.abs(halalas) / 100)}.${String(Math.abs(halalas) % 100).padStart(2, "0")}`;

/**
 * A CSV file as a stream: the header, then `page(after)` called for each next page of rows (keyed
 * on the last row's id, so a page costs the same at the end of the table as at its start) until
 * one comes back short. Nothing holds more than a page.
 */
function csvStream<Row extends { id: number }>(
  header: readonly string[],
  page: (after: number) => Promise<Row[]>,
  line: (row: Row) => unknown[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after = 0;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`${BOM}${csvLine([...header])}\r\n`));
      },
      async pull(controller) {
        if (done) return;
        const rows = await page(after);
        if (rows.length) {
          after = rows[rows.length - 1].id;
          controller.enqueue(encoder.encode(rows.map((r) => `${csvLine(line(r))}\r\n`).join("")));
        }
        if (rows.length < EXPORT_PAGE) {
          done = true;
          controller.close();
        }
      },
    },
    { highWaterMark: 1 },
  );
}

export const ORDER_CSV_COLUMNS = [
  "number",
  "placed_at",
  "paid_at",
  "status",
  "customer_name",
  "email",
  "phone",
  "city",
  "subtotal_sar",
  "discount_sar",
  "shipping_sar",
  "vat_sar",
  "total_sar",
  "refunded_sar",
  "currency",
  "promo_code",
  "payment_method",
  "shipping_method",
  "invoice_number",
] as const;

interface OrderExportRow {
  id: number;
  number: string;
  created_at: string;
  paid_at: string | null;
  status: StoredOrderStatus;
  email: string;
  phone: string | null;
  address: string;
  subtotal: number;
  discount: number;
  shipping: number;
  vat: number;
  total: number;
  refunded: number;
  currency: string;
  promo_code: string | null;
  payment_method: string;
  shipping_method: string;
  invoice_number: string | null;
}

/** The orders placed in the period, every status, oldest first. */
export function ordersCsv(db: D1Database, period: { from: string; to: string }): ReadableStream<Uint8Array> {
  const { start, end } = periodBounds(period);
  const statement = db.prepare(
    `SELECT o.id, o.number, o.created_at, o.paid_at, o.status, o.email, o.phone, o.address, o.subtotal, o.discount,
       o.shipping, o.vat, o.total, o.refunded, o.currency, o.promo_code, o.payment_method, o.shipping_method,
       (SELECT d.number FROM tax_documents d WHERE d.order_id = o.id AND d.kind = 'invoice') AS invoice_number
     FROM orders o WHERE o.created_at >= ?1 AND o.created_at < ?2 AND o.id > ?3 ORDER BY o.id LIMIT ?4`,
  );
  return csvStream(
    ORDER_CSV_COLUMNS,
    async (after) => (await statement.bind(start, end, after, EXPORT_PAGE).all<OrderExportRow>()).results,
    (o) => {
      const address = parseAddress(o.address);
      return [
        o.number,
        o.created_at,
        o.paid_at,
        presentedStatus({ status: o.status, refunded: o.refunded, total: o.total }),
        address.name,
        o.email,
        o.phone ?? address.phone,
        address.city,
        riyals(o.subtotal),
        riyals(o.discount),
        riyals(o.shipping),
        riyals(o.vat),
        riyals(o.total),
        riyals(o.refunded),
        o.currency,
        o.promo_code,
        o.payment_method,
        o.shipping_method,
        o.invoice_number,
      ];
    },
  );
}

export const CUSTOMER_CSV_COLUMNS = [
  "id",
  "name",
  "email",
  "phone",
  "verified",
  "registered_at",
  "orders",
  "spent_sar",
  "last_order_at",
] as const;

interface CustomerExportRow {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  verified_at: string | null;
  created_at: string;
  orders_count: number;
  total_spent: number;
  last_order_at: string | null;
}

/** Every customer account, as the customers page lists them (spent: paid-or-later orders less refunds). */
export function customersCsv(db: D1Database): ReadableStream<Uint8Array> {
  const statement = db.prepare(
    // Accounts, keyed by their id a page at a time; guests (listed on the customers page) have no account id.
    `SELECT ${CUSTOMERS_SELECT} ${CUSTOMERS_FROM} WHERE c.user_id IS NOT NULL AND c.user_id > ?1 ORDER BY c.user_id LIMIT ?2`,
  );
  return csvStream(
    CUSTOMER_CSV_COLUMNS,
    async (after) => (await statement.bind(after, EXPORT_PAGE).all<CustomerExportRow>()).results,
    (u) => [
      u.id,
      u.name,
      u.email,
      u.phone,
      u.verified_at ? 1 : 0,
      u.created_at,
      u.orders_count,
      riyals(u.total_spent),
      u.last_order_at,
    ],
  );
}

/** The audit line of an export: who took which file, of which period. */
export async function auditExport(
  db: D1Database,
  staff: Pick<StaffCaller, "user_id" | "email">,
  what: "orders" | "customers",
  period: { from: string; to: string } | null,
): Promise<void> {
  await auditStatement(db, staff, `report.export_${what}`, "report", null, null, period ?? {}).run();
}
