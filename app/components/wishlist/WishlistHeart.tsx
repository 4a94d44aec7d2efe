import { useSyncExternalStore } from "react";
import { onWishlist, savedSlugs } from "../../lib/wishlist/key";
import { loadToggle } from "./loaders";
import { useLocale, useT } from "../../lib/use-locale";
import type { SavedProduct } from "./toggle";

/**
 * A product's heart: pressed while the product is in this browser's wishlist. Only this and the
 * stored slugs are in a page's first load; saving (and the account's copy) loads on the first
 * press (./toggle.ts). On a product's page with a variant chosen, the variant is saved with it.
 */
export function WishlistHeart({ product }: { product: SavedProduct }) {
  const t = useT();
  const locale = useLocale();
  const saved = useSyncExternalStore(
    onWishlist,
    () => savedSlugs().includes(product.slug),
    () => false,
  );
  return (
    <button
      type="button"
      className="wishlist-heart"
      aria-pressed={saved}
      aria-label={t("wishlist.save", { name: product.name })}
      onClick={() => void loadToggle().then((m) => m.toggleHeart(product, locale))}
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
        <path d="M12 20s-7.5-4.6-9.2-9.4A4.9 4.9 0 0 1 12 6.3a4.9 4.9 0 0 1 9.2 4.3C19.5 15.4 12 20 12 20z" />
      </svg>
    </button>
  );
}
