import { data } from "react-router";
import type { Route } from "./+types/wishlist.shared.$token";
import { Stylesheet } from "../components/Stylesheet";
import { ApiError } from "../lib/api/errors";
import { serverApi } from "../lib/api/server";
import { getSharedWishlist } from "../lib/api/wishlist";
import { translate } from "../lib/i18n";
import { Link } from "../lib/link";
import { failLoad, routeLocale } from "../lib/loaders";
import { formatMoney } from "../lib/money";
import { metaLocale, pageMeta } from "../lib/seo";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { variantQuery } from "../lib/variants";
import catalogueCss from "../styles/catalogue.css?url";
import wishlistCss from "../styles/wishlist.css?url";

/**
 * A wishlist someone shared, read-only, for anyone with the link: the products still on sale as
 * they are now, and the owner's first name at most. A revoked or replaced link is a page that says
 * so (404). Never indexed, never kept in the page cache: its owner may revoke it at any time.
 */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  try {
    const shared = await getSharedWishlist(api, params.token);
    return { list: shared.data, gone: false };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return data({ list: null, gone: true }, { status: 404 });
    }
    failLoad(error, locale);
  }
}

export const meta: Route.MetaFunction = (args) => {
  const locale = metaLocale(args);
  const owner = args.loaderData?.list?.owner;
  return pageMeta(args, {
    page: "wishlist",
    noindex: true,
    title: owner
      ? translate(locale, "wishlist.sharedTitleOf", { name: owner })
      : translate(locale, "wishlist.sharedTitle"),
    description: translate(locale, "wishlist.sharedDescription"),
  });
};

export default function SharedWishlistPage({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const list = loaderData.list;
  return (
    <div className="container page wishlist-page">
      <Stylesheet href={catalogueCss} />
      <Stylesheet href={wishlistCss} />
      <div className="page-head">
        <h1>{list?.owner ? t("wishlist.sharedTitleOf", { name: list.owner }) : t("wishlist.sharedTitle")}</h1>
      </div>
      {!list ? (
        <div className="empty-state">
          <p>{t("wishlist.sharedGone")}</p>
          <Link className="button button--primary" to={to("/products")}>
            {t("wishlist.browse")}
          </Link>
        </div>
      ) : (
        <>
          <p className="muted">{t("wishlist.sharedReadOnly")}</p>
          {list.items.length === 0 ? (
            <p className="empty-state">{t("wishlist.sharedEmpty")}</p>
          ) : (
            <ul className="wishlist" role="list" aria-label={t("wishlist.itemsLabel")}>
              {list.items.map((item) => (
                <li key={item.slug} className="wishlist__item">
                  <img src={item.image} alt="" width={96} height={96} loading="lazy" decoding="async" />
                  <div className="wishlist__info">
                    <Link
                      className="wishlist__name"
                      to={`${to(`/product-details/${encodeURIComponent(item.slug)}`)}${variantQuery(item.variant_options ?? undefined)}`}
                    >
                      {item.name}
                    </Link>
                    {item.variant_title ? <p className="muted">{item.variant_title}</p> : null}
                    <p className="wishlist__price">
                      <bdi>{formatMoney(item.price, item.currency, locale)}</bdi>
                    </p>
                    <p className={item.in_stock ? "muted" : "wishlist__change wishlist__change--sold_out"}>
                      {item.in_stock ? t("product.inStock") : t("wishlist.soldOut")}
                    </p>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}
