import { Outlet, useRouteError, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/shop";
import { useRetryFailedData } from "../client/data-retry";
import { describeError, ErrorScreen } from "../components/ErrorScreen";
import { ShopChrome, shopChromeData } from "../components/ShopChrome";
import { catalogueContext, shopContext, storeContext } from "../lib/context";
import { ensureLocale } from "../lib/i18n";
import { isLocale } from "../lib/locales";
import { catalogMiddleware } from "../middleware/catalog";
import { redirectMiddleware } from "../middleware/redirect";
import { unlessOnlyQueryChanged } from "../lib/revalidation";

/** The one default layout: header, navigation, main, footer, cart drawer. */
export const middleware: Route.MiddlewareFunction[] = [redirectMiddleware, catalogMiddleware];

/** Its data never reads the query: a change of the query alone keeps it (lib/revalidation.ts). */
export const shouldRevalidate = unlessOnlyQueryChanged;

export async function loader({ context }: Route.LoaderArgs) {
  const [categories, session, store] = await Promise.all([
    context.get(catalogueContext)(),
    context.get(shopContext).getSession(),
    context.get(storeContext)(),
  ]);
  return shopChromeData(categories, session !== null, store);
}

/** On a client navigation into another locale, its messages load beside the server data. */
export async function clientLoader({ serverLoader, params }: Route.ClientLoaderArgs) {
  const [data] = await Promise.all([serverLoader(), isLocale(params.locale) ? ensureLocale(params.locale) : undefined]);
  return data;
}

type ShopData = Awaited<ReturnType<typeof loader>>;

export default function Shop({ loaderData }: Route.ComponentProps) {
  return (
    <ShopChrome data={loaderData}>
      <Outlet />
    </ShopChrome>
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
    <ShopChrome data={data}>
      <div className="container">{retrying ? null : <ErrorScreen status={status} detail={detail} />}</div>
    </ShopChrome>
  );
}
