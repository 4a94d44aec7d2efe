/**
 * The catalogue shapes of the backend contract, defined once in contract/ (both the storefront
 * and the backend import it). Type-only (erased at build).
 */
import type { CategoryNode, ProductSummary } from "../../contract/catalogue";

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
