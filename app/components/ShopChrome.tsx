import type { CategoryNode } from "../../contract/catalogue";
import type { StoreIdentity } from "../../contract/settings";
import { useHistoryBack, useStoredUser } from "../client/tab-start";
import { useCartHydration } from "../lib/cart";
import { useT } from "../lib/use-locale";
import { CartDrawer } from "./CartDrawer";
import { CompareBarSlot } from "./CompareBarSlot";
import { Footer } from "./Footer";
import { Header } from "./Header";

/**
 * What the shop's header and footer need: the first top-level categories by name, whether someone
 * is signed in, and the store's name and logo as the owner set them (null: the built-in ones).
 */
export interface ShopChromeData {
  categories: { id: number; slug: string; name: string }[];
  signedIn: boolean;
  store: StoreIdentity | null;
}

/** The header's menu shows the first six top-level categories by name: only those go into a page's data. */
export function shopChromeData(
  categories: CategoryNode[],
  signedIn: boolean,
  store: StoreIdentity | null,
): ShopChromeData {
  return { categories: categories.slice(0, 6).map(({ id, slug, name }) => ({ id, slug, name })), signedIn, store };
}

/**
 * The one default layout's frame (routes/shop.tsx): header, navigation, main, footer, cart drawer.
 * Also around the 404 a visitor who is not staff gets for a console path (routes/admin/layout.tsx),
 * so that page is the shop's like any other unmatched path.
 */
export function ShopChrome({ data, children }: { data?: ShopChromeData; children: React.ReactNode }) {
  const t = useT();
  const name = data?.store?.name || t("app.name");
  // The layout loads the cart for every page under it: once the app starts with an identity, and
  // again when the identity (sign-in merges the guest cart) or the locale changes. Not per
  // navigation: a clientLoader here would ask for the cart on every page change and revalidation.
  useCartHydration();
  useStoredUser();
  useHistoryBack();
  return (
    <>
      <a className="skip-link" href="#main">
        {t("app.skipToContent")}
      </a>
      <Header
        categories={data?.categories ?? []}
        signedIn={data?.signedIn ?? false}
        name={name}
        logo={data?.store?.logo_url}
      />
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <Footer name={name} />
      <CompareBarSlot signedIn={data?.signedIn ?? false} />
      <CartDrawer />
    </>
  );
}
