import { Link } from "../lib/link";
import type { Route } from "./+types/page._index";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { listPages } from "../lib/api/content";
import { serverApi } from "../lib/api/server";
import { failLoad, routeLocale } from "../lib/loaders";
import { pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  try {
    const { data } = await listPages(api);
    return { pages: data ?? [] };
  } catch (error) {
    failLoad(error, locale);
  }
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "pageList" });

/** The pages with a route of their own are linked there, the rest under page/{slug}. */
const OWN_ROUTES = new Set(["about-us", "privacy-policy"]);

export default function ContentPages({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  return (
    <div className="container page">
      <Stylesheet href={catalogueCss} />
      <Breadcrumbs items={[{ name: t("catalogue.home"), to: to("/") }, { name: t("content.allPages") }]} />
      <h1>{t("pages.pageList.title")}</h1>
      {loaderData.pages.length > 0 ? (
        <ul className="page-list" role="list">
          {loaderData.pages.map((p) => (
            <li key={p.slug} className="page-list__item">
              <h2>
                <Link to={to(OWN_ROUTES.has(p.slug) ? `/${p.slug}` : `/page/${encodeURIComponent(p.slug)}`)}>
                  {p.title}
                </Link>
              </h2>
              {p.excerpt ? <p className="muted">{p.excerpt}</p> : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty-state empty-state--boxed">{t("content.empty")}</p>
      )}
    </div>
  );
}
