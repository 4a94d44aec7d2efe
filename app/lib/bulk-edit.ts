import { latinDigits } from "../../contract/inputs";
import { readMoney } from "../../contract/numbers";
import type { BulkEdit } from "./api/console-catalogue";

/**
 * The products list's bulk edit, read from what the merchant typed (riyals, percentages, counts).
 * Pure functions, so the panel stays a view and the rules can be tested alone.
 */

/** A money amount as a merchant types it, in riyals ("299", "299.5", "٢٩٩٫٥٠"), as whole halalas; null when it is not one. */
export function parseMerchantAmount(text: string): number | null {
  const reading = readMoney(text);
  return reading.ok ? reading.value : null;
}

/** A percentage such as "10", "-12.5" or "−7" (the minus sign too); null when it is not one or is 0. */
export function parsePercent(text: string): number | null {
  const plain = latinDigits(text.trim())
    .replace(/[\u2212\u2013]/g, "-")
    .replace(/\u066B/g, ".")
    .replace(/\s|%|٪/g, "");
  if (!/^[+-]?\d{1,4}(\.\d{1,2})?$/.test(plain)) return null;
  const n = Number(plain);
  return n === 0 || n < -99 || n > 1000 ? null : n;
}

/** A whole count, signed when `signed` ("-3", "+10", "٥"); null when it is not one. */
export function parseCount(text: string, signed: boolean): number | null {
  const plain = latinDigits(text.trim())
    .replace(/[\u2212\u2013]/g, "-")
    .replace(/\s/g, "");
  if (!(signed ? /^[+-]?\d{1,7}$/ : /^\d{1,7}$/).test(plain)) return null;
  const n = Number(plain);
  return signed && n === 0 ? null : n;
}

export type PriceMode = "keep" | "set" | "percent";
export type StockMode = "keep" | "set" | "adjust";

export interface BulkForm {
  priceMode: PriceMode;
  price: string;
  stockMode: StockMode;
  stock: string;
}

/** The request for what was typed, or which fields are wrong (keys of the locale's bulkEdit messages). */
export function readBulkForm(
  ids: number[],
  form: BulkForm,
): { edit: BulkEdit } | { errors: Partial<Record<"price" | "stock" | "form", string>> } {
  const errors: Partial<Record<"price" | "stock" | "form", string>> = {};
  let price: BulkEdit["price"] = null;
  let stock: BulkEdit["stock"] = null;
  if (form.priceMode === "set") {
    const amount = parseMerchantAmount(form.price);
    if (amount === null) errors.price = "badAmount";
    else price = { mode: "set", amount };
  } else if (form.priceMode === "percent") {
    const percent = parsePercent(form.price);
    if (percent === null) errors.price = "badPercent";
    else price = { mode: "percent", percent };
  }
  if (form.stockMode !== "keep") {
    const n = parseCount(form.stock, form.stockMode === "adjust");
    if (n === null) errors.stock = "badStock";
    else stock = form.stockMode === "set" ? { mode: "set", value: n } : { mode: "adjust", delta: n };
  }
  if (form.priceMode === "keep" && form.stockMode === "keep") errors.form = "nothing";
  return Object.keys(errors).length ? { errors } : { edit: { ids, price, stock } };
}
