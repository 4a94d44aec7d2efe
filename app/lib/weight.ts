import { translate } from "./i18n";
import type { Locale } from "./locales";
import { INTL_TAGS } from "./money";

/**
 * A product's weight, kept in whole grams (the console takes grams), read in the unit people
 * expect: grams under a kilogram, kilograms (up to two decimals) from one. Latin digits in Arabic,
 * as prices are.
 */
export function formatWeight(grams: number, locale: Locale): string {
  const kg = grams >= 1000;
  return new Intl.NumberFormat(INTL_TAGS[locale], {
    style: "unit",
    unit: kg ? "kilogram" : "gram",
    unitDisplay: "short",
    maximumFractionDigits: kg ? 2 : 0,
  }).format(kg ? grams / 1000 : grams);
}

/** The specifications with the weight as their last row, unless the shop already wrote one. */
export function withWeight(
  specs: { label: string; value: string }[],
  grams: number | null | undefined,
  locale: Locale,
): { label: string; value: string }[] {
  if (grams === null || grams === undefined || grams <= 0) return specs;
  const label = translate(locale, "product.weight");
  if (specs.some((s) => s.label.trim() === label)) return specs;
  return [...specs, { label, value: formatWeight(grams, locale) }];
}
