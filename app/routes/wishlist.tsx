import { useState, useSyncExternalStore } from "react";
import type { Route } from "./+types/wishlist";
import { wishlistChanges, type WishlistFacts } from "../../contract/wishlist";
import { toast } from "../client/toast";
import { AddToCart } from "../components/AddToCart";
import { Stylesheet } from "../components/Stylesheet";
import { browserApi } from "../lib/api/browser";
import { getWishlist, revokeWishlistShare, shareWishlist, wishlistFacts } from "../lib/api/wishlist";
import { Link } from "../lib/link";
import type { Locale } from "../lib/locales";
import { formatMoney } from "../lib/money";
import { formatDate } from "../lib/orders";
import { variantQuery } from "../lib/variants";
import { metaLocale, pageMeta } from "../lib/seo";
import { translate } from "../lib/i18n";
import { readStored } from "../lib/tab-storage";
import { useLocale, useLocalePath, useT } from "../lib/use-locale";
import { onWishlist } from "../lib/wishlist/key";
import { EMPTY_WISHLIST, mirrorAccount, readWishlist, writeWishlist, type LocalItem } from "../lib/wishlist/local";
import { syncWishlist, toggleSaved } from "../lib/wishlist/sync";
import catalogueCss from "../styles/catalogue.css?url";
import wishlistCss from "../styles/wishlist.css?url";

/** One shopper's list: never indexed. */
export const meta: Route.MetaFunction = (args) => {
  const locale = metaLocale(args);
  return pageMeta(args, {
    page: "wishlist",
    noindex: true,
    title: translate(locale, "wishlist.title"),
    description: translate(locale, "wishlist.description"),
  });
};

/**
 * Rendered on the client only: the list lives in this browser (lib/wishlist/local.ts), and so
 * the page works offline with what was saved. Online, the current facts of the saved products
 * are read (a guest's by slug, an account's with its list, after the browser's changes are sent).
 */
export async function clientLoader({ params }: Route.ClientLoaderArgs) {
  const locale: Locale = params.locale === "ar" ? "ar" : "en";
  const signedIn = readStored("token") !== null;
  let facts: Record<string, WishlistFacts> | null = null;
  let shared = false;
  if (navigator.onLine) {
    try {
      const api = browserApi(locale);
      if (signedIn) {
        await syncWishlist(locale, true);
        const { data } = await getWishlist(api);
        const userId = readStored("userId");
        if (userId) writeWishlist(mirrorAccount(readWishlist(), userId, data.items, locale));
        facts = Object.fromEntries(data.items.map((i) => [i.slug, i]));
        shared = data.shared;
      } else {
        const { items } = readWishlist();
        const { data } = items.length
          ? await wishlistFacts(
              api,
              items.map(({ slug, variant_id }) => ({ slug, variant_id })),
            )
          : { data: [] };
        facts = Object.fromEntries(data.map((f) => [f.slug, f]));
      }
    } catch {
      facts = null; // Unreachable: the list as saved.
    }
  }
  return { facts, shared, signedIn };
}
clientLoader.hydrate = true as const;

/** The page's head and loading line, shared by the server's fallback and the page (see shopping-cart.tsx). */
function Head() {
  const t = useT();
  return (
    <div className="page-head">
      <Stylesheet href={catalogueCss} />
      <Stylesheet href={wishlistCss} />
      <h1>{t("wishlist.title")}</h1>
    </div>
  );
}

export function HydrateFallback() {
  const t = useT();
  return (
    <div className="container page wishlist-page">
      <Head />
      <p className="wishlist-loading" aria-busy="true">
        {t("wishlist.loading")}
      </p>
    </div>
  );
}

export default function WishlistPage({ loaderData }: Route.ComponentProps) {
  const { facts, signedIn } = loaderData;
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const list = useSyncExternalStore(onWishlist, readWishlist, () => EMPTY_WISHLIST);
  return (
    <div className="container page wishlist-page">
      <Head />
      {facts === null && list.items.length > 0 ? (
        <p className="notice" role="status">
          {t("wishlist.offline")}
        </p>
      ) : null}
      {list.items.length === 0 ? (
        <div className="empty-state">
          <p>{t("wishlist.empty")}</p>
          <Link className="button button--primary" to={to("/products")}>
            {t("wishlist.browse")}
          </Link>
        </div>
      ) : (
        <ul className="wishlist" role="list" aria-label={t("wishlist.itemsLabel")}>
          {list.items.map((item) => (
            <WishlistEntry key={item.slug} item={item} now={facts?.[item.slug]} online={facts !== null} />
          ))}
        </ul>
      )}
      {signedIn ? (
        <ShareWishlist initiallyShared={loaderData.shared} />
      ) : (
        <p className="muted wishlist__guest">
          {t("wishlist.guestNote")}{" "}
          <Link to={`${to("/auth/login")}?redirect=${encodeURIComponent(`/${locale}/wishlist`)}`}>
            {t("wishlist.signIn")}
          </Link>
        </p>
      )}
    </div>
  );
}

