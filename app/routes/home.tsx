import { Link } from "../lib/link";
import type { Route } from "./+types/home";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { ProductGrid } from "../components/ProductCard";
import { ServiceCard } from "../components/ServiceCard";
import { getHome } from "../lib/api/content";
import { serverApi } from "../lib/api/server";
import { cardsOf, type Banner, type Category } from "../lib/catalogue";
import { failLoad, routeLocale } from "../lib/loaders";
import { withPriceFromLabels } from "../lib/money";
import { pageMeta } from "../lib/seo";
import { countOf } from "../lib/plural";
import { localePath, useLocale, useLocalePath, useT } from "../lib/use-locale";
import { Stylesheet } from "../components/Stylesheet";
import catalogueCss from "../styles/catalogue.css?url";
import { RecentlyViewedSlot } from "../components/recently-viewed/RecentlyViewedSlot";

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

/** The services the home page lists. */
const SERVICES_SHOWN = 4;
/** The products of each row. */
const ROW_SIZE = 8;

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "home" });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const locale = routeLocale(params, context);
  const api = await serverApi(context, request, locale);
  // One read: `GET /home` answers everything the page shows (banners, categories, featured and new
  // products, services), and the page waits for it whole; nothing on home is streamed. The rows
  // used to be read apart (`/products?sort=newest`, `/services`) and streamed under <Suspense>:
  // two more backend round trips, two boundaries with hidden segments moved into place by script
  // and hydration-data chunks of their own, about 4–5 ms of the Worker's CPU per fresh render for
  // rows below the fold (docs/PERFORMANCE.md, "A fresh render within the CPU budget"). "New
  // arrivals" are the products the shop marks new (the cards' "New" flag), newest first.
  try {
    const { data } = await getHome(api);
    // Only what the page shows goes into its data: cards (cardsOf, prices formatted, so hydration
    // needs no Intl.NumberFormat), three banners, the tiles' fields, four services.
    return {
      banners: (data.banners ?? []).slice(0, 3),
      categories: (data.categories ?? []).map(({ id, slug, name, product_count }) => ({
        id,
        slug,
        name,
        product_count,
      })),
      featured: cardsOf((data.featured ?? []).slice(0, ROW_SIZE), locale),
      newArrivals: cardsOf((data.new_arrivals ?? []).slice(0, ROW_SIZE), locale),
      services: withPriceFromLabels((data.services ?? []).slice(0, SERVICES_SHOWN), locale),
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
      <Stylesheet href={catalogueCss} />
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
      <RecentlyViewedSlot />
    </div>
  );
}
