import type { Lang } from "../../env";
import type { ProductSummary } from "../../../../contract/catalogue";
import { ratingOf } from "../reviews/rating";

/**
 * A product's summary as every catalogue read selects it (lists, search, details, related, carts):
 * its columns in one language, and the row they give as the contract's `ProductSummary`.
 */

/** Localized column names come only from this switch, never from input. */
export const col = (
  base: "name" | "description" | "specs" | "seo_title" | "seo_description" | "label" | "group" | "unit" | "text",
  lang: Lang,
) => `${base}_${lang === "ar" ? "ar" : "en"}`;

export interface SummaryRow {
  id: number;
  slug: string;
  sku: string;
  model: string | null;
  name: string;
  category_id: number;
  category_slug: string;
  category_name: string;
  brand_id: number | null;
  brand_slug: string | null;
  brand_name: string | null;
  price: number;
  compare_at_price: number | null;
  currency: string;
  stock: number;
  max_per_order: number;
  images: string;
  is_featured: number;
  is_new: number;
  /** Absent from rows kept before variants (search-kept.ts). */
  variant_count?: number;
  /** The published reviews' count and sum of stars (kept exact by migration 0054's triggers). */
  rating_count?: number;
  rating_sum?: number;
}

export const summaryColumns = (lang: Lang) => `
  p.id, p.slug, p.sku, p.model, p.${col("name", lang)} AS name,
  c.id AS category_id, c.slug AS category_slug, c.${col("name", lang)} AS category_name,
  b.id AS brand_id, b.slug AS brand_slug, b.${col("name", lang)} AS brand_name,
  p.price, p.compare_at_price, p.currency, p.stock, p.max_per_order, p.images, p.is_featured, p.is_new, p.variant_count,
  p.rating_count, p.rating_sum`;

export const summaryFrom =
  "products p JOIN categories c ON c.id = p.category_id LEFT JOIN brands b ON b.id = p.brand_id";

export function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export function toSummary(row: SummaryRow): ProductSummary {
  const images = parseJson<string[]>(row.images, []).filter((i) => typeof i === "string");
  return {
    id: row.id,
    slug: row.slug,
    sku: row.sku,
    model: row.model ?? "",
    name: row.name,
    brand:
      row.brand_id !== null && row.brand_slug !== null
        ? { id: row.brand_id, slug: row.brand_slug, name: row.brand_name ?? "" }
        : null,
    category: { id: row.category_id, slug: row.category_slug, name: row.category_name },
    price: row.price,
    compare_at_price: row.compare_at_price,
    currency: row.currency,
    stock: row.stock,
    in_stock: row.stock > 0,
    max_per_order: row.max_per_order,
    image: images[0] ?? `/backend/media/products/${row.slug}.svg`,
    images,
    is_featured: row.is_featured === 1,
    is_new: row.is_new === 1,
    variant_count: row.variant_count ?? 1,
    rating: ratingOf(row.rating_count, row.rating_sum),
  };
}
