import type { ProductSummary } from "../../../../contract/catalogue";
import { analyze, numberAndUnit, queryTerms } from "./analysis";

/**
 * The variant a search names. "iphone 256" finds the iPhone by its storage value (both index rows
 * hold every option value: attributes.ts `attributeWordsStatement`); the result's card should then
 * open that storage, not the product's first variant. A search's page reads, with each product of
 * several variants, its active variants' option values (`VARIANT_VALUES`, in the page's own
 * statement: no round trip of its own); the words of the search are matched against them as the
 * index matches (analysed, prefix); the variant matching most words wins, in stock first, and the
 * card is given the values it matched (`ProductSummary.chosen`), which the product page completes
 * with its best available variant, and what the variants of those values sell for
 * (`chosen_offer`). A word every variant matches ("titanium") tells them apart no more than the
 * product's name does, and counts for none.
 */

/**
 * A page row's column: for a product of several variants, its active variants in their order, each
 * `[stock, [[option code, value code, "English Arabic"], ...], price, compare-at price]` as JSON;
 * null for one variant.
 */
export const VARIANT_VALUES = `CASE WHEN p.variant_count > 1 THEN (
    SELECT json_group_array(json_array(pv.stock, (
      SELECT json_group_array(json_array(po.code, ov.code, ov.value_en || ' ' || ov.value_ar))
      FROM variant_option_values vov
      JOIN product_options po ON po.id = vov.option_id
      JOIN product_option_values ov ON ov.id = vov.value_id
      WHERE vov.variant_id = pv.id), pv.price, pv.compare_at_price))
    FROM (SELECT id, stock, price, compare_at_price FROM product_variants
      WHERE product_id = p.id AND active = 1 ORDER BY position, id) pv
  ) END AS variant_values`;

type Values = [option: string, value: string, words: string][];

/** The search's terms as the index sees them, "256gb" also as "256" and "gb" (analysis.ts `numberAndUnit`). */
function searchTerms(q: string): string[] {
  return [...new Set(queryTerms(q).flatMap((term) => [term, ...(numberAndUnit(term) ?? [])]))];
}

/** The values of a variant's options that the terms match, by option code, and the terms that matched. */
function matchOf(values: Values, terms: readonly string[]) {
  const options: Record<string, string> = {};
  const hit = new Set<string>();
  for (const [option, value, words] of values) {
    const stems = analyze(words);
    const found = terms.filter((t) => stems.some((s) => s.startsWith(t)));
    if (found.length === 0) continue;
    options[option] = value;
    for (const t of found) hit.add(t);
  }
  return { options, hit };
}

/** JSON that SQLite may hand over as text at any depth. */
const json = <T>(value: unknown): T => (typeof value === "string" ? (JSON.parse(value) as T) : (value as T));

/**
 * What the variants of a choice sell for: the cheapest of those in stock (of all, when none is),
 * their stock together, and whether their prices differ (the card then says "From").
 */
function offerOf(variants: { stock: number; price: number; compareAt: number | null }[]) {
  const selling = variants.some((v) => v.stock > 0) ? variants.filter((v) => v.stock > 0) : variants;
  const cheapest = selling.reduce((a, b) => (b.price < a.price ? b : a));
  return {
    price: cheapest.price,
    compare_at_price: cheapest.compareAt,
    stock: variants.reduce((sum, v) => sum + v.stock, 0),
    varies: new Set(variants.map((v) => v.price)).size > 1,
  };
}

/** The option values a search's terms name among a product's variants (`VARIANT_VALUES`), and what they sell for; or none. */
function chosenBy(terms: readonly string[], variantValues: string | null | undefined) {
  if (!variantValues || terms.length === 0) return undefined;
  const variants = json<[number, unknown, number, number | null][]>(variantValues).map(
    ([stock, values, price, compareAt]) => {
      const vals = json<Values>(values);
      return { stock, vals, price, compareAt, hit: matchOf(vals, terms).hit };
    },
  );
  // A term every variant matches does not choose between them.
  const telling = terms.filter((t) => !variants.every((v) => v.hit.has(t)));
  let best: (typeof variants)[number] | undefined;
  let bestScore = 1;
  for (const v of variants) {
    const score = telling.filter((t) => v.hit.has(t)).length * 2 + (v.stock > 0 ? 1 : 0);
    if (score > bestScore) {
      best = v;
      bestScore = score;
    }
  }
  if (!best) return undefined;
  // Only the values the telling words named: the page completes the rest with what is available.
  const { options } = matchOf(best.vals, telling);
  if (Object.keys(options).length === 0) return undefined;
  const named = variants.filter((v) =>
    Object.entries(options).every(([option, value]) => v.vals.some(([o, code]) => o === option && code === value)),
  );
  return { options, offer: offerOf(named) };
}

/** A search's page of summaries, each product of several variants with the values its words named. */
export function withChosen<T extends ProductSummary>(
  q: string | undefined,
  rows: readonly { id: number; variant_values?: string | null }[],
  products: T[],
): T[] {
  const terms = q ? searchTerms(q) : [];
  if (terms.length === 0) return products;
  const values = new Map(rows.map((r) => [r.id, r.variant_values]));
  return products.map((p) => {
    const chosen = chosenBy(terms, values.get(p.id));
    return chosen ? { ...p, chosen: chosen.options, chosen_offer: chosen.offer } : p;
  });
}
