import {
  isRouteErrorResponse,
  Outlet,
  useLocation,
  useNavigate,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import { Link } from "../../lib/link";
import type { Route } from "./+types/layout";
import { ConsoleNav } from "../../components/console/ConsoleNav";
import { describeError, ErrorScreen } from "../../components/ErrorScreen";
import { ShopChrome } from "../../components/ShopChrome";
import { Logo } from "../../components/Logo";
import { closeConsole } from "../../lib/api/console";
import { browserApi } from "../../lib/api/browser";
import { handleBrowserError } from "../../lib/browser-errors";
import { consoleContext, consoleLocale, consoleMeta } from "../../lib/console";
import { shopNotFoundOf } from "../../lib/shop-not-found";
import { shopContext } from "../../lib/context";
import { consoleMessages } from "../../lib/console-messages.server";
import { registerMessages } from "../../lib/i18n";
import { restoreIdentity } from "../../lib/tab-storage";
import { useLocale, useLocalePath, useT } from "../../lib/use-locale";
import { consoleMiddleware } from "../../middleware/console";
import { Stylesheet } from "../../components/Stylesheet";
import consoleCss from "../../styles/console.css?url";

/**
 * The operator console at /:locale/admin: its own layout, outside the shop's header and
 * footer. The middleware lets only staff through (everyone else gets the shop's 404, in the shop's
 * frame) and sends staff without their code to the sign-in step.
 */
export const middleware: Route.MiddlewareFunction[] = [consoleMiddleware];

export const meta: Route.MetaFunction = (args) => consoleMeta(args, "console.nav.dashboard");

export async function loader({ context, params }: Route.LoaderArgs) {
  const me = context.get(consoleContext);
  const session = await context.get(shopContext).getSession();
  const locale = consoleLocale(params);
  return {
    me,
    locale,
    messages: consoleMessages(locale),
    // The tab calls the console API with the same sign-in (session storage is per tab).
    identity: session && me ? { token: session.token, userId: me.user_id } : null,
  };
}

export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const data = await serverLoader();
  restoreIdentity(data.identity);
  return data;
}
clientLoader.hydrate = true as const;

type ConsoleData = Awaited<ReturnType<typeof loader>>;

export default function ConsoleLayout({ loaderData }: Route.ComponentProps) {
  return (
    <ConsoleFrame data={loaderData}>
      <Outlet />
    </ConsoleFrame>
  );
}

/** The console's header, navigation and main, around a page or its error. */
function ConsoleFrame({ data: loaderData, children }: { data: ConsoleData; children: React.ReactNode }) {
  // The console's strings come with the layout's data (the shop's message files leave them out),
  // registered before anything below asks for one; registering merges, so repeating is harmless.
  registerMessages(loaderData.locale, loaderData.messages);
  const t = useT();
  const to = useLocalePath();
  const locale = useLocale();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const { me } = loaderData;

  const other = locale === "ar" ? "en" : "ar";
  const switchTo = `/${other}${pathname.slice(3)}${search}`;

  const signOut = async () => {
    try {
      await closeConsole(browserApi(locale));
      await navigate(to("/"));
    } catch (error) {
      handleBrowserError(error, locale, (path) => void navigate(path));
    }
  };

  return (
    <div className="console">
      <Stylesheet href={consoleCss} />
      <a className="skip-link" href="#console-main">
        {t("app.skipToContent")}
      </a>
      <header className="console-header">
        <Link to={to(me?.elevated ? "/admin" : "/")} className="console-header__brand">
          <Logo />
          <span>{t("console.title")}</span>
        </Link>
        <div className="console-header__tools">
          <a href={switchTo} hrefLang={other} lang={other} className="button button--ghost">
            {t(`console.switchTo.${other}`)}
          </a>
          {me ? (
            <span className="console-header__who">
              <bdi>{me.name}</bdi> · {t(`console.roles.${me.role}`)}
            </span>
          ) : null}
          <Link to={to("/")} className="button button--ghost">
            {t("console.backToShop")}
          </Link>
          {me?.elevated && me.via === "code" ? (
            <button type="button" className="button" onClick={() => void signOut()}>
              {t("console.signOut")}
            </button>
          ) : null}
        </div>
      </header>
      <div className="console-body">
        {me?.elevated ? <ConsoleNav role={me.role} /> : null}
        <main id="console-main" className="console-main" tabIndex={-1}>
          {children}
        </main>
      </div>
    </div>
  );
}

/** A console page's refusal, inside the console: no access for this role, or nothing at this path. */
function ConsoleRefused({ status }: { status: number }) {
  const t = useT();
  const to = useLocalePath();
  const key = status === 403 ? "noAccess" : status === 404 ? "notFound" : "failed";
  return (
    <section className="console-refusal" aria-labelledby="console-refusal-title" data-console-refusal={key}>
      <h1 id="console-refusal-title">{t(`console.access.${key}.title`)}</h1>
      <p>{t(`console.access.${key}.lead`)}</p>
      <p>
        <Link to={to("/admin")} className="button button--primary">
          {t("console.access.toDashboard")}
        </Link>
      </p>
    </section>
  );
}

/**
 * Errors under /:locale/admin. Staff (the layout's data loaded) read them inside the console, in its
 * language: "you don't have access" for a page their role does not open, "not found" for a record
 * or path that is not there. A visitor who is not staff gets the shop's 404 in the shop's frame.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRouteLoaderData("routes/admin/layout") as ConsoleData | undefined;
  if (data?.me) {
    const status = isRouteErrorResponse(error) ? error.status : 500;
    if (status >= 500) console.error(error);
    return (
      <ConsoleFrame data={data}>
        <ConsoleRefused status={status} />
      </ConsoleFrame>
    );
  }
  // A stranger's 404 reaches the root's boundary from the console's middleware (root.tsx); this is the rest.
  const shop = shopNotFoundOf(error);
  const { status, detail } = shop ? { status: 404, detail: shop.detail } : describeError(error);
  if (status >= 500) console.error(error);
  return (
    <ShopChrome data={shop?.shop}>
      <div className="container">
        <ErrorScreen status={status} detail={detail} />
      </div>
    </ShopChrome>
  );
}
