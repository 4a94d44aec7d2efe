import type { ProductAttribute, ProductDetails } from "../../contract/catalogue";
import { translate } from "./i18n";
import type { Locale } from "./locales";
import { INTL_TAGS } from "./money";
import { withWeight } from "./weight";

export interface SpecRow {
  label: string;
  value: string;
}
/** Rows under one heading of the specification table; the free-form rows have none of their own when alone. */
export interface SpecGroup {
  heading: string | null;
  rows: SpecRow[];
}

/** The locale's number format for typed values, made once per locale and isolate. */
const numberFormats = new Map<Locale, Intl.NumberFormat>();

/** A typed number in the locale's format, with its unit when it has one (the product page, the list's filters). */
export function formatAttributeNumber(value: number, unit: string | null, locale: Locale): string {
  let format = numberFormats.get(locale);
  if (!format)
    numberFormats.set(locale, (format = new Intl.NumberFormat(INTL_TAGS[locale], { maximumFractionDigits: 2 })));
  const number = format.format(value);
  return unit ? `${number}\u00a0${unit}` : number;
}

/** A typed value as a shopper reads it: numbers in the locale's format with their unit. */
export function formatAttribute(attribute: ProductAttribute, locale: Locale): string {
  switch (attribute.type) {
    // Values its variants give are listed, each one of them sold.
    case "number":
      return (attribute.values ?? [attribute.value])
        .map((n) => formatAttributeNumber(n, attribute.unit, locale))
        .join(" · ");
    case "enum":
      return (attribute.options ?? [attribute.option]).join(" · ");
    case "bool":
      return translate(locale, attribute.value ? "product.specYes" : "product.specNo");
    case "text":
      return attribute.value;
  }
}

/**
 * The product page's specification table, made in the loader (on the server, so hydration builds
 * no `Intl.NumberFormat`): the typed attributes under their groups, in the category's order, then
 * the free-form rows no typed attribute of the same label supersedes, with the weight last.
 */
export function specificationGroups(
  product: Pick<ProductDetails, "attributes" | "specifications" | "weight_grams">,
  locale: Locale,
): SpecGroup[] {
  const groups: SpecGroup[] = [];
  for (const attribute of product.attributes ?? []) {
    const heading = attribute.group || translate(locale, "product.specifications");
    let group = groups.find((g) => g.heading === heading);
    if (!group) groups.push((group = { heading, rows: [] }));
    group.rows.push({ label: attribute.label, value: formatAttribute(attribute, locale) });
  }
  const typed = new Set((product.attributes ?? []).map((a) => a.label.trim()));
  const rest = withWeight(
    product.specifications.filter((s) => !typed.has(s.label.trim())),
    product.weight_grams,
    locale,
  );
  if (rest.length > 0)
    groups.push({ heading: groups.length > 0 ? translate(locale, "product.moreDetails") : null, rows: rest });
  return groups;
}
