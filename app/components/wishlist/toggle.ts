import { toast } from "../../client/toast";
import { MAX_WISHLIST } from "../../../contract/wishlist";
import { translate } from "../../lib/i18n";
import type { Locale } from "../../lib/locales";
import { readStored } from "../../lib/tab-storage";
import { toggleSaved } from "../../lib/wishlist/sync";

/** What a heart saves of its product: enough to show it in the list offline. */
export interface SavedProduct {
  slug: string;
  name: string;
  image: string;
  /** Halalas, now. */
  price: number;
  currency: string;
  in_stock: boolean;
  /** The variant chosen on the product's page, if any. */
  variant_id?: number | null;
}

/** A heart's press: the product saved or taken out, said in a toast (a full list refuses it). */
export function toggleHeart(product: SavedProduct, locale: Locale): void {
  const t = (key: string, params?: Record<string, string | number>) => translate(locale, key, params);
  const outcome = toggleSaved(
    {
      slug: product.slug,
      variant_id: product.variant_id ?? null,
      saved_at: new Date().toISOString(),
      saved_price: product.price,
      saved_in_stock: product.in_stock,
      currency: product.currency,
      image: product.image,
      names: { [locale]: product.name },
    },
    locale,
    readStored("token") !== null,
  );
  if (outcome === "full") toast.error(t("wishlist.full", { max: MAX_WISHLIST }));
  else toast.success(t(outcome === "added" ? "wishlist.added" : "wishlist.removed", { name: product.name }));
}
