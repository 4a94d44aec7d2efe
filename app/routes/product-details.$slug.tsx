import { useState } from "react";
import { useSearchParams } from "react-router";
import { unlessOnlyQueryChanged } from "../lib/revalidation";
import type { Route } from "./+types/product-details.$slug";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { AddToCart } from "../components/AddToCart";
import { BackButton } from "../components/BackButton";
import { CompareToggle } from "../components/CompareToggle";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { Gallery } from "../components/Gallery";
import { PlainText } from "../components/PlainText";
import { Price } from "../components/Price";
import { ProductGrid } from "../components/ProductCard";
import { clampQuantity, QuantityPicker } from "../components/QuantityPicker";
import { StockBadge } from "../components/StockBadge";
import { VariantPicker } from "../components/VariantPicker";
import { StockAlert } from "../components/stock-alerts/StockAlert";
import { getProduct } from "../lib/api/catalogue";
import { serverApi } from "../lib/api/server";
import { cardsOf, maxOrderable } from "../lib/catalogue";
import { translate } from "../lib/i18n";
import { failLoad, routeLocale } from "../lib/loaders";
import { formatMoney, withPriceLabels } from "../lib/money";
import { chooseVariant, pickersFor } from "../lib/variants";
import { productStructuredData } from "../lib/product-structured-data";
import { specificationGroups } from "../lib/specifications";
import { breadcrumbList, jsonLd, metaLocale, metaOrigin, pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import { InstalmentLine } from "../components/InstalmentLine";
import { DeliveryPromise } from "../components/DeliveryPromise";
import { QuestionsSlot } from "../components/questions/QuestionsSlot";
import { instalmentTexts } from "../lib/instalments";
import catalogueCss from "../styles/catalogue.css?url";
import { WishlistHeart } from "../components/wishlist/WishlistHeart";
import { RecentlyViewedSlot } from "../components/recently-viewed/RecentlyViewedSlot";
import { Rating } from "../components/reviews/Stars";
import { ReviewsSlot } from "../components/reviews/ReviewsSlot";
import { ratingStructuredData, schemaReviews } from "../lib/reviews.server";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  try {
    // The few published reviews its structured data names, read beside the product (not after it).
    const [{ data }, reviews] = await Promise.all([getProduct(api, params.slug), schemaReviews(api, params.slug)]);
    // The typed attributes reach the page as formatted rows, not twice.
    const [{ attributes: _typed, instalments: rules, ...product }] = withPriceLabels([data], locale);
    // The pay-later lines are worded here for the same reason, for the product and each variant.
    const lines = (price: number) => instalmentTexts(rules, price, data.currency, locale);
    return {
      product: {
        ...product,
        instalment_lines: lines(data.price),
        // Each variant's prices formatted here too: a choice in the browser builds no Intl formatter.
        variants: withPriceLabels(
          (data.variants ?? []).map((v) => ({ ...v, currency: data.currency, instalment_lines: lines(v.price) })),
          locale,
        ),
        specifications: specificationGroups(data, locale),
        related: cardsOf(data.related.slice(0, 8), locale),
      },
      // The rating's JSON-LD, made here: the page's script needs none of that code.
      ratingData: ratingStructuredData(data.rating, reviews),
    };
  } catch (error) {
    failLoad(error, locale);
  }
}

/**
 * Choosing another variant changes only the page's query (the choice): the data the page has
 * already holds every variant, so it is not loaded again. Any other navigation loads as usual.
 */
export const shouldRevalidate = unlessOnlyQueryChanged;

