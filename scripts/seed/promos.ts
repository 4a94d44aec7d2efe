// Demo promo codes (README "Promo codes"). discount_type 1 = percentage (value in percent),
// 2 = fixed amount (value in halalas). Pure data and SQL builders (no Node imports).
import { insertOrIgnore, type SqlValue } from "./sql.ts";

interface SeedPromo {
  code: string;
  discount_type: 1 | 2;
  value: number;
  max_discount?: number | null;
  starts_at?: string | null;
  ends_at?: string | null;
  /** Halalas. */
  min_order?: number;
  usage_limit?: number | null;
  per_user_limit?: number | null;
  used_count?: number;
}

export const PROMOS: SeedPromo[] = [
  // 10% off orders from 100 SAR, once per customer (a verified account, and its delivery phone: services/orders/promo.ts).
  { code: "WELCOME10", discount_type: 1, value: 10, min_order: 10000, per_user_limit: 1 },
  // 50 SAR off orders from 300 SAR.
  { code: "SAVE50", discount_type: 2, value: 5000, min_order: 30000 },
  // 15% off, at most 150 SAR, twice per customer.
  { code: "RAMADAN15", discount_type: 1, value: 15, max_discount: 15000, per_user_limit: 2 },
  // Ended: answers "This promo code has expired."
  {
    code: "EXPIRED20",
    discount_type: 1,
    value: 20,
    starts_at: "2024-01-01T00:00:00.000Z",
    ends_at: "2024-12-31T23:59:59.000Z",
  },
  // Every use taken: answers "This promo code has reached its usage limit."
  { code: "USEDUP", discount_type: 1, value: 25, usage_limit: 100, used_count: 100 },
];

export function promoStatements(): string[] {
  return PROMOS.map((p) => {
    const row: Record<string, SqlValue> = {
      code: p.code,
      discount_type: p.discount_type,
      value: p.value,
      max_discount: p.max_discount ?? null,
      starts_at: p.starts_at ?? null,
      ends_at: p.ends_at ?? null,
      min_order: p.min_order ?? 0,
      usage_limit: p.usage_limit ?? null,
      per_user_limit: p.per_user_limit ?? null,
      used_count: p.used_count ?? 0,
      active: 1,
    };
    return insertOrIgnore("promo_codes", row);
  });
}
