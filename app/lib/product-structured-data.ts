import type { ProductOption, ProductSummary, ProductVariant } from "../../contract/catalogue";
import { toDecimalString } from "./money";
import { variantQuery } from "./variants";

/**
 * A product page's schema.org data: a `Product` with its offer, or, for a product of several
 * variants, a `ProductGroup` with `hasVariant` (each variant a `Product` with its own SKU, GTIN,
 * images and offer at its own URL) and `variesBy`, as Google's variant guidance asks. Options that
 * schema.org names (colour, size, material, pattern) are referred to by their property's URL and
 * set on each variant; any other (storage) is named as text and given as an additionalProperty.
 */

const SCHEMA_PROPERTIES: Record<string, "color" | "size" | "material" | "pattern"> = {
  colour: "color",
  color: "color",
  size: "size",
  screen_size: "size",
  material: "material",
  pattern: "pattern",
};

type Described = Pick<
  ProductSummary,
  "name" | "sku" | "model" | "currency" | "price" | "in_stock" | "brand" | "category"
> & {
  description: string;
  options?: ProductOption[];
  variants?: ProductVariant[];
  specifications: { rows: { label: string; value: string }[] }[];
};

const availability = (inStock: boolean) => (inStock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock");

function offer(url: string, price: number, currency: string, inStock: boolean) {
  return {
    "@type": "Offer",
    url,
    price: toDecimalString(price, currency),
    priceCurrency: currency,
    availability: availability(inStock),
    itemCondition: "https://schema.org/NewCondition",
  };
}

/**
 * `rating`: the product's `aggregateRating` and `review` properties, made by the loader
 * (lib/review-structured-data.ts) so the page's script carries none of that code.
 */
export function productStructuredData(
  product: Described,
  at: { url: string; images: string[]; abs: (src: string) => string; description: string },
  rating: Record<string, unknown> = {},
): Record<string, unknown> {
  const common = {
    name: product.name,
    description: at.description,
    image: at.images,
    url: at.url,
    category: product.category.name,
    ...(product.brand ? { brand: { "@type": "Brand", name: product.brand.name } } : {}),
    // The specification table's rows, as read on the page (typed values with their units).
    additionalProperty: product.specifications
      .flatMap((group) => group.rows)
      .map((row) => ({ "@type": "PropertyValue", name: row.label, value: row.value })),
    ...rating,
  };
  const options = product.options ?? [];
  const variants = product.variants ?? [];
  if (!options.length || variants.length < 2)
    return {
      "@type": "Product",
      ...common,
      sku: product.sku,
      mpn: product.model,
      offers: offer(at.url, product.price, product.currency, product.in_stock),
    };
  const valueName = (option: ProductOption, code: string | undefined) =>
    option.values.find((v) => v.code === code)?.name ?? "";
  return {
    "@type": "ProductGroup",
    ...common,
    productGroupID: product.sku,
    variesBy: options.map((o) =>
      SCHEMA_PROPERTIES[o.code] ? `https://schema.org/${SCHEMA_PROPERTIES[o.code]}` : o.name,
    ),
    hasVariant: variants.map((variant) => {
      const url = `${at.url}${variantQuery(variant.options)}`;
      const named = Object.fromEntries(
        options
          .filter((o) => SCHEMA_PROPERTIES[o.code])
          .map((o) => [SCHEMA_PROPERTIES[o.code], valueName(o, variant.options[o.code])]),
      );
      const others = options
        .filter((o) => !SCHEMA_PROPERTIES[o.code])
        .map((o) => ({ "@type": "PropertyValue", name: o.name, value: valueName(o, variant.options[o.code]) }));
      return {
        "@type": "Product",
        sku: variant.sku,
        ...(variant.barcode ? { gtin: variant.barcode } : {}),
        name: `${product.name} (${variant.title})`,
        image: variant.images.length ? variant.images.map(at.abs) : at.images,
        url,
        ...named,
        ...(others.length ? { additionalProperty: others } : {}),
        offers: offer(url, variant.price, product.currency, variant.in_stock),
      };
    }),
  };
}
