import type { ProductDetails } from "../../contract/catalogue";
import { translate } from "./i18n";
import type { Locale } from "./locales";
import { LOW_STOCK } from "./catalogue";
import { priceLabel } from "./money";
import { specificationGroups } from "./specifications";

/**
 * The comparison page's table, made in the loader: the products' overview (price, brand, model,
 * stock) and their specification tables aligned row by row (by heading and label, in the order
 * they first appear), each row knowing whether its values differ. A product without a row's value
 * shows a dash there, which counts as a difference.
 */
export interface CompareRow {
  label: string;
  values: string[];
  differs: boolean;
}
export interface CompareGroup {
  heading: string;
  rows: CompareRow[];
}

export const NO_VALUE = "—";

export function compareGroups(products: readonly ProductDetails[], locale: Locale): CompareGroup[] {
  const t = (key: string, p?: Record<string, string | number>) => translate(locale, key, p);
  const overview: CompareGroup = {
    heading: t("compare.overview"),
    rows: [
      { label: t("compare.price"), values: products.map((p) => priceLabel(p.price, p.currency, locale)) },
      { label: t("catalogue.brand"), values: products.map((p) => p.brand?.name ?? NO_VALUE) },
      { label: t("product.model"), values: products.map((p) => p.model || NO_VALUE) },
      {
        label: t("compare.availability"),
        values: products.map((p) =>
          !p.in_stock
            ? t("catalogue.outOfStock")
            : p.stock <= LOW_STOCK
              ? t("catalogue.lowStock", { count: p.stock })
              : t("catalogue.inStock"),
        ),
      },
    ].map((row) => ({ ...row, differs: differs(row.values) })),
  };
  // Each product's table, then one row per (heading, label) in the order first seen.
  const tables = products.map((p) => specificationGroups(p, locale));
  const headings: string[] = [];
  const labels = new Map<string, string[]>();
  for (const table of tables)
    for (const group of table) {
      const heading = group.heading ?? t("product.specifications");
      if (!labels.has(heading)) {
        headings.push(heading);
        labels.set(heading, []);
      }
      const seen = labels.get(heading)!;
      for (const row of group.rows) if (!seen.includes(row.label)) seen.push(row.label);
    }
  const valueOf = (table: (typeof tables)[number], heading: string, label: string) =>
    table.find((g) => (g.heading ?? t("product.specifications")) === heading)?.rows.find((r) => r.label === label)
      ?.value ?? NO_VALUE;
  const specs = headings.map((heading) => ({
    heading,
    rows: labels.get(heading)!.map((label) => {
      const values = tables.map((table) => valueOf(table, heading, label));
      return { label, values, differs: differs(values) };
    }),
  }));
  return [overview, ...specs];
}

/** Whether a row's values are not all the same (with one product, nothing differs). */
const differs = (values: readonly string[]) => values.some((v) => v !== values[0]);

/** Only the rows whose values differ, and only the groups that keep one. */
export const differencesOnly = (groups: readonly CompareGroup[]): CompareGroup[] =>
  groups.map((g) => ({ ...g, rows: g.rows.filter((r) => r.differs) })).filter((g) => g.rows.length > 0);

/** The slugs a comparison's URL names (`p=a,b,c`): valid ones, once each, at most `max`; and whether more were named. */
export function comparedSlugs(param: string | null, max: number): { slugs: string[]; dropped: boolean } {
  const named = (param ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter((s) => /^[a-z0-9][a-z0-9-]{0,119}$/.test(s));
  const slugs = [...new Set(named)];
  return { slugs: slugs.slice(0, max), dropped: slugs.length > max };
}
