// Back-in-stock alerts: "tell me when it's back" on a sold-out product or variant, by email or
// SMS, and the waiting demand the console shows. The wire between the storefront (and the
// console) and the backend; both sides import it, and it imports only valibot and the contract.

import * as v from "valibot";
import { E164, emailField, latinDigits, normalizePhone, OTP_CODE, type InputMessages } from "./inputs";

export const STOCK_ALERT_CHANNELS = ["email", "sms"] as const;
export type StockAlertChannel = (typeof STOCK_ALERT_CHANNELS)[number];

/** Backend paths (under the backend base). */
export const STOCK_ALERTS_PATHS = {
  /** POST StockAlertRequest → StockAlertAnswer (public; rate-limited per network and address). */
  subscribe: "/stock-alerts",
  /** GET ?sort=&dir=&page=&per_page=&product_id= → StockAlertDemand[] (console, managers and owners). */
  demand: "/admin/inventory/stock-alerts",
} as const;

/**
 * POST /stock-alerts. `variant` is the chosen variant of a product of several (required there;
 * a product without options leaves it out). SMS: the signed-in account's own verified phone is
 * taken as it is; any other number first gets a one-time code (the answer is `code_sent`), and the
 * same request again with `code` confirms it and subscribes.
 */
export interface StockAlertRequest {
  product: number;
  variant?: number | null;
  channel: StockAlertChannel;
  email?: string;
  phone?: string;
  code?: string;
}

/**
 * `subscribed`: the alert is set (or already was: the answer is the same, so it tells no one
 * whether an address had subscribed). `code_sent`: a code went to the phone; send it back as `code`.
 */
export interface StockAlertAnswer {
  status: "subscribed" | "code_sent";
}

/** The most an id may be (a product's or a variant's). */
const MAX_ID = 999_999_999_999;

function id(m: InputMessages, field: "product_id" | "variant_id") {
  return v.pipe(
    v.number(m.invalid(field)),
    v.integer(m.invalid(field)),
    v.minValue(1, m.invalid(field)),
    v.maxValue(MAX_ID, m.invalid(field)),
  );
}

/** A phone for an SMS alert: E.164 as the storefront's phone field sends it (Arabic-Indic digits read). */
function alertPhone(m: InputMessages) {
  return v.pipe(
    v.optional(v.string(m.invalid("phone")), ""),
    v.transform(normalizePhone),
    v.nonEmpty(m.required("phone")),
    v.regex(E164, m.invalid("phone")),
  );
}

/**
 * The request as the backend checks it: the address of the chosen channel is required and checked
 * (an email trimmed and lower-cased; a phone in E.164), the other is not read; a code, when given,
 * is 6 digits.
 */
export function stockAlertInput(m: InputMessages) {
  const common = {
    product: v.pipe(
      v.optional(v.unknown()),
      v.check((x) => x != null, m.required("product_id")),
      id(m, "product_id"),
    ),
    variant: v.optional(v.nullable(id(m, "variant_id")), null),
  };
  return v.variant(
    "channel",
    [
      v.object({ ...common, channel: v.literal("email"), email: emailField(m) }),
      v.object({
        ...common,
        channel: v.literal("sms"),
        phone: alertPhone(m),
        code: v.optional(
          v.pipe(
            v.string(m.invalid("otp")),
            v.transform((s) => latinDigits(s).replace(/\s/g, "")),
            v.check((s) => s === "" || OTP_CODE.test(s), m.invalid("otp")),
          ),
          "",
        ),
      }),
    ],
    m.invalid("channel"),
  );
}

export type StockAlertInput = v.InferOutput<ReturnType<typeof stockAlertInput>>;

/** The console's sorts of the waiting demand. */
export const STOCK_ALERT_DEMAND_SORTS = ["waiting", "email", "sms", "stock", "oldest"] as const;
export type StockAlertDemandSort = (typeof STOCK_ALERT_DEMAND_SORTS)[number];

/** One variant's waiting subscribers: what staff reorder by. */
export interface StockAlertDemand {
  product_id: number;
  variant_id: number;
  sku: string;
  /** The product's names with the variant's values. */
  name_en: string;
  name_ar: string;
  stock: number;
  /** Subscriptions not yet told. */
  waiting: number;
  email: number;
  sms: number;
  /** When the longest-waiting one subscribed (ISO). */
  oldest: string;
}
