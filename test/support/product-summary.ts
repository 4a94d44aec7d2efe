import type { ProductSummary } from "../../app/lib/catalogue";

/** A product as the cart and the lists carry it, for the browser-side unit tests. */
export function productSummary(id: number, price: number, stock = 10, max_per_order = 5): ProductSummary {
  return {
    id,
    slug: `p-${id}`,
    sku: `SKU-${id}`,
    model: `M-${id}`,
    name: `Product ${id}`,
    brand: null,
    category: { id: 1, slug: "c", name: "C" },
    price,
    compare_at_price: null,
    currency: "SAR",
    stock,
    in_stock: stock > 0,
    max_per_order,
    image: "/x.svg",
    images: [],
    is_featured: false,
    is_new: false,
  };
}
