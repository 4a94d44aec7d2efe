import { Outlet, useRouteError, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/shop";
import { useRetryFailedData } from "../client/data-retry";
import { useHistoryBack, useStoredUser } from "../client/tab-start";
import { CartDrawer } from "../components/CartDrawer";
import { describeError, ErrorScreen } from "../components/ErrorScreen";
import { Footer } from "../components/Footer";
import { Header } from "../components/Header";
import { useCartHydration } from "../lib/cart";
import { catalogueContext, shopContext } from "../lib/context";
import { ensureLocale } from "../lib/i18n";
import { isLocale } from "../lib/locales";
import { useT } from "../lib/use-locale";
import { catalogueMiddleware } from "../middleware/catalogue";
import { redirectMiddleware } from "../middleware/redirect";

/** The one default layout: header, navigation, main, footer, cart drawer. */
export const middleware: Route.MiddlewareFunction[] = [redirectMiddleware, catalogueMiddleware];

export async function loader({ context }: Route.LoaderArgs) {
  const [categories, session] = await Promise.all([
    context.get(catalogueContext)(),
    context.get(shopContext).getSession(),
  ]);
  // The header's menu shows the first six top-level categories by name (components/Header.tsx): only
  // those go into the page's data, not the whole tree.
  const menu = categories.slice(0, 6).map(({ id, slug, name }) => ({ id, slug, name }));
  return { categories: menu, signedIn: session !== null };
}

/** On a client navigation into another locale, its messages load beside the server data. */
export async function clientLoader({ serverLoader, params }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), isLocale(params.locale) ? ensureLocale(params.locale) : undefined]);
  return data;
}

type ShopData = Awaited<ReturnType<typeof loader>>;

function Chrome({ data, children }: { data?: ShopData; children: React.ReactNode }) {
  const t = useT();
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
      <Header categories={data?.categories ?? []} signedIn={data?.signedIn ?? false} />
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <Footer />
      <CartDrawer />
    </>
  );
}

export default function Shop({ loaderData }: Route.ComponentProps) {
  return (
    <Chrome data={loaderData}>
      <Outlet />
    </Chrome>
  );
}

/** Errors inside the shop (an unmatched path, a missing product) keep the header and footer. */
export function ErrorBoundary() {
  const error = useRouteError();
  const prefixed = useRouteLoaderData("routes/shop") as ShopData | undefined;
  const unprefixed = useRouteLoaderData("shop-default") as ShopData | undefined;
  const data = prefixed ?? unprefixed;
  const { status, detail } = describeError(error);
  // A page-data request the browser cancelled is asked once more (client/data-retry.ts).
  const retrying = useRetryFailedData(error);
  if (status >= 500 && !retrying) console.error(error);
  return (
    <Chrome data={data}>
      <div className="container">{retrying ? null : <ErrorScreen status={status} detail={detail} />}</div>
    </Chrome>
  );
}
