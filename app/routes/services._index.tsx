import type { Route } from "./+types/services._index";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { ServiceCard } from "../components/ServiceCard";
import { listServices } from "../lib/api/content";
import { serverApi } from "../lib/api/server";
import { translate } from "../lib/i18n";
import { failLoad, routeLocale } from "../lib/loaders";
import { withPriceFromLabels } from "../lib/money";
import { breadcrumbList, metaLocale, metaOrigin, pageMeta } from "../lib/seo";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  try {
    const { data } = await listServices(api);
    return { services: withPriceFromLabels(data ?? [], locale) };
  } catch (error) {
    failLoad(error, locale);
  }
}

export const meta: Route.MetaFunction = (args) => {
  const locale = metaLocale(args);
  const origin = metaOrigin(args);
  const t = (key: string) => translate(locale, key);
  return pageMeta(args, {
    page: "services",
    extra: [
      breadcrumbList([
        { name: t("catalogue.home"), url: `${origin}/${locale}` },
        { name: t("services.title"), url: `${origin}/${locale}/services` },
      ]),
    ],
  });
};

export default function Services({ loaderData }: Route.ComponentProps) {
  const t = useT();
  const to = useLocalePath();
  return (
    <div className="container page">
      <Stylesheet href={catalogueCss} />
      <Breadcrumbs items={[{ name: t("catalogue.home"), to: to("/") }, { name: t("services.title") }]} />
      <h1>{t("pages.services.title")}</h1>
      <p className="lead muted">{t("services.intro")}</p>
      {loaderData.services.length > 0 ? (
        <ul className="service-grid" role="list">
          {loaderData.services.map((s) => (
            <li key={s.id}>
              <ServiceCard service={s} headingLevel={2} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="empty-state empty-state--boxed">{t("services.empty")}</p>
      )}
    </div>
  );
}
