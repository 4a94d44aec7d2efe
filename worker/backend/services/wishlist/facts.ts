import type { Lang } from "../../env";
import type { WishlistFacts } from "../../../../contract/wishlist";
import { parseJson } from "../catalogue/summary";
import { variantTitleSql } from "../catalogue/variants";

/**
 * What saved products are now (contract/wishlist.ts `WishlistFacts`), read from D1 with the
 * variant saved with each: the account's list joins these columns to its rows, a guest's list and
 * the recently viewed strip ask for them by slug. A product staff hid, or a saved variant no
 * longer sold, is `available: false`.
 */

/** The columns of a product `p` and its saved variant `v` (LEFT JOINed), in one language. */
export const factsColumns = (lang: Lang) => `
  p.id AS product_id, p.slug, p.name_en, p.name_ar, p.images, p.currency, p.variant_count, p.active,
  p.price AS p_price, p.compare_at_price AS p_compare, p.stock AS p_stock,
  v.id AS v_id, v.price AS v_price, v.compare_at_price AS v_compare, v.stock AS v_stock, v.active AS v_active,
  v.images AS v_images, CASE WHEN v.id IS NULL THEN NULL ELSE ${variantTitleSql("v.id", lang)} END AS v_title,
  CASE WHEN v.id IS NULL THEN NULL ELSE (SELECT json_group_object(o.code, ov.code) FROM variant_option_values vov
    JOIN product_options o ON o.id = vov.option_id JOIN product_option_values ov ON ov.id = vov.value_id
    WHERE vov.variant_id = v.id) END AS v_options`;

export interface FactsRow {
  product_id: number;
  slug: string;
  name_en: string;
  name_ar: string;
  images: string;
  currency: string;
  variant_count: number;
  active: number;
  p_price: number;
  p_compare: number | null;
  p_stock: number;
  v_id: number | null;
  v_price: number | null;
  v_compare: number | null;
  v_stock: number | null;
  v_active: number | null;
  v_images: string | null;
  v_title: string | null;
  v_options: string | null;
}

export function toFacts(row: FactsRow, lang: Lang): WishlistFacts {
  const own = (text: string | null) => parseJson<string[]>(text ?? "[]", []).filter((i) => typeof i === "string");
  const images = row.v_id !== null && own(row.v_images).length ? own(row.v_images) : own(row.images);
  const variant = row.v_id !== null;
  const stock = variant ? (row.v_stock ?? 0) : row.p_stock;
  return {
    slug: row.slug,
    product_id: row.product_id,
    variant_id: row.v_id,
    name: lang === "ar" ? row.name_ar : row.name_en,
    names: { en: row.name_en, ar: row.name_ar },
    variant_title: row.v_title || null,
    variant_options: row.v_options ? parseJson<Record<string, string>>(row.v_options, {}) : null,
    image: images[0] ?? `/backend/media/products/${row.slug}.svg`,
    price: variant ? (row.v_price ?? row.p_price) : row.p_price,
    compare_at_price: variant ? row.v_compare : row.p_compare,
    currency: row.currency,
    in_stock: stock > 0,
    available: row.active === 1 && (!variant || row.v_active === 1),
    variant_count: row.variant_count,
  };
}

/**
 * The facts of the products named, in the order given; an unknown slug is left out (the caller
 * shows it as no longer sold). A variant that is not the product's is read as none.
 */
export async function factsBySlug(
  db: D1Database,
  lang: Lang,
  items: readonly { slug: string; variant_id: number | null }[],
): Promise<WishlistFacts[]> {
  if (items.length === 0) return [];
  const pairs = [...new Map(items.map((i) => [i.slug, i.variant_id ?? 0])).entries()];
  // One statement, one parameter (D1 binds at most 100): the asked pairs as JSON, joined to
  // products and their variants.
  const { results } = await db
    .prepare(
      `WITH asked AS (SELECT json_extract(value, '$[0]') AS slug, json_extract(value, '$[1]') AS variant_id FROM json_each(?))
       SELECT ${factsColumns(lang)} FROM asked a JOIN products p ON p.slug = a.slug
       LEFT JOIN product_variants v ON v.id = a.variant_id AND v.product_id = p.id`,
    )
    .bind(JSON.stringify(pairs))
    .all<FactsRow>();
  const bySlug = new Map(results.map((r) => [r.slug, toFacts(r, lang)]));
  return pairs.map(([slug]) => bySlug.get(slug)).filter((f): f is WishlistFacts => f !== undefined);
}
