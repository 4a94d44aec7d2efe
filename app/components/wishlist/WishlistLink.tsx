import { useSyncExternalStore } from "react";
import { Link } from "../../lib/link";
import { useLocalePath, useT } from "../../lib/use-locale";
import { onWishlist, savedSlugs } from "../../lib/wishlist/key";

/**
 * The header's way to the wishlist, with how many products it holds (this browser's copy, so
 * after hydration). Its heart is drawn by app.css: every page loads this.
 */
export function WishlistLink() {
  const t = useT();
  const to = useLocalePath();
  const count = useSyncExternalStore(
    onWishlist,
    () => savedSlugs().length,
    () => 0,
  );
  return (
    <Link className="icon-button icon-button--wishlist" to={to("/wishlist")}>
      <span className="icon-button__label">{t("wishlist.nav")}</span>
      {count > 0 ? (
        <>
          <span className="visually-hidden">, {t("wishlist.count", { count })}</span>
          <span className="badge" aria-hidden="true">
            <bdi>{count}</bdi>
          </span>
        </>
      ) : null}
    </Link>
  );
}