/** One saved product: what it is now beside what it was when saved, to buy or remove. */
function WishlistEntry({ item, now, online }: { item: LocalItem; now: WishlistFacts | undefined; online: boolean }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const name = now?.name ?? item.names[locale] ?? Object.values(item.names)[0] ?? item.slug;
  const money = (minor: number) => formatMoney(minor, now?.currency ?? item.currency, locale);
  // Online, a product the backend no longer knows is no longer sold.
  const facts = now ?? (online ? { price: item.saved_price, in_stock: false, available: false } : null);
  const changes = facts ? wishlistChanges({ price: item.saved_price, in_stock: item.saved_in_stock }, facts) : [];
  const href = `${to(`/product-details/${encodeURIComponent(item.slug)}`)}${variantQuery(now?.variant_options ?? undefined)}`;
  const sellable = now?.available === true;
  return (
    <li className="wishlist__item">
      <img src={now?.image ?? item.image} alt="" width={96} height={96} loading="lazy" decoding="async" />
      <div className="wishlist__info">
        <Link to={href} className="wishlist__name">
          {name}
        </Link>
        {now?.variant_title ? <p className="muted">{now.variant_title}</p> : null}
        <p className="wishlist__price">
          <bdi>{money(now?.price ?? item.saved_price)}</bdi>
        </p>
        {changes.length ? (
          <ul className="wishlist__changes" role="list">
            {changes.map((c) => (
              <li key={c.kind} className={`wishlist__change wishlist__change--${c.kind}`}>
                {c.kind === "price_dropped"
                  ? t("wishlist.priceDropped", { from: money(c.from), to: money(c.to) })
                  : c.kind === "price_rose"
                    ? t("wishlist.priceRose", { from: money(c.from), to: money(c.to) })
                    : c.kind === "back_in_stock"
                      ? t("wishlist.backInStock")
                      : c.kind === "sold_out"
                        ? t("wishlist.soldOut")
                        : t("wishlist.gone")}
              </li>
            ))}
          </ul>
        ) : null}
        <p className="muted wishlist__saved">{t("wishlist.savedOn", { date: formatDate(item.saved_at, locale) })}</p>
      </div>
      <div className="wishlist__actions">
        {sellable && now.variant_count > 1 && now.variant_id === null ? (
          <Link className="button" to={href}>
            {t("wishlist.chooseOptions")}
          </Link>
        ) : sellable ? (
          <AddToCart
            productId={now.product_id}
            variantId={now.variant_id ?? undefined}
            maxQuantity={now.in_stock ? 1 : 0}
            quantity={1}
          />
        ) : null}
        <button
          type="button"
          className="button button--ghost"
          aria-label={t("wishlist.removeOne", { name })}
          onClick={() => {
            toggleSaved(item, locale, readStored("token") !== null);
            toast.success(t("wishlist.removed", { name }));
          }}
        >
          {t("wishlist.remove")}
        </button>
      </div>
    </li>
  );
}

/**
 * "Share my wishlist": a new link (the old one stops working), copied to the clipboard, and shown
 * in a field too, since a browser may refuse the clipboard. "Stop sharing" ends the link.
 */
function ShareWishlist({ initiallyShared }: { initiallyShared: boolean }) {
  const t = useT();
  const locale = useLocale();
  const [shared, setShared] = useState(initiallyShared);
  const [link, setLink] = useState("");
  const [busy, setBusy] = useState(false);
  const share = async () => {
    setBusy(true);
    try {
      const { data } = await shareWishlist(browserApi(locale));
      const url = `${location.origin}/${locale}/wishlist/shared/${data.token}`;
      setLink(url);
      setShared(true);
      try {
        await navigator.clipboard.writeText(url);
        toast.success(t("wishlist.shareCopied"));
      } catch {
        toast(t("wishlist.shareCopyFailed"));
      }
    } catch {
      toast.error(t("wishlist.shareFailed"));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async () => {
    setBusy(true);
    try {
      await revokeWishlistShare(browserApi(locale));
      setShared(false);
      setLink("");
      toast.success(t("wishlist.shareRevoked"));
    } catch {
      toast.error(t("wishlist.shareFailed"));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="wishlist-share" aria-labelledby="wishlist-share-title">
      <h2 id="wishlist-share-title" className="visually-hidden">
        {t("wishlist.share")}
      </h2>
      <p className="muted">{t("wishlist.shareNote")}</p>
      <div className="wishlist-share__actions">
        <button type="button" className="button button--primary" onClick={() => void share()} disabled={busy}>
          {shared ? t("wishlist.shareNew") : t("wishlist.share")}
        </button>
        {shared ? (
          <button type="button" className="button button--ghost" onClick={() => void revoke()} disabled={busy}>
            {t("wishlist.shareRevoke")}
          </button>
        ) : null}
      </div>
      {link ? (
        <label className="wishlist-share__link">
          <span>{t("wishlist.shareLink")}</span>
          <input type="url" readOnly value={link} onFocus={(e) => e.currentTarget.select()} />
        </label>
      ) : null}
    </section>
  );
}
