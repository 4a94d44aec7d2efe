import { Link } from "../lib/link";
import type { Route } from "./+types/home";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { ProductGrid } from "../components/ProductCard";
import { ServiceCard } from "../components/ServiceCard";
import { listProducts } from "../lib/api/catalogue";
import { getHome, listServices } from "../lib/api/content";
import { referenceList } from "../lib/api/reference";
import { serverApi } from "../lib/api/server";
import { cardsOf, type Banner, type Category, type ProductSummary, type Service } from "../lib/catalogue";
import { optionalList, failLoad, routeLocale } from "../lib/loaders";
import { withPriceFromLabels } from "../lib/money";
import { pageMeta } from "../lib/seo";
import { countOf } from "../lib/plural";
import { localePath, useLocale, useLocalePath, useT } from "../lib/use-locale";
import "../styles/catalogue.css";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

/** The services the home page lists. */
const SERVICES_SHOWN = 4;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "home" });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  // The three reads go out together and the page waits for all of them: nothing on home is
  // streamed. They are public catalogue reads (a replica or the backend's memory answers them), so
  // the last arrives about when the first does, and a streamed row cost a Suspense boundary, an
  // <Await>, a hidden segment moved into place by script and a hydration-data chunk of its own:
  // about 4 ms of the Worker's CPU per fresh render of this page (docs/PERFORMANCE.md, "A fresh
  // render within the CPU budget"). A row that fails is left out; only the home read fails the page.
  const newArrivals = optionalList<ProductSummary>(listProducts(api, { sort: "newest", per_page: 8 }));
  // The services change only with the catalogue version: kept per isolate (lib/api/reference.ts).
  const services = referenceList(context, `${locale} /services`, () =>
    listServices(api).then((r) => r.data ?? []),
  ).catch(() => [] as Service[]);
  try {
    // Only what the page shows goes into its data: cards (cardsOf, prices formatted, so hydration
    // needs no Intl.NumberFormat), four services, three banners, the tiles' fields.
    const [{ data }, arrivals, shown] = await Promise.all([getHome(api), newArrivals, services]);
    return {
      banners: (data.banners ?? []).slice(0, 3),
      categories: (data.categories ?? []).map(({ id, slug, name, product_count }) => ({
        id,
        slug,
        name,
        product_count,
      })),
      featured: cardsOf((data.featured ?? []).slice(0, 8), locale),
      newArrivals: cardsOf(arrivals, locale),
      services: withPriceFromLabels(shown.slice(0, SERVICES_SHOWN), locale),
    };
  } catch (error) {
    failLoad(error, locale);
  }
}

function Hero({ banners }: { banners: Banner[] }) {
  const t = useT();
  const locale = useLocale();
  const [first, ...rest] = banners;
  const link = (href: string) =>
    href.startsWith("/") && !/^\/(en|ar)(\/|$)/.test(href) ? localePath(locale, href) : href;
  if (!first) {
    return (
      <section className="hero hero--plain">
        <div className="hero__text">
          <h1>{t("home.heroFallbackTitle")}</h1>
          <p>{t("home.heroFallbackSubtitle")}</p>
          <Link className="button button--primary" to={localePath(locale, "/products")}>
            {t("home.shopNow")}
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className="hero" aria-label={t("home.banners")}>
      <article className="hero__main">
        <div className="hero__text">
          <h1>{first.title}</h1>
          {first.subtitle ? <p>{first.subtitle}</p> : null}
          <Link className="button button--primary" to={link(first.link)}>
            {first.cta_label || t("home.shopNow")}
          </Link>
        </div>
        {/* Sizes in the banner art's 5:2 ratio (1200×480), so the box the browser reserves is the one the image fills: no layout shift. */}
        {first.image ? (
          <img
            className="hero__image"
            src={first.image}
            alt=""
            width={480}
            height={192}
            fetchPriority="high"
            decoding="async"
          />
        ) : null}
      </article>
      {rest.length > 0 ? (
        <ul className="hero__more" role="list">
          {rest.slice(0, 2).map((b) => (
            <li key={b.id}>
              <Link className="promo" to={link(b.link)}>
                <span className="promo__text">
                  <strong>{b.title}</strong>
                  {b.subtitle ? <span>{b.subtitle}</span> : null}
                </span>
                {b.image ? <img src={b.image} alt="" width={120} height={48} loading="lazy" decoding="async" /> : null}
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function CategoryTiles({ categories }: { categories: Pick<Category, "id" | "slug" | "name" | "product_count">[] }) {
  const t = useT();
  const locale = useLocale();
  const to = useLocalePath();
  if (categories.length === 0) return null;
  return (
    <section className="section" aria-labelledby="home-categories">
      <h2 id="home-categories">{t("home.categories")}</h2>
      <ul className="tiles" role="list">
        {categories.map((c) => (
          <li key={c.id}>
            <Link className="tile" to={`${to("/products")}?category=${encodeURIComponent(c.slug)}`}>
              <span className="tile__name">{c.name}</span>
              <span className="tile__count muted">{countOf(t, locale, "home.productCount", c.product_count)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SectionHead({ id, title, more, moreLabel }: { id: string; title: string; more: string; moreLabel: string }) {
  return (
    <div className="section__head">
      <h2 id={id}>{title}</h2>
      <Link to={more}>{moreLabel}</Link>
    </div>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { banners, categories, featured, newArrivals, services } = loaderData;
  const t = useT();
  const to = useLocalePath();
  return (
    <div className="container page home">
      <Hero banners={banners} />
      <CategoryTiles categories={categories} />
      {featured.length > 0 ? (
        <section className="section" aria-labelledby="home-featured">
          <SectionHead
            id="home-featured"
            title={t("home.featured")}
            more={to("/products")}
            moreLabel={t("home.viewAll")}
          />
          <ProductGrid products={featured} eager={4} />
        </section>
      ) : null}
      <section className="section" aria-labelledby="home-new">
        <SectionHead
          id="home-new"
          title={t("home.newArrivals")}
          more={`${to("/products")}?sort=newest`}
          moreLabel={t("home.viewAll")}
        />
        <ProductGrid products={newArrivals} />
      </section>
      <section className="section" aria-labelledby="home-services">
        <SectionHead
          id="home-services"
          title={t("home.services")}
          more={to("/services")}
          moreLabel={t("home.allServices")}
        />
        <ul className="service-grid" role="list">
          {services.map((s) => (
            <li key={s.id}>
              <ServiceCard service={s} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
