import * as v from "valibot";
import type { InputMessages } from "./inputs";
import { LIMITS } from "./limits";

/**
 * Promo codes in the operator console: what the list and the form show, and the one
 * schema both the form and POST/PUT /admin/promo-codes check. Money is integer halalas; times are
 * ISO-8601 UTC (the form converts the shop's local time, Asia/Riyadh, before sending).
 */

/** 1: a percentage (value in percent); 2: a fixed amount (value in halalas). */
export const PROMO_DISCOUNT_TYPES = [1, 2] as const;
export type PromoDiscountType = (typeof PROMO_DISCOUNT_TYPES)[number];

/**
 * Where a code stands now. The list filters by the three an operator asks about: `active`
 * (on, and not past its end: scheduled and used-up codes included), `paused`, `expired`.
 */
export const PROMO_STATES = ["active", "scheduled", "used_up", "paused", "expired"] as const;
export type PromoState = (typeof PROMO_STATES)[number];
export const PROMO_FILTERS = ["active", "paused", "expired"] as const;
export type PromoFilter = (typeof PROMO_FILTERS)[number];

/** The sort names of GET /admin/promo-codes. */
export const PROMO_SORTS = ["created", "code", "used_count", "ends_at", "discount_total"] as const;

/** A promo code as the console shows it, with its usage so far. */
export interface ConsolePromo {
  id: number;
  code: string;
  discount_type: PromoDiscountType;
  value: number;
  max_discount: number | null;
  starts_at: string | null;
  ends_at: string | null;
  min_order: number;
  usage_limit: number | null;
  per_user_limit: number | null;
  /** Uses counted by checkout (cancelled orders give theirs back). */
  used_count: number;
  active: boolean;
  state: PromoState;
  /** Orders that redeemed the code. */
  redemptions: number;
  /** The discount those orders were given, in halalas (cancelled and failed orders left out). */
  discount_total: number;
}

/** The largest amount (halalas) or count the console accepts: far above any real code. */
export const PROMO_MAX_AMOUNT = 100_000_000;
export const PROMO_MAX_COUNT = 10_000_000;
export const PROMO_CODE_PATTERN = /^[A-Za-z0-9_-]+$/;

/** Messages of the rules that join two fields, worded by the caller like InputMessages. */
export interface PromoRuleMessages {
  /** A percentage is a whole number from 1 to 100. */
  percent: string;
  /** The end comes after the start. */
  endsAfterStarts: string;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/;

type Field = "value" | "max_discount" | "min_order" | "usage_limit" | "per_user_limit";

function whole(m: InputMessages, field: Field, min: number, max: number) {
  return v.pipe(
    v.number(m.invalid(field)),
    v.integer(m.invalid(field)),
    v.minValue(min, m.invalid(field)),
    v.maxValue(max, m.invalid(field)),
  );
}

/** A bound the operator may leave empty (no cap, no limit): null or absent. */
function optionalWhole(m: InputMessages, field: Field, min: number, max: number) {
  return v.optional(v.nullable(whole(m, field, min, max)), null);
}

/** A moment with its offset (…Z or …+03:00), stored as UTC with milliseconds so it compares as text. */
function instant(m: InputMessages, field: "starts_at" | "ends_at") {
  return v.optional(
    v.nullable(
      v.pipe(
        v.string(m.invalid(field)),
        v.trim(),
        v.transform((s) => (s === "" ? null : s)),
        v.nullable(
          v.pipe(
            v.string(),
            v.regex(INSTANT, m.invalid(field)),
            v.check((s) => !Number.isNaN(Date.parse(s)), m.invalid(field)),
            v.transform((s) => new Date(s).toISOString()),
          ),
        ),
      ),
    ),
    null,
  );
}

/** The fields of a promo code, one by one (the form checks each as the backend will). */
export function promoCodeFields(m: InputMessages) {
  return {
    code: v.pipe(
      v.string(m.required("code")),
      v.trim(),
      v.nonEmpty(m.required("code")),
      v.minLength(3, m.minLength("code", 3)),
      v.maxLength(LIMITS.promoCode, m.maxLength("code", LIMITS.promoCode)),
      v.regex(PROMO_CODE_PATTERN, m.invalid("code")),
      // Codes are matched without regard to case; they are kept in capitals, as shoppers see them.
      v.toUpperCase(),
    ),
    discount_type: v.picklist(PROMO_DISCOUNT_TYPES, m.invalid("discount_type")),
    value: whole(m, "value", 1, PROMO_MAX_AMOUNT),
    max_discount: optionalWhole(m, "max_discount", 1, PROMO_MAX_AMOUNT),
    starts_at: instant(m, "starts_at"),
    ends_at: instant(m, "ends_at"),
    min_order: v.optional(whole(m, "min_order", 0, PROMO_MAX_AMOUNT), 0),
    usage_limit: optionalWhole(m, "usage_limit", 1, PROMO_MAX_COUNT),
    per_user_limit: optionalWhole(m, "per_user_limit", 1, PROMO_MAX_COUNT),
  };
}

/**
 * POST /admin/promo-codes and PUT /admin/promo-codes/{id}: the whole code. A percentage is 1–100,
 * a fixed amount more than 0 halalas, and the end after the start; each refusal names its field.
 * (That the usage limit is not below the uses so far, and that the code is unique, the backend
 * checks against the table.)
 */
export function promoCodeInput(m: InputMessages, rules: PromoRuleMessages) {
  return v.pipe(
    v.object(promoCodeFields(m)),
    v.forward(
      v.partialCheck(
        [["discount_type"], ["value"]],
        (input) => input.discount_type !== 1 || input.value <= 100,
        rules.percent,
      ),
      ["value"],
    ),
    v.forward(
      v.partialCheck(
        [["starts_at"], ["ends_at"]],
        (input) => !input.starts_at || !input.ends_at || input.ends_at > input.starts_at,
        rules.endsAfterStarts,
      ),
      ["ends_at"],
    ),
  );
}

export type PromoCodeInput = v.InferOutput<ReturnType<typeof promoCodeInput>>;
