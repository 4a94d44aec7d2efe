import { useEffect, useRef, useState } from "react";
import type { Route } from "./+types/reviews.write";
import type { OwnReview, ReviewableProduct } from "../../contract/reviews";
import { ReviewForm } from "../components/reviews/ReviewForm";
import { Stylesheet } from "../components/Stylesheet";
import { getProduct } from "../lib/api/catalogue";
import { ApiError } from "../lib/api/errors";
import { reviewableProducts, reviewEligibility } from "../lib/api/reviews";
import { handleServerError, serverApi } from "../lib/api/server";
import { shopContext } from "../lib/context";
import { translate } from "../lib/i18n";
import { Link } from "../lib/link";
import { routeLocale } from "../lib/loaders";
import { metaLocale, pageMeta } from "../lib/seo";
import { restoreIdentity } from "../lib/tab-storage";
import { tabIdentity } from "../lib/tab-identity.server";
import { useLocalePath, useT } from "../lib/use-locale";
import { authMiddleware } from "../middleware/auth";
import reviewsCss from "../styles/reviews.css?url";

/**
 * Writing a review (signed in; a guest goes to login and comes back): `?order=` lists the products
 * of the shopper's delivered order they may review (a review invitation's link), `?product=` one
 * product (the product page's "Write a review"). Each product has its form; one saved tells the
 * shopper whether it is published or waits for the store's approval.
 */
export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const meta: Route.MetaFunction = (args) => {
  const locale = metaLocale(args);
  return pageMeta(args, {
    page: "reviews",
    title: translate(locale, "reviews.write.title"),
    description: translate(locale, "reviews.write.description"),
    noindex: true,
  });
};

type Refusal = "notDelivered" | "notBought" | "none";

export async function loader({ context, request, params, url }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  const session = await context.get(shopContext).getSession();
  const identity = await tabIdentity(context);
  // A first name to start from: the review shows it beside the text, so the shopper chooses.
  const defaultName = (session?.user.name ?? "").trim().split(/\s+/)[0] ?? "";
  const order = url.searchParams.get("order")?.trim() ?? "";
  const slug = url.searchParams.get("product")?.trim() ?? "";
  const answer = (products: ReviewableProduct[], refusal: Refusal | null = null, message = "") => ({
    products,
    refusal,
    message,
    order,
    identity,
    defaultName,
  });
  try {
    if (order) return answer((await reviewableProducts(api, order)).data);
    if (slug) {
      const [eligibility, product] = await Promise.all([reviewEligibility(api, slug), getProduct(api, slug)]);
      const { can_review, own } = eligibility.data;
      if (!can_review && !own) return answer([], "notBought");
      const { name, image } = product.data;
      return answer([{ slug, name, image, own }]);
    }
    return answer([], "none");
  } catch (error) {
    // An order not delivered yet (403) or not theirs (404, as order pages answer): the backend's words.
    if (order && error instanceof ApiError && (error.status === 403 || error.status === 404))
      return answer([], "notDelivered", error.message);
    handleServerError(error, locale);
    throw error;
  }
}

/** The tab gets the account's token back (a link from an email opens a new tab), so the form can send. */
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const data = await serverLoader();
  restoreIdentity(data.identity);
  return data;
}
clientLoader.hydrate = true as const;

export default function ReviewWrite({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const { products, refusal, message, defaultName } = loaderData;
  const [saved, setSaved] = useState<Record<string, OwnReview>>({});
  const [open, setOpen] = useState<string | null>(
    () => products.find((p) => !p.own)?.slug ?? products[0]?.slug ?? null,
  );

  return (
    <div className="container page review-write">
      <Stylesheet href={reviewsCss} />
      <h1>{t("reviews.write.title")}</h1>
      {refusal ? (
        <div className="notice notice--info" role="status">
          <p>{message || t(`reviews.write.refused.${refusal}`)}</p>
        </div>
      ) : (
        <>
          <p className="review-write__intro">{t("reviews.write.intro")}</p>
          <ul className="review-write__products" role="list">
            {products.map((product, i) => (
              <li key={product.slug}>
                <ProductReview
                  product={product}
                  index={i}
                  saved={saved[product.slug] ?? null}
                  open={open === product.slug}
                  defaultName={defaultName}
                  onOpen={() => setOpen(product.slug)}
                  onSaved={(review) => {
                    const next = { ...saved, [product.slug]: review };
                    setSaved(next);
                    // The next product still to review opens; none: the page is done.
                    setOpen(products.find((p) => !p.own && !next[p.slug])?.slug ?? null);
                  }}
                />
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/** One product of the page: its name, the state of the shopper's review, and its form when open. */
function ProductReview({
  product,
  index,
  saved,
  open,
  defaultName,
  onOpen,
  onSaved,
}: {
  product: ReviewableProduct;
  index: number;
  saved: OwnReview | null;
  open: boolean;
  defaultName: string;
  onOpen: () => void;
  onSaved: (review: OwnReview) => void;
}) {
  const t = useT();
  const to = useLocalePath();
  const thanks = useRef<HTMLDivElement>(null);
  const own = saved ?? product.own;
  const productHref = to(`/product-details/${encodeURIComponent(product.slug)}`);
  const headingId = `review-product-${index}`;
  // The form goes once saved: the thanks take the focus it had, and say what happens next.
  useEffect(() => {
    if (saved) thanks.current?.focus();
  }, [saved]);
  return (
    <section className="card review-write__product" aria-labelledby={headingId} data-product={product.slug}>
      <div className="review-write__head">
        {product.image ? <img src={product.image} alt="" width={64} height={64} loading="lazy" /> : null}
        <h2 id={headingId}>
          <Link to={productHref}>{product.name}</Link>
        </h2>
      </div>
      {saved && !open ? (
        <div className="notice notice--ok review-write__done" role="status" tabIndex={-1} ref={thanks}>
          <p>{t(saved.status === "published" ? "reviews.write.thanksPublished" : "reviews.write.thanksPending")}</p>
          {saved.status === "published" ? (
            <p>
              <Link to={`${productHref}#reviews`}>{t("reviews.write.seeIt")}</Link>
            </p>
          ) : null}
        </div>
      ) : own ? (
        <p className="review-write__status">
          {t(`reviews.own.${own.status}`)}
          {own.status === "rejected" && own.reject_reason
            ? ` ${t("reviews.own.because", { reason: own.reject_reason })}`
            : ""}
        </p>
      ) : null}
      {open ? (
        <ReviewForm
          key={own ? own.id : "new"}
          product={product}
          own={own}
          defaultName={defaultName}
          idPrefix={`review-${index}`}
          onDone={onSaved}
        />
      ) : (
        <p>
          <button type="button" className="button" onClick={onOpen}>
            {own ? t("reviews.own.edit") : t("reviews.write.button")}
          </button>
        </p>
      )}
    </section>
  );
}