/** The first sentence-sized part of a description, for the meta description. */
function summary(text: string, max = 155): string {
  const flat = text
    .replace(/^##\s.*$/gm, "")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).replace(/\s+\S*$/, "")}…`;
}

export const meta: Route.MetaFunction = (args) => {
  const product = args.loaderData?.product;
  if (!product) return pageMeta(args, { page: "product" });
  const locale = metaLocale(args);
  const origin = metaOrigin(args);
  const t = (key: string, p?: Record<string, string | number>) => translate(locale, key, p);
  const url = `${origin}/${locale}/product-details/${encodeURIComponent(product.slug)}`;
  const abs = (src: string) => (src.startsWith("http") ? src : `${origin}${src}`);
  const images = (product.images.length ? product.images : [product.image]).map(abs);
  const description =
    product.seo_description ||
    summary(product.description) ||
    t("seo.productDescription", { name: product.name, price: formatMoney(product.price, product.currency, locale) });
  return pageMeta(args, {
    page: "product",
    title: product.seo_title || product.name,
    fullTitle: Boolean(product.seo_title),
    description,
    extra: [
      { property: "og:type", content: "product" },
      { property: "og:image", content: images[0] },
      jsonLd(
        productStructuredData(
          product,
          { url, images, abs, description: summary(product.description, 5000) },
          args.loaderData?.ratingData,
        ),
      ),
      breadcrumbList([
        { name: t("catalogue.home"), url: `${origin}/${locale}` },
        { name: t("catalogue.products"), url: `${origin}/${locale}/products` },
        ...product.breadcrumbs.map((c) => ({
          name: c.name,
          url: `${origin}/${locale}/products?category=${encodeURIComponent(c.slug)}`,
        })),
        { name: product.name, url },
      ]),
    ],
  });
};

export default function ProductDetailsPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  const locale = useLocale();
  const [params] = useSearchParams();
  const options = loaderData.product.options ?? [];
  const variants = loaderData.product.variants ?? [];
  // The variant the URL chooses; what the page sells (price, stock, SKU, images) is that variant's.
  const variant = options.length ? chooseVariant(options, variants, params) : null;
  const product = variant
    ? {
        ...loaderData.product,
        sku: variant.sku,
        price: variant.price,
        compare_at_price: variant.compare_at_price,
        stock: variant.stock,
        in_stock: variant.in_stock,
        max_per_order: variant.max_per_order,
        images: variant.images.length ? variant.images : loaderData.product.images,
        price_label: variant.price_label,
        compare_at_label: variant.compare_at_label,
        instalment_lines: variant.instalment_lines,
      }
    : loaderData.product;
  const pickers = variant ? pickersFor(options, variants, variant) : [];
  // The picker never offers more than can be bought: min(stock, max_per_order), 0 when sold out.
  // The stock is at most the page cache's 5 s old (worker/page-cache.ts); should a revalidation
  // bring a lower stock, the picked quantity follows it down.
  const max = maxOrderable(product);
  const [picked, setQuantity] = useState(() => clampQuantity(1, max));
  const quantity = clampQuantity(picked, max);
  const images = product.images.length ? product.images : [product.image];
  return (
    <div className="container page product" key={product.slug}>
      <Stylesheet href={catalogueCss} />
      <BackButton />
      <Breadcrumbs
        items={[
          { name: t("catalogue.home"), to: to("/") },
          { name: t("catalogue.products"), to: to("/products") },
          ...product.breadcrumbs.map((c) => ({
            name: c.name,
            to: `${to("/products")}?category=${encodeURIComponent(c.slug)}`,
          })),
          { name: product.name },
        ]}
      />
      <div className="product__main">
        <Gallery
          key={images.join(" ")}
          images={images}
          name={variant ? `${product.name} (${variant.title})` : product.name}
        />
        <div className="product__buy">
          {product.brand ? <p className="product__brand">{product.brand.name}</p> : null}
          <div className="product__title">
            <h1 className="product__name">{product.name}</h1>
            {/* The variant chosen in the URL is saved with the product (docs: README, "Wishlist"). */}
            <WishlistHeart product={{ ...product, image: images[0], variant_id: variant?.id ?? null }} />
          </div>
          <Rating rating={product.rating} href="#reviews" />
          <dl className="product__ids">
            <div>
              <dt>{t("product.model")}</dt>
              <dd>
                <bdi>{product.model}</bdi>
              </dd>
            </div>
            <div>
              <dt>{t("product.sku")}</dt>
              <dd>
                <bdi>{product.sku}</bdi>
              </dd>
            </div>
          </dl>
          {pickers.length ? (
            <VariantPicker pickers={pickers} base={to(`/product-details/${encodeURIComponent(product.slug)}`)} />
          ) : null}
          <div className="product__price">
            <Price
              price={product.price}
              compareAt={product.compare_at_price}
              currency={product.currency}
              size="lg"
              label={product.price_label}
              compareLabel={product.compare_at_label}
            />
            <p className="muted product__vat">{t("product.vatIncluded")}</p>
            <InstalmentLine lines={product.instalment_lines} />
          </div>
          <p className="product__stock">
            <StockBadge stock={product.stock} inStock={product.in_stock} long />
          </p>
          {/* Fetched after hydration, never part of the cached page: see components/DeliveryPromise.tsx. */}
          {product.in_stock ? <DeliveryPromise /> : null}
          <div className="product__order">
            <QuantityPicker value={quantity} max={max} onChange={setQuantity} />
            {/* The per-order limit, when it is what bounds the picker; a lower stock says so in the stock
                line. With variants its line stays, empty, so another choice does not move the button. */}
            {max > 0 && product.max_per_order > 0 && product.max_per_order < product.stock ? (
              <p className="muted product__limit">{t("product.maxPerOrder", { count: product.max_per_order })}</p>
            ) : variant ? (
              <p className="muted product__limit" />
            ) : null}
            <AddToCart
              productId={product.id}
              variantId={variant?.id}
              maxQuantity={max}
              quantity={quantity}
              seen={{
                product_id: product.id,
                variant_id: variant?.id,
                variant: variant?.title || null,
                options: variant?.options ?? {},
                quantity: 0,
                product,
              }}
            />
          </div>
          {/* Sold out: the shopper may ask to be told once when this choice is back (a new choice, a new form). */}
          {max < 1 ? (
            <StockAlert
              key={variant?.id ?? product.id}
              productId={product.id}
              variantId={variant?.id}
              name={variant ? `${product.name} (${variant.title})` : product.name}
            />
          ) : null}
          <CompareToggle
            item={{ slug: product.slug, name: product.name }}
            group={product.breadcrumbs[0]?.slug ?? product.category.slug}
          />
        </div>
      </div>
      <div className="product__info">
        {product.description ? (
          <section aria-labelledby="product-description">
            <h2 id="product-description">{t("product.description")}</h2>
            <PlainText body={product.description} level={3} />
          </section>
        ) : null}
        {product.specifications.length > 0 ? (
          <section aria-labelledby="product-specs">
            <h2 id="product-specs">{t("product.specifications")}</h2>
            {product.specifications.map((group) => (
              <table className="specs" key={group.heading ?? ""}>
                {group.heading ? <caption>{group.heading}</caption> : null}
                <tbody>
                  {group.rows.map((s, i) => (
                    <tr key={`${i}-${s.label}`}>
                      <th scope="row">{s.label}</th>
                      <td>
                        <bdi>{s.value}</bdi>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
          </section>
        ) : null}
      </div>
      <ReviewsSlot slug={product.slug} rating={product.rating} />
      {product.related.length > 0 ? (
        <section className="section" aria-labelledby="related-title">
          <h2 id="related-title">{t("product.related")}</h2>
          <ProductGrid products={product.related} />
        </section>
      ) : null}
      {/* Loads once it nears the viewport, after the page is usable: components/questions/QuestionsSlot.tsx. */}
      <QuestionsSlot slug={product.slug} />
      <RecentlyViewedSlot
        viewing={{
          slug: product.slug,
          names: { [locale]: loaderData.product.name },
          image: loaderData.product.image,
          price: loaderData.product.price,
          currency: product.currency,
        }}
      />
    </div>
  );
}
