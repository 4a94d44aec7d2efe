import { useEffect, useState } from "react";
import { browserApi } from "../../lib/api/browser";
import { wishlistFacts } from "../../lib/api/wishlist";
import { Link } from "../../lib/link";
import { formatMoney } from "../../lib/money";
import {
  readViewed,
  recordView,
  refreshed,
  shownBeside,
  viewedName,
  writeViewed,
  type ViewedProduct,
} from "../../lib/recently-viewed";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";

/**
 * The strip of products this browser viewed last (lib/recently-viewed.ts), newest first, the one
 * on screen left out. Drawn from what was stored, so it works offline; online, one call reads
 * their current prices. "Clear" forgets them all.
 */
export default function RecentlyViewed({ viewing }: { viewing?: Omit<ViewedProduct, "viewed_at"> }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  const slug = viewing?.slug;
  // Mounted in the browser only, after hydration (RecentlyViewedSlot), and again for each product
  // page (the page's key): the view is recorded as the list is first read. Recording twice is harmless.
  const [list, setList] = useState<ViewedProduct[]>(() => {
    const stored = readViewed();
    if (!viewing) return stored;
    const next = recordView(stored, { ...viewing, viewed_at: new Date().toISOString() });
    writeViewed(next);
    return next;
  });

  useEffect(() => {
    const others = shownBeside(readViewed(), slug);
    if (!others.length || !navigator.onLine) return;
    let live = true;
    wishlistFacts(
      browserApi(locale),
      others.map((v) => ({ slug: v.slug, variant_id: null })),
    )
      .then(({ data }) => {
        if (!live) return;
        const next = refreshed(readViewed(), data);
        writeViewed(next);
        setList(next);
      })
      .catch(() => undefined); // Offline or failing: the stored prices stay.
    return () => {
      live = false;
    };
  }, [slug, locale]);

  const shown = shownBeside(list, slug);
  if (!shown.length) return null;
  return (
    <section className="section recently-viewed" aria-labelledby="recently-viewed-title">
      <div className="section__head">
        <h2 id="recently-viewed-title">{t("recentlyViewed.title")}</h2>
        <button
          type="button"
          className="button button--ghost"
          onClick={() => {
            writeViewed([]);
            setList([]);
          }}
        >
          {t("recentlyViewed.clear")}
        </button>
      </div>
      <ul className="recently-viewed__list" role="list">
        {shown.map((v) => (
          <li key={v.slug}>
            <Link className="recently-viewed__item" to={to(`/product-details/${encodeURIComponent(v.slug)}`)}>
              <img src={v.image} alt="" width={96} height={96} loading="lazy" decoding="async" />
              <span className="recently-viewed__name">{viewedName(v, locale)}</span>
              <bdi className="recently-viewed__price">{formatMoney(v.price, v.currency, locale)}</bdi>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
