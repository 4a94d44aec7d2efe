/** The catalogue shapes of the backend contract (BRIEF "Catalogue"), as the storefront reads them. */
export interface Ref {
  id: number;
  slug: string;
  name: string;
}

export interface ProductSummary {
  id: number;
  slug: string;
  sku: string;
  model: string;
  name: string;
  brand: Ref | null;
  category: Ref;
  price: number;
  compare_at_price: number | null;
  currency: string;
  stock: number;
  in_stock: boolean;
  max_per_order: number;
  image: string;
  images: string[];
  is_featured: boolean;
  is_new: boolean;
}

export interface Specification {
  label: string;
  value: string;
}

export interface ProductDetails extends ProductSummary {
  description: string;
  specifications: Specification[];
  related: ProductSummary[];
  breadcrumbs: { slug: string; name: string }[];
}

export interface Category extends Ref {
  parent_id: number | null;
  product_count: number;
  children: Category[];
}

export interface ListMeta {
  page: number;
  per_page: number;
  total: number;
  last_page: number;
}

export interface Suggestion {
  slug: string;
  name: string;
  model: string;
  image: string;
  price: number;
  currency: string;
}

export interface Service {
  id: number;
  slug: string;
  name: string;
  summary: string;
  icon: string;
  price_from: number;
  currency: string;
}

export interface ServiceDetails extends Service {
  description: string;
  features: string[];
}

export interface PageSummary {
  slug: string;
  title: string;
  excerpt: string;
}

export interface ContentPage extends PageSummary {
  body: string;
  updated_at: string;
}

export interface Banner {
  id: number;
  title: string;
  subtitle: string;
  cta_label: string;
  link: string;
  image: string;
}

export interface HomeData {
  banners: Banner[];
  categories: Category[];
  featured: ProductSummary[];
  new_arrivals: ProductSummary[];
  services: Service[];
}

/** Categories flattened depth-first, with their depth, for a `<select>`. */
export function flattenCategories(tree: Category[], depth = 0): { category: Category; depth: number }[] {
  return tree.flatMap((c) => [{ category: c, depth }, ...flattenCategories(c.children ?? [], depth + 1)]);
}

/** How many the shopper may put in the cart at once: the lower of stock and the per-order maximum. */
export function maxOrderable(p: Pick<ProductSummary, "stock" | "max_per_order" | "in_stock">): number {
  if (!p.in_stock) return 0;
  const cap = p.max_per_order > 0 ? p.max_per_order : p.stock;
  return Math.max(0, Math.min(p.stock, cap));
}

/** Stock under this many shows "only N left". */
export const LOW_STOCK = 5;
