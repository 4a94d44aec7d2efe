import { Provider as JotaiProvider } from "jotai";
import { useEffect } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { useRetryFailedData } from "./client/data-retry";
import { Prefetcher } from "./client/Prefetcher";
import { scrollKey } from "./client/scroll-key";
import { Toaster } from "./client/toast";
import { describeError, ErrorScreen } from "./components/ErrorScreen";
import { ShopChrome } from "./components/ShopChrome";
import { Stylesheet } from "./components/Stylesheet";
import { shopNotFoundOf } from "./lib/shop-not-found";
import { LoadingBar } from "./components/LoadingBar";
import { PwaStatus } from "./components/PwaStatus";
import { browserStore } from "./state/store";
import { Logo } from "./components/Logo";
import { configureBrowserApi } from "./lib/api/browser";
import { shopContext } from "./lib/context";
import { LOCALES } from "./lib/locales";
import { useNonce } from "./lib/nonce";
import { LocaleContext, useLocale, useRouteLocale, useT } from "./lib/use-locale";
import { routeRulesMiddleware } from "./middleware/route-rules";
import { validatePageMiddleware } from "./middleware/validate-page";
import stylesUrl from "./styles/app.css?url";
import { unlessOnlyQueryChanged } from "./lib/revalidation";

export const middleware: Route.MiddlewareFunction[] = [validatePageMiddleware, routeRulesMiddleware];

export const links: Route.LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/** Its data never reads the query: a change of the query alone keeps it (lib/revalidation.ts). */
export const shouldRevalidate = unlessOnlyQueryChanged;

export async function loader({ context }: Route.LoaderArgs) {
  const shop = context.get(shopContext);
  return {
    origin: shop.origin,
    preferredLocale: shop.preferredLocale,
    backendBase: shop.publicBackendBase,
    lookupBase: shop.publicLookupBase,
    environment: shop.environment,
    // Written into the document for the field-data start-up (client/rum-start.ts): no first-load code.
    rumSampleRate: shop.rumSampleRate,
  };
}

/**
 * Toasts (spec §9): top-right, 3000 ms, dark theme; loading toasts stay until replaced. They use
 * the shop's own font stack (with its Arabic faces) instead of sonner's, which lists a dozen
 * families the first toast had to look up one by one (docs/PERFORMANCE.md, "sonner").
 */
export const TOASTER = {
  position: "top-right",
  duration: 3000,
  theme: "dark",
  style: { fontFamily: "var(--font)" },
} as const;

/** The `<meta>` the field-data start-up reads (client/rum-start.ts): the sample rate and the page's route. */
export const RUM_META = "souq-rum";

export function Layout({ children }: { children: React.ReactNode }) {
  // Read from the route once per render; everything below asks LocaleContext (lib/use-locale.ts).
  const locale = useRouteLocale();
  const info = LOCALES[locale];
  const nonce = useNonce();
  const rumSampleRate = useRouteLoaderData<typeof loader>("root")?.rumSampleRate;
  const routeId = useMatches().at(-1)?.id;

  // Spec §2: on app render and on each locale change, set the document's direction and language.
  // Only when they differ: assigning `lang` or `dir`, even the value the server sent (so at every
  // hydration), restyles the whole document (docs/PERFORMANCE.md, "lang and dir").
  useEffect(() => {
    const html = document.documentElement;
    if (html.lang !== info.tag) html.lang = info.tag;
    if (html.dir !== info.dir) html.dir = info.dir;
  }, [info]);

  return (
    <LocaleContext value={locale}>
      <html lang={info.tag} dir={info.dir}>
        <head>
          {/* First, so its precedence is the first React meets: every area sheet comes after it
            (components/Stylesheet.tsx). */}
          <Stylesheet href={stylesUrl} precedence="base" />
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="theme-color" content="#0f5fd7" />
          {rumSampleRate && routeId ? <meta name={RUM_META} content={`${rumSampleRate} ${routeId}`} /> : null}
          <link rel="manifest" href={`/manifest.${locale}.webmanifest`} />
          <link rel="apple-touch-icon" href="/icons/icon-192.png" />
          {/* The first frame waits until the parser reaches the footer, so it shows the whole main
            content rather than the header alone; a page without the footer renders once parsed. */}
          <link rel="expect" href="#site-footer" blocking="render" />
          <Meta />
          <Links />
        </head>
        <body>
          <JotaiProvider store={browserStore()}>
            <LoadingBar />
            {children}
            <Toaster {...TOASTER} dir={info.dir} />
          </JotaiProvider>
          <ScrollRestoration nonce={nonce} getKey={scrollKey} />
          <Scripts nonce={nonce} />
        </body>
      </html>
    </LocaleContext>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  configureBrowserApi({ backendBase: loaderData.backendBase, lookupBase: loaderData.lookupBase });
  const nonce = useNonce();
  return (
    <>
      <Outlet />
      <PwaStatus />
      <Prefetcher nonce={nonce} />
    </>
  );
}

/** Errors outside the shop layout (such as a fatal page-validation 404) render here. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { status, detail } = describeError(error);
  const t = useT();
  const locale = useLocale();
  // A page-data request the browser cancelled is asked once more (client/data-retry.ts).
  const retrying = useRetryFailedData(error);
  if (status >= 500 && !retrying) console.error(error);
  // A console path for a visitor who is not staff (middleware/console.ts): the shop's own 404, in its frame.
  const stranger = shopNotFoundOf(error);
  if (stranger)
    return (
      <ShopChrome data={stranger.shop}>
        <div className="container">
          <ErrorScreen status={404} detail={stranger.detail} />
        </div>
      </ShopChrome>
    );
  return (
    <>
      <header className="site-header site-header--bare">
        <div className="site-header__bar container">
          <a href={`/${locale}`} className="site-header__logo" aria-label={t("app.name")}>
            <Logo />
            <span className="site-header__name">{t("app.name")}</span>
          </a>
        </div>
      </header>
      <main id="main" className="container">
        {retrying ? null : <ErrorScreen status={status} detail={detail} />}
      </main>
    </>
  );
}
