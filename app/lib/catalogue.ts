/**
 * The catalogue shapes of the backend contract, defined once in contract/ (both the storefront
 * and the backend import it). Type-only (erased at build).
 */
import type { CategoryNode, ProductSummary } from "../../contract/catalogue";
import type { Locale } from "./locales";
import { priceLabel, type PriceLabels } from "./money";
import { translate } from "./i18n";

export type { ListMeta, ProductDetails, ProductSummary, Ref, Suggestion } from "../../contract/catalogue";
export type { Banner, ContentPage, HomeData, PageSummary, Service, ServiceDetails } from "../../contract/content";
export type Category = CategoryNode;
export type Specification = { label: string; value: string };

export function flattenCategories(tree: Category[], depth = 0): { category: Category; depth: number }[] {
  return tree.flatMap((c) => [{ category: c, depth }, ...flattenCategories(c.children ?? [], depth + 1)]);
}

/** How many the shopper may put in the cart at once: the lower of stock and the per-order maximum. */
export function maxOrderable(p: Pick<ProductSummary, "stock" | "max_per_order" | "in_stock">): number {
  if (!p.in_stock) return 0;
  const cap = p.max_per_order > 0 ? p.max_per_order : p.stock;
  return Math.max(0, Math.min(p.stock, cap));
}

export { LOW_STOCK } from "../../contract/catalogue";

/** What a product card shows (components/ProductCard.tsx), and nothing more. */
export type CardProduct = Pick<
  ProductSummary,
  | "id"
  | "slug"
  | "model"
  | "name"
  | "brand"
  | "price"
  | "compare_at_price"
  | "currency"
  | "stock"
  | "in_stock"
  | "image"
  | "is_new"
  | "chosen"
  | "rating"
> &
  Partial<PriceLabels> & {
    /** The top-level category's slug, when the card offers its Compare button (the list's cards). */
    group?: string;
  };

/** Each category's top-level category, by slug (a top-level one is its own). */
export function topCategories(tree: Category[]): Map<string, string> {
  const tops = new Map<string, string>();
  for (const top of tree) for (const { category } of flattenCategories([top])) tops.set(category.slug, top.slug);
  return tops;
}

/**
 * A list of products as its cards need them, prices formatted for the locale (as `withPriceLabels`).
 * The loaders of pages with product grids send these instead of whole products: the fields no card
 * shows (sku, category, every image, per-order maximum...) would only be serialised into the page's
 * hydration data and parsed again by the browser (docs/PERFORMANCE.md, "A fresh render within the
 * CPU budget").
 */
export function cardsOf(items: ProductSummary[], locale: Locale): (CardProduct & PriceLabels)[] {
  return items.map((p) => {
    // A search that named a variant ("iphone 16 pro 1tb") shows what that choice sells for.
    const offer = p.chosen_offer;
    const price = offer?.price ?? p.price;
    const compareAt = offer ? offer.compare_at_price : p.compare_at_price;
    const stock = offer?.stock ?? p.stock;
    // A product of several variants sells from its cheapest available one.
    const from = offer ? offer.varies : (p.variant_count ?? 1) > 1;
    return {
      id: p.id,
      slug: p.slug,
      model: p.model,
      name: p.name,
      brand: p.brand,
      price,
      compare_at_price: compareAt,
      currency: p.currency,
      stock,
      in_stock: offer ? offer.stock > 0 : p.in_stock,
      image: p.image,
      is_new: p.is_new,
      ...(p.chosen ? { chosen: p.chosen } : {}),
      // Only a rated product's card carries its rating: the rest send nothing for it.
      ...(p.rating && p.rating.count > 0 ? { rating: p.rating } : {}),
      price_label: from
        ? translate(locale, "product.fromPrice", { price: priceLabel(price, p.currency, locale) })
        : priceLabel(price, p.currency, locale),
      compare_at_label: compareAt === null ? null : priceLabel(compareAt, p.currency, locale),
    };
  });
}
