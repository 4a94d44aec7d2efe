import { Link } from "../lib/link";
import type { Route } from "./+types/services.$slug";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { Breadcrumbs } from "../components/Breadcrumbs";
import { PlainText } from "../components/PlainText";
import { Price } from "../components/Price";
import { ServiceIcon } from "../components/ServiceCard";
import { getService } from "../lib/api/content";
import { serverApi } from "../lib/api/server";
import { translate } from "../lib/i18n";
import { failLoad, routeLocale } from "../lib/loaders";
import { breadcrumbList, jsonLd, metaLocale, metaOrigin, pageMeta, storeNameOf } from "../lib/seo";
import { toDecimalString, withPriceFromLabels } from "../lib/money";
import { useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  try {
    const { data } = await getService(api, params.slug);
    const [service] = withPriceFromLabels([data], locale);
    return { service };
  } catch (error) {
    failLoad(error, locale);
  }
}

export const meta: Route.MetaFunction = (args) => {
  const service = args.loaderData?.service;
  if (!service) return pageMeta(args, { page: "service" });
  const locale = metaLocale(args);
  const origin = metaOrigin(args);
  const t = (key: string) => translate(locale, key);
  const url = `${origin}/${locale}/services/${encodeURIComponent(service.slug)}`;
  return pageMeta(args, {
    page: "service",
    title: service.name,
    description: service.summary,
    extra: [
      jsonLd({
        "@type": "Service",
        name: service.name,
        description: service.summary,
        url,
        provider: { "@type": "Organization", name: storeNameOf(args.matches) ?? translate(locale, "app.name") },
        ...(service.price_from > 0
          ? {
              offers: {
                "@type": "Offer",
                price: toDecimalString(service.price_from, service.currency),
                priceCurrency: service.currency,
              },
            }
          : {}),
      }),
      breadcrumbList([
        { name: t("catalogue.home"), url: `${origin}/${locale}` },
        { name: t("services.title"), url: `${origin}/${locale}/services` },
        { name: service.name, url },
      ]),
    ],
  });
};

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  const { service } = loaderData;
  const t = useT();
  const to = useLocalePath();
  return (
    <div className="container page service">
      <Stylesheet href={catalogueCss} />
      <Breadcrumbs
        items={[
          { name: t("catalogue.home"), to: to("/") },
          { name: t("services.title"), to: to("/services") },
          { name: service.name },
        ]}
      />
      <div className="service__head">
        <ServiceIcon name={service.icon} />
        <div>
          <h1>{service.name}</h1>
          <p className="lead">{service.summary}</p>
          {service.price_from > 0 ? (
            <p className="service__price">
              <span className="muted">{t("services.from")} </span>
              <Price price={service.price_from} currency={service.currency} size="lg" label={service.price_label} />
            </p>
          ) : null}
        </div>
      </div>
      <div className="service__body">
        {service.description ? <PlainText body={service.description} /> : null}
        {service.features.length > 0 ? (
          <section className="card" aria-labelledby="service-features">
            <h2 id="service-features">{t("services.features")}</h2>
            <ul className="checklist">
              {service.features.map((f, i) => (
                <li key={`${i}-${f}`}>{f}</li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
      <p className="service__actions">
        <Link
          className="button button--primary"
          to={`${to("/contact-us")}?subject=${encodeURIComponent(service.name)}`}
        >
          {t("services.book")}
        </Link>
        <Link className="button" to={to("/services")}>
          {t("services.back")}
        </Link>
      </p>
    </div>
  );
}
