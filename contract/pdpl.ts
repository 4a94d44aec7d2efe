// The shopper's rights under Saudi Arabia's Personal Data Protection Law: to take a copy of their
// data (the export) and to have it erased (account deletion), by themselves from the profile or
// through staff on request. Part of the contract between the storefront and the backend: both
// sides import it, and it imports only valibot.
import * as v from "valibot";
import type { InputMessages } from "./inputs";

/** GET: the signed-in shopper's data as a JSON file (AccountExport). */
export const ACCOUNT_EXPORT_PATH = "/client/account/export";
/** POST {password} or {code}: erase the signed-in shopper's account (AccountErasure). */
export const ACCOUNT_ERASE_PATH = "/client/account/erase";
/** POST: send a one-time code that proves the shopper for the erasure (for an account without a password). */
export const ACCOUNT_ERASE_CODE_PATH = "/client/account/erase-code";

/** Staff: the same file for one customer, and erasure on their request (with a reason). */
export const consoleCustomerExportPath = (id: string | number) => `/admin/customers/${id}/export`;
export const consoleCustomerErasePath = (id: string | number) => `/admin/customers/${id}/erase`;

/**
 * The export's format. 1: `{ format_version, generated_at, account, addresses, orders, reviews,
 * questions, answers, wishlist, comparisons, stock_alerts, consents, message_preferences, cart,
 * more }`, each a list of records as the shop keeps them (money in halalas, times in UTC ISO 8601);
 * `more` holds, by table name, any other record linked to the account. Never a password, token or
 * code hash.
 */
export const EXPORT_FORMAT_VERSION = 1;

/** Saudi VAT law keeps tax invoices, credit notes and the records behind them six years. */
export const TAX_RECORD_YEARS = 6;
/** Erasure is immediate in the live database; the database's point-in-time copies roll off after this many days. */
export const BACKUP_DAYS = 30;

/** The file name of an export made on `date` (YYYY-MM-DD). */
export const exportFileName = (date: string) => `souq-edge-data-${date}.json`;

/** What the export holds (records are kept loose: they follow the shop's tables). */
export interface AccountExport {
  format_version: typeof EXPORT_FORMAT_VERSION;
  generated_at: string;
  account: Record<string, unknown>;
  addresses: Record<string, unknown>[];
  orders: Record<string, unknown>[];
  reviews: Record<string, unknown>[];
  questions: Record<string, unknown>[];
  answers: Record<string, unknown>[];
  wishlist: Record<string, unknown>[];
  comparisons: Record<string, unknown>[];
  stock_alerts: Record<string, unknown>[];
  consents: Record<string, unknown>[];
  message_preferences: Record<string, unknown>;
  cart: Record<string, unknown>[];
  more: Record<string, Record<string, unknown>[]>;
}

/** POST ACCOUNT_ERASE_PATH's body: the password, or a code from ACCOUNT_ERASE_CODE_PATH. */
export function erasureInput(m: InputMessages) {
  return v.object({
    password: v.optional(v.pipe(v.string(m.invalid("password")), v.maxLength(1024, m.maxLength("password", 1024)))),
    code: v.optional(v.pipe(v.string(m.invalid("otp")), v.trim(), v.regex(/^\d{6}$/, m.invalid("otp")))),
  });
}

/** POST consoleCustomerErasePath's body: why (the request, as staff received it). */
export function consoleErasureInput(m: InputMessages) {
  return v.object({
    reason: v.pipe(
      v.string(m.required("reason")),
      v.trim(),
      v.minLength(3, m.minLength("reason", 3)),
      v.maxLength(500, m.maxLength("reason", 500)),
    ),
  });
}
