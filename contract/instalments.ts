// Buy now, pay later: the rule a provider publishes for splitting a price, and the split itself.
// Part of the contract between the storefront and the backend (DESIGN §6, §11): the backend says
// which providers the shop offers and their limits; the storefront draws the line ("4
// interest-free payments of SAR 1,274.75") for whatever price it shows, with no provider script.

export const BNPL_PROVIDERS = ["tabby", "tamara"] as const;
export type BnplProvider = (typeof BNPL_PROVIDERS)[number];

/** A provider's split: `count` payments, for totals from `min` to `max` halalas (both included). */
export interface InstalmentRule {
  provider: BnplProvider;
  count: number;
  min: number;
  max: number;
}

/**
 * How many payments each provider's plan has: Tabby's "pay in 4" and Tamara's "split in 4", four
 * interest-free payments, the first at checkout, the rest monthly. The limits are each merchant's,
 * set by the provider in its contract (TABBY_MIN_SAR … TAMARA_MAX_SAR).
 */
export const BNPL_PAYMENTS: Record<BnplProvider, number> = { tabby: 4, tamara: 4 };

/**
 * `amount` (halalas) in the rule's payments, or null outside its limits. Equal payments; the
 * halalas that do not divide go on the first (paid today), so the payments sum to the amount.
 */
export function instalmentPlan(rule: InstalmentRule, amount: number): number[] | null {
  if (!Number.isInteger(amount) || amount < rule.min || amount > rule.max || rule.count < 1) return null;
  const each = Math.floor(amount / rule.count);
  return [amount - each * (rule.count - 1), ...Array<number>(rule.count - 1).fill(each)];
}
