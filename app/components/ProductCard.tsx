import { Link } from "../lib/link";
import { Stylesheet } from "./Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";
import type { CardProduct } from "../lib/catalogue";
import { useLocalePath, useT } from "../lib/use-locale";
import { CompareToggle } from "./CompareToggle";
import { variantQuery } from "../lib/variants";
import { Price } from "./Price";
import { StockBadge } from "./StockBadge";
import { WishlistHeart } from "./wishlist/WishlistHeart";
import { Rating } from "./reviews/Stars";

/** A product of a grid, with its prices formatted by the server when the loader did so (`cardsOf`). */
export type { CardProduct };

export interface ProductCardProps {
  product: CardProduct;
  /**
   * Above the fold: load the image eagerly, with high priority when it is the LCP image. The other
   * eager images say low: React's server renderer preloads up to ten eager images of a page ahead
   * of its stylesheets, and over HTTP/1.1 they would take connections the render-blocking CSS needs
   * (docs/PERFORMANCE.md, "First paint under simulated slow 4G"). Low, the browser still finds them
   * in the markup and asks for them without waiting for layout, after the CSS.
   */
  priority?: "lcp" | "eager" | "lazy";
  /** The heading level of the product name within the page's outline. */
  headingLevel?: 2 | 3;
}

/** The square the card image is drawn into; the product art is square. */
export const CARD_IMAGE_SIZE = 320;

/** A product in a grid: image, brand, name, price, stock; the whole card links to the product. */
export function ProductCard({ product, priority = "lazy", headingLevel = 3 }: ProductCardProps) {
  const t = useT();
  const to = useLocalePath();
  // A search that named a variant ("iphone 256") opens the page on it.
  const href = `${to(`/product-details/${encodeURIComponent(product.slug)}`)}${variantQuery(product.chosen)}`;
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const onSale = product.compare_at_price !== null && product.compare_at_price > product.price;
  return (
    <article className="product-card">
      <Stylesheet href={catalogueCss} />
      <div className="product-card__media">
        <img
          src={product.image}
          alt=""
          width={CARD_IMAGE_SIZE}
          height={CARD_IMAGE_SIZE}
          loading={priority === "lazy" ? "lazy" : "eager"}
          decoding="async"
          fetchPriority={priority === "lcp" ? "high" : priority === "eager" ? "low" : undefined}
        />
        {/* Only when there is a flag: most cards have none, and every element is render time. */}
        {product.is_new || onSale ? (
          <span className="product-card__flags">
            {product.is_new ? <span className="flag flag--new">{t("catalogue.new")}</span> : null}
            {onSale ? <span className="flag flag--sale">{t("catalogue.sale")}</span> : null}
          </span>
        ) : null}
        <WishlistHeart product={product} />
      </div>
      <div className="product-card__body">
        {product.brand ? <p className="product-card__brand">{product.brand.name}</p> : null}
        <Heading className="product-card__name">
          <Link to={href} className="product-card__link">
            {product.name}
          </Link>
        </Heading>
        <p className="product-card__model muted">
          {/* One text node: two would need a separator comment in the HTML. */}
          <span className="visually-hidden">{`${t("catalogue.model")}: `}</span>
          <bdi>{product.model}</bdi>
        </p>
        <Rating rating={product.rating} />
        <div className="product-card__foot">
          <Price
            price={product.price}
            compareAt={product.compare_at_price}
            currency={product.currency}
            label={product.price_label}
            compareLabel={product.compare_at_label}
          />
          <StockBadge stock={product.stock} inStock={product.in_stock} />
        </div>
        {product.group ? (
          <CompareToggle item={{ slug: product.slug, name: product.name }} group={product.group} />
        ) : null}
      </div>
    </article>
  );
}

/** A responsive grid of product cards; the first `eager` cards load eagerly (above the fold). */
export function ProductGrid({
  products,
  eager = 0,
  lcp = false,
  headingLevel = 3,
}: {
  products: CardProduct[];
  eager?: number;
  lcp?: boolean;
  headingLevel?: 2 | 3;
}) {
  return (
    <ul className="product-grid" role="list">
      {products.map((p, i) => (
        <li key={p.id}>
          <ProductCard
            product={p}
            headingLevel={headingLevel}
            priority={i === 0 && lcp ? "lcp" : i < eager ? "eager" : "lazy"}
          />
        </li>
      ))}
    </ul>
  );
}
