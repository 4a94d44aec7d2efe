import * as v from "valibot";
import type { CartRemindersReport } from "./cart-reminders";

/**
 * The console's reports (GET /admin/reports, owners and managers): sales, refunds and VAT over a
 * period of the shop's days (Asia/Riyadh, UTC+3 all year, no daylight saving), and the CSV exports
 * of orders and customers. Days are `YYYY-MM-DD`, both ends included.
 *
 * - Sales are the orders paid in the period (paid_at), whatever happened to them since: their
 *   refunds count on the day they were made, as the credit notes do.
 * - VAT is read from the tax documents only, never recomputed: the invoices issued in the period
 *   less the credit notes issued in it, which is what a Saudi VAT return declares.
 */

export const REPORT_PRESETS = ["this_month", "last_month", "this_quarter", "custom"] as const;
export type ReportPreset = (typeof REPORT_PRESETS)[number];

/** The longest period a report or an export covers: a year and a day (a leap year). */
export const REPORT_MAX_DAYS = 366;
/** How many products and categories a report lists, best selling first. */
export const REPORT_TOP_SHOWN = 20;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 60 * 60 * 1000;
const SHOP_OFFSET_MS = 3 * 60 * 60 * 1000;

/** Whether `text` is a real calendar day written YYYY-MM-DD (not the 30th of February). */
export function isDay(text: string): boolean {
  if (!DAY.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** Days from `from` to `to`, both counted (1 for a single day). */
export const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;

/** The UTC instant the shop's day `day` starts (its midnight in Riyadh). */
export const shopDayStart = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - SHOP_OFFSET_MS);

/** The shop's day an instant falls on. */
export const shopDayOf = (at: Date) => new Date(at.getTime() + SHOP_OFFSET_MS).toISOString().slice(0, 10);

/** A preset's first and last day, from the shop's today. */
export function presetDays(preset: Exclude<ReportPreset, "custom">, now: Date): { from: string; to: string } {
  const today = shopDayOf(now);
  const year = Number(today.slice(0, 4));
  const month = Number(today.slice(5, 7)) - 1;
  const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m, d)).toISOString().slice(0, 10);
  switch (preset) {
    case "this_month":
      return { from: day(year, month, 1), to: today };
    case "last_month":
      return { from: day(year, month - 1, 1), to: day(year, month, 0) };
    case "this_quarter":
      return { from: day(year, month - (month % 3), 1), to: today };
  }
}

/** The query of GET /admin/reports and of the exports: a period of whole shop days. */
export function reportPeriodSchema(messages: { required: string; day: string; period: string; tooLong: string }) {
  const day = v.pipe(v.string(messages.required), v.trim(), v.check(isDay, messages.day));
  return v.pipe(
    v.object({ from: day, to: day }),
    v.forward(
      v.check((p) => p.from <= p.to, messages.period),
      ["to"],
    ),
    v.forward(
      v.check((p) => daysBetween(p.from, p.to) <= REPORT_MAX_DAYS, messages.tooLong),
      ["to"],
    ),
  );
}

/** Money totals of a kind of tax document over the period, in halalas. */
export interface VatDocumentTotals {
  count: number;
  /** Amounts before VAT (total − vat). */
  taxable: number;
  vat: number;
  /** Amounts with VAT. */
  total: number;
}

export interface ReportSalesRow {
  /** null: a category no longer there (its products' lines still count). */
  id: number | null;
  name: string | null;
  units: number;
  /** What was paid for them: list totals less their share of discounts, VAT included, in halalas. */
  net: number;
}

export interface ConsoleReport {
  from: string;
  to: string;
  /** ISO instants (UTC) the period runs from (included) to (excluded). */
  starts_at: string;
  ends_at: string;
  time_zone: "Asia/Riyadh";
  currency: string;
  sales: {
    orders: number;
    /** Items at their list prices, VAT included. */
    gross: number;
    discounts: number;
    shipping: number;
    /** What customers paid: gross − discounts + shipping. */
    total: number;
  };
  /** Refunds that succeeded in the period, whenever their order was paid. */
  refunds: { count: number; amount: number };
  /** Sales total less the period's refunds. */
  net: number;
  vat: {
    invoices: VatDocumentTotals;
    credit_notes: VatDocumentTotals;
    /** Totals raised after their invoice. */
    debit_notes: VatDocumentTotals;
    /** What the return declares: invoices less credit notes, plus debit notes. */
    taxable: number;
    vat: number;
  };
  /** Best selling first (by net, then units), at most REPORT_TOP_SHOWN; `count` is how many sold at all. */
  by_product: { count: number; rows: ReportSalesRow[] };
  by_category: { count: number; rows: ReportSalesRow[] };
  /** Reminders about left carts sent in the period, and the orders placed in it that they brought back. */
  cart_reminders: CartRemindersReport;
}
