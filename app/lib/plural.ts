import type { Translate } from "./i18n";
import type { Locale } from "./locales";

/**
 * A number with its noun, in the form the language asks for: a plural message in
 * locales/ has one entry per CLDR category `Intl.PluralRules` answers, so Arabic reads «منتج واحد،
 * منتجان، 3 منتجات، 11 منتجًا، 100 منتج» and English "1 product, 2 products". Apart from i18n.ts
 * so only the pages that count something carry it.
 */
const rules = new Map<Locale, Intl.PluralRules>();

export function countOf(t: Translate, locale: Locale, key: string, count: number): string {
  let rule = rules.get(locale);
  if (!rule) rules.set(locale, (rule = new Intl.PluralRules(locale)));
  return t(`${key}.${rule.select(count)}`, { count });
}
