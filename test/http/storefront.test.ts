import { describe, expect, it } from "vitest";
import type { ProductDetails } from "../../contract/catalogue.ts";
import { builtWorker } from "../support/http.ts";

const base = builtWorker().url;

interface Summary {
  slug: string;
  name: string;
  price: number;
  currency: string;
  in_stock: boolean;
  category: { slug: string };
  brand: { slug: string } | null;
  variant_count?: number;
}
interface ListAnswer {
  data: Summary[];
  meta: { page: number; per_page: number; total: number; last_page: number };
}

async function backend<T>(path: string, lang = "en"): Promise<T> {
  const res = await fetch(`${base}/backend${path}`, { headers: { "content-language": lang } });
  expect(res.status, path).toBe(200);
  return (await res.json()) as T;
}

/** Halalas as the shop writes riyals in each language (Western digits in Arabic too). */
const riyals = (halalas: number, locale: "en" | "ar") =>
  new Intl.NumberFormat(locale === "en" ? "en-US" : "ar-SA-u-nu-latn", { style: "currency", currency: "SAR" }).format(
    halalas / 100,
  );

/** The HTML a browser without JavaScript receives (a crawler's user agent gets the whole document). */
async function page(
  path: string,
  ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
): Promise<{ status: number; html: string }> {
  const res = await fetch(`${base}${path}`, { headers: { "user-agent": ua }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

/** The product cards of a page, in order, by the slug their link goes to. */
const cards = (html: string) =>
  html
    .split('<article class="product-card">')
    .slice(1)
    .map((card) => decodeURIComponent(/\/product-details\/([^"?#]+)"/.exec(card)?.[1] ?? ""));

const links = (html: string) =>
  Object.fromEntries(
    [...html.matchAll(/<link[^>]+>/g)]
      .map((m) => m[0])
      .filter((tag) => /rel="alternate"/.test(tag) && /hreflang/i.test(tag))
      .map((tag) => [
        tag.match(/hreflang="([^"]+)"/i)?.[1] ?? "",
        (tag.match(/href="([^"]+)"/)?.[1] ?? "").replace(/&amp;/g, "&"),
      ]),
  );
const canonical = (html: string) =>
  html.match(/<link[^>]+rel="canonical"[^>]+href="([^"]+)"/)?.[1]?.replace(/&amp;/g, "&");

function jsonLd(html: string): Record<string, unknown>[] {
  return [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) => JSON.parse(m[1]) as Record<string, unknown>,
  );
}

describe("the product list without JavaScript", () => {
  it("contains the products of the page, in the backend's order", async () => {
    const [{ html, status }, list] = await Promise.all([
      page("/en/products"),
      backend<ListAnswer>("/products?per_page=12"),
    ]);
    expect(status).toBe(200);
    expect(cards(html)).toEqual(list.data.map((p) => p.slug));
    expect(html).toContain(`${list.meta.total} products`);
  });

  it("is a real GET form, so filtering and sorting need no script", async () => {
    const { html } = await page("/ar/products");
    const form = html.match(/<form[^>]+class="filters"[^>]*>/)?.[0] ?? "";
    expect(form).toContain('method="get"');
    expect(form).toContain('action="/ar/products"');
    for (const name of ["category", "brand", "min_price", "max_price", "in_stock", "sort"])
      expect(html).toContain(`name="${name}"`);
  });

  it("a category narrows it to that category", async () => {
    const [{ html }, list] = await Promise.all([
      page("/en/products?category=laptops"),
      backend<ListAnswer>("/products?category=laptops&per_page=12"),
    ]);
    expect(list.data.length).toBeGreaterThan(0);
    expect(cards(html)).toEqual(list.data.map((p) => p.slug));
    const all = await backend<ListAnswer>("/products?per_page=12");
    expect(cards(html)).not.toEqual(all.data.map((p) => p.slug));
  });

  it("brand, price range (in riyals) and in-stock filters reach the backend (in halalas)", async () => {
    const [{ html }, list] = await Promise.all([
      page("/en/products?brand=apple&min_price=1000&max_price=5000&in_stock=1"),
      backend<ListAnswer>("/products?brand=apple&min_price=100000&max_price=500000&in_stock=1&per_page=12"),
    ]);
    expect(list.data.length).toBeGreaterThan(0);
    expect(cards(html)).toEqual(list.data.map((p) => p.slug));
    for (const p of list.data) {
      expect(p.brand?.slug).toBe("apple");
      expect(p.price).toBeGreaterThanOrEqual(100000);
      expect(p.price).toBeLessThanOrEqual(500000);
      expect(p.in_stock).toBe(true);
    }
  });

  it("sort orders it, and the page parameter moves through it", async () => {
    const [{ html: cheap }, asc, { html: second }, page2, { html: first }] = await Promise.all([
      page("/en/products?sort=price_asc"),
      backend<ListAnswer>("/products?sort=price_asc&per_page=12"),
      page("/en/products?sort=price_asc&page=2"),
      backend<ListAnswer>("/products?sort=price_asc&page=2&per_page=12"),
      page("/en/products"),
    ]);
    expect(cards(cheap)).toEqual(asc.data.map((p) => p.slug));
    const prices = asc.data.map((p) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(cards(cheap)).not.toEqual(cards(first));
    expect(cards(second)).toEqual(page2.data.map((p) => p.slug));
    expect(cards(second)).not.toEqual(cards(cheap));
    // The pager links keep the view's parameters.
    expect(second).toContain('href="/en/products?sort=price_asc&amp;page=3"');
  });

  it("says so when nothing matches, and offers to clear the filters", async () => {
    const { status, html } = await page("/en/products?category=laptops&max_price=1");
    expect(status).toBe(200);
    expect(cards(html)).toEqual([]);
    expect(html).toContain("No products match these filters.");
    expect(html).toContain("0 products");
  });

  it("a search that names a variant opens its product on that choice, at that choice's price, in either language and digits", async () => {
    const details = await backend<{ data: ProductDetails }>("/products/iphone-16-pro");
    const from = { en: "From {{price}}", ar: "ابتداءً من {{price}}" };
    for (const [locale, q, expected, chosen] of [
      ["en", "iphone 16 pro 512", "?storage=512gb", { storage: "512gb" }],
      ["en", "iphone 16 pro desert 1tb", "?colour=desert&storage=1tb", { colour: "desert", storage: "1tb" }],
      ["ar", "ايفون ١٦ برو صحراوي", "?colour=desert", { colour: "desert" }],
    ] as const) {
      const { html } = await page(`/${locale}/products?q=${encodeURIComponent(q)}`);
      const card = html
        .split('<article class="product-card">')
        .find((c) => c.includes("/product-details/iphone-16-pro"));
      expect(card, q).toBeDefined();
      expect(/href="([^"]+)"/.exec(card!)?.[1]?.replace(/&amp;/g, "&"), q).toBe(
        `/${locale}/product-details/iphone-16-pro${expected}`,
      );
      // The choice's price, "From" only when its variants' prices differ.
      const named = details.data.variants!.filter((v) =>
        Object.entries(chosen).every(([option, value]) => v.options[option] === value),
      );
      const selling = named.some((v) => v.stock > 0) ? named.filter((v) => v.stock > 0) : named;
      const label = riyals(Math.min(...selling.map((v) => v.price)), locale);
      const varies = new Set(named.map((v) => v.price)).size > 1;
      expect(card, q).toContain(varies ? from[locale].replace("{{price}}", label) : label);
      if (!varies) expect(card, q).not.toContain(from[locale].replace(" {{price}}", ""));
    }
    // Words every variant shares choose none: the card opens the product's own page.
    const { html } = await page(`/en/products?q=${encodeURIComponent("iphone 16 pro titanium")}`);
    expect(html).toContain('href="/en/product-details/iphone-16-pro"');
  });

  it("ignores a parameter it does not understand instead of failing", async () => {
    const [{ status, html }, list] = await Promise.all([
      page("/en/products?sort=cheapest&page=abc"),
      backend<ListAnswer>("/products?per_page=12"),
    ]);
    expect(status).toBe(200);
    expect(cards(html)).toEqual(list.data.map((p) => p.slug));
    expect(html).toContain("Some filter values were not understood");
  });

  it("keeps the page number, but not the filters' noise, in its canonical URL, with breadcrumbs as JSON-LD", async () => {
    const { html } = await page("/ar/products?category=phones&page=2&sort=name");
    expect(canonical(html)).toBe(`${base}/ar/products?category=phones&page=2`);
    const crumbs = jsonLd(html).find((d) => d["@type"] === "BreadcrumbList") as {
      itemListElement: { position: number; item: string }[];
    };
    expect(crumbs.itemListElement.map((i) => i.position)).toEqual([1, 2, 3]);
    expect(crumbs.itemListElement[2].item).toBe(`${base}/ar/products?category=phones`);
  });
});

describe("a product page", () => {
  it("carries JSON-LD Product with an Offer priced as a decimal, and breadcrumbs", async () => {
    // A product of one variant (one of several is a ProductGroup: the test below).
    const list = await backend<ListAnswer>("/products?per_page=12");
    const p = list.data.find((x) => (x.variant_count ?? 1) === 1)!;
    const { status, html } = await page(`/en/product-details/${p.slug}`);
    expect(status).toBe(200);
    const data = jsonLd(html);
    const product = data.find((d) => d["@type"] === "Product") as Record<string, unknown> & {
      offers: Record<string, unknown>;
    };
    expect(product["@context"]).toBe("https://schema.org");
    expect(product.name).toBe(p.name);
    expect(product.offers["@type"]).toBe("Offer");
    expect(product.offers.price).toBe((p.price / 100).toFixed(2));
    expect(product.offers.priceCurrency).toBe(p.currency);
    expect(product.offers.availability).toBe(
      p.in_stock ? "https://schema.org/InStock" : "https://schema.org/OutOfStock",
    );
    const crumbs = data.find((d) => d["@type"] === "BreadcrumbList") as {
      itemListElement: { name: string; item: string }[];
    };
    expect(crumbs.itemListElement.at(-1)?.item).toBe(`${base}/en/product-details/${p.slug}`);
    // The data block is JSON, never markup: no raw "<" inside it.
    for (const m of html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g))
      expect(m[1]).not.toContain("<");
  });

  it("lists its specifications in JSON-LD as PropertyValues, typed ones formatted with their units", async () => {
    for (const [locale, screen, storage] of [
      // Its storage is its variants': every size it is sold in.
      [
        "en",
        { name: "Screen size", value: "6.3\u00a0inch" },
        { name: "Storage", value: "128 GB · 256 GB · 512 GB · 1 TB" },
      ],
      [
        "ar",
        { name: "حجم الشاشة", value: "6.3\u00a0بوصة" },
        { name: "السعة التخزينية", value: "128 جيجابايت · 256 جيجابايت · 512 جيجابايت · 1 تيرابايت" },
      ],
    ] as const) {
      const { html } = await page(`/${locale}/product-details/iphone-16-pro`);
      const product = jsonLd(html).find((d) => d["@type"] === "ProductGroup") as {
        additionalProperty: { "@type": string; name: string; value: string }[];
      };
      expect(product.additionalProperty).toEqual(
        expect.arrayContaining([
          { "@type": "PropertyValue", ...screen },
          { "@type": "PropertyValue", ...storage },
        ]),
      );
      // A typed value supersedes the free-form row of its label: each name once.
      const names = product.additionalProperty.map((p) => p.name);
      expect(new Set(names).size).toBe(names.length);
    }
  });

  it("a product of several variants renders the variant its URL chooses, with pickers that are links, as a ProductGroup", async () => {
    const url = "/en/product-details/iphone-16-pro";
    const { html } = await page(`${url}?colour=black&storage=1tb`);
    // The chosen variant's price and SKU, server-rendered.
    expect(html).toMatch(/SAR.6,899\.00/);
    expect(html).toContain("APP-1001-BLACK-1TB");
    // Every value is a link to its variant; the chosen ones are marked.
    const picks = [...html.matchAll(/<a[^>]*class="variant-picker__value[^"]*"[^>]*>/g)].map((m) => m[0]);
    expect(picks.length).toBe(8);
    expect(
      picks.filter((a) => a.includes('aria-current="true"')).map((a) => /data-value="([^"]+)"/.exec(a)?.[1]),
    ).toEqual(["black", "1tb"]);
    expect(picks.some((a) => a.includes(`href="${url}?colour=white&amp;storage=1tb"`))).toBe(true);
    // The canonical URL is the product's, whatever the choice.
    expect(canonical(html)).toBe(`${base}${url}`);
    const group = jsonLd(html).find((d) => d["@type"] === "ProductGroup") as {
      url: string;
      variesBy: string[];
      hasVariant: { sku: string; url: string; color: string; offers: { price: string; availability: string } }[];
    };
    expect(group.url).toBe(`${base}${url}`);
    expect(group.variesBy).toEqual(["https://schema.org/color", "Storage"]);
    expect(group.hasVariant).toHaveLength(16);
    expect(group.hasVariant.find((v) => v.sku === "APP-1001-BLACK-1TB")).toMatchObject({
      url: `${base}${url}?colour=black&storage=1tb`,
      color: "Black Titanium",
      offers: { price: "6899.00" },
    });
    // A sold-out combination is still offered, as out of stock.
    expect(group.hasVariant.some((v) => v.offers.availability === "https://schema.org/OutOfStock")).toBe(true);
  });

  it("groups its typed specifications under their headings, in the category's order, the free-form rest last", async () => {
    for (const [locale, headings] of [
      ["en", ["Display", "Performance", "Memory and storage", "Software", "Connectivity", "More details"]],
      ["ar", ["الشاشة", "الأداء", "الذاكرة والتخزين", "البرمجيات", "الاتصال", "تفاصيل أخرى"]],
    ] as const) {
      const { html } = await page(`/${locale}/product-details/iphone-16-pro`);
      const specs = html.slice(html.indexOf('id="product-specs"'));
      expect(
        [...specs.matchAll(/<caption>([^<]*)<\/caption>/g)].map((m) => m[1]),
        locale,
      ).toEqual(headings);
    }
  });

  it("has absolute, reciprocal hreflang alternates (en, ar, x-default) and a canonical URL", async () => {
    const { data } = await backend<ListAnswer>("/products?per_page=1");
    const slug = data[0].slug;
    const [en, ar] = await Promise.all([page(`/en/product-details/${slug}`), page(`/ar/product-details/${slug}`)]);
    const expected = {
      en: `${base}/en/product-details/${slug}`,
      ar: `${base}/ar/product-details/${slug}`,
      "x-default": `${base}/en/product-details/${slug}`,
    };
    expect(links(en.html)).toEqual(expected);
    expect(links(ar.html)).toEqual(expected);
    expect(canonical(en.html)).toBe(expected.en);
    expect(canonical(ar.html)).toBe(expected.ar);
  });

  it("is in the page's language: the Arabic page shows the Arabic name", async () => {
    const { data } = await backend<ListAnswer>("/products?per_page=1", "ar");
    const { html } = await page(`/ar/product-details/${data[0].slug}`);
    expect(html).toContain(`<html lang="ar-SA" dir="rtl"`);
    expect(html).toContain(data[0].name);
  });

  it("sizes its images and fetches the main one first", async () => {
    const { data } = await backend<ListAnswer>("/products?per_page=1");
    const { html } = await page(`/en/product-details/${data[0].slug}`);
    const imgs = [...html.matchAll(/<img [^>]+>/g)].map((m) => m[0]);
    expect(imgs.length).toBeGreaterThan(0);
    for (const img of imgs) {
      expect(img).toMatch(/width="\d+"/);
      expect(img).toMatch(/height="\d+"/);
    }
    expect(imgs.some((img) => /fetchpriority="high"/i.test(img))).toBe(true);
  });

  it("§8: an unknown slug is a backend 404, which redirects to /error (the error screen, status 404)", async () => {
    for (const locale of ["en", "ar"]) {
      const res = await fetch(`${base}/${locale}/product-details/no-such-product-here`, { redirect: "manual" });
      expect(res.status).toBe(302);
      expect(new URL(res.headers.get("location")!, base).pathname).toBe("/error");
      const { status, html } = await page("/error");
      expect(status).toBe(404);
      expect(html).toContain('class="error-screen"');
      expect(html).toContain("site-header");
    }
  });
});

describe("content pages", () => {
  it("render the plain-text body as headings and paragraphs", async () => {
    const about = await backend<{ data: { title: string; body: string } }>("/pages/about-us");
    const { status, html } = await page("/en/about-us");
    expect(status).toBe(200);
    expect(html).toContain(about.data.title);
    const heading = about.data.body.split("\n").find((l) => l.startsWith("## "));
    const main = html.slice(html.indexOf("<main"), html.indexOf("</main>"));
    expect(heading).toBeDefined();
    expect(main).toContain(`<h2>${(heading ?? "").slice(3).trim().replace(/&/g, "&amp;")}</h2>`);
    expect(main).not.toContain("## ");
  });

  it("§8: an unknown content page or service is a backend 404, which redirects to /error", async () => {
    for (const path of ["/en/page/no-such-page", "/ar/services/no-such-service"]) {
      const res = await fetch(`${base}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location"), path).toBe("/error");
    }
  });
});

describe("the contact form without JavaScript", () => {
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${base}${path}`, {
      method: "POST",
      headers: { origin: base },
      body: new URLSearchParams(fields),
      redirect: "manual",
    });

  it("sends a message and says so", async () => {
    const res = await post("/ar/contact-us", {
      name: "سارة أحمد",
      email: "sara.nojs@example.com",
      subject: "سؤال عن طلب",
      message: "أود معرفة موعد توصيل طلبي من فضلكم.",
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/<div class="notice notice--ok" role="status"><p>[^<]*شكرًا/);
  });

  it("answers 422 with the backend's message for each field", async () => {
    const res = await post("/en/contact-us", { email: "not-an-email" });
    expect(res.status).toBe(422);
    const html = await res.text();
    const summary = html.match(/<div class="form__summary" role="alert">([\s\S]*?)<\/div>/)?.[1] ?? "";
    for (const label of ["Full name", "Email", "Subject", "Message"]) expect(summary).toContain(`<li>${label}: `);
  });
});

describe("sitemap.xml and robots.txt", () => {
  it("the sitemap lists every product in both locales, with alternates", async () => {
    const first = await backend<ListAnswer>("/products?per_page=48");
    const rest = await Promise.all(
      Array.from({ length: first.meta.last_page - 1 }, (_, i) =>
        backend<ListAnswer>(`/products?per_page=48&page=${i + 2}`),
      ),
    );
    const slugs = [first, ...rest].flatMap((r) => r.data.map((p) => p.slug));
    expect(slugs.length).toBe(first.meta.total);
    const res = await fetch(`${base}/sitemap.xml`);
    expect(res.headers.get("content-type")).toContain("xml");
    const xml = await res.text();
    for (const slug of slugs) {
      for (const locale of ["en", "ar"]) expect(xml).toContain(`<loc>${base}/${locale}/product-details/${slug}</loc>`);
      expect(xml).toContain(`<xhtml:link rel="alternate" hreflang="ar" href="${base}/ar/product-details/${slug}"/>`);
    }
    for (const path of ["", "/products", "/services", "/page", "/about-us", "/privacy-policy", "/contact-us"]) {
      expect(xml).toContain(`<loc>${base}/en${path}</loc>`);
      expect(xml).toContain(`<loc>${base}/ar${path}</loc>`);
    }
    const services = await backend<{ data: { slug: string }[] }>("/services");
    for (const s of services.data) expect(xml).toContain(`<loc>${base}/ar/services/${s.slug}</loc>`);
    expect(xml).not.toContain("/checkout");
  });

  it("robots.txt keeps crawlers out of the cart, checkout, account, sign-in and wishlists, and names the sitemap", async () => {
    const text = await (await fetch(`${base}/robots.txt`)).text();
    for (const locale of ["en", "ar"])
      for (const p of ["shopping-cart", "checkout", "profile", "orders", "auth", "wishlist"])
        expect(text).toContain(`Disallow: /${locale}/${p}`);
    expect(text).toContain(`Sitemap: ${base}/sitemap.xml`);
    expect(text).not.toMatch(/Disallow: \/(en|ar)\/products/);
  });

  it("cart, checkout and account pages ask not to be indexed; shop pages do not", async () => {
    for (const path of ["/en/shopping-cart", "/ar/checkout", "/en/auth/login"]) {
      expect((await page(path)).html, path).toMatch(/<meta name="robots" content="noindex/);
    }
    expect((await page("/en/products")).html).not.toMatch(/<meta name="robots" content="noindex/);
  });
});

describe("the home page", () => {
  it("shows the banners, categories, new arrivals and services in its main content, with nothing streamed after it", async () => {
    const [home, { html }] = await Promise.all([
      backend<{
        data: {
          banners: { title: string }[];
          categories: { name: string }[];
          new_arrivals: { slug: string }[];
          services: { name: string }[];
        };
      }>("/home", "ar"),
      page("/ar"),
    ]);
    // Every row is rendered in place, in the document's order: none waits in a hidden segment
    // for a script to move it (routes/home.tsx says why the page waits for its one read).
    const main = html.slice(html.indexOf('<main id="main"'), html.indexOf("</main>"));
    for (const b of home.data.banners.slice(0, 1)) expect(main).toContain(b.title);
    for (const c of home.data.categories) expect(main).toContain(c.name);
    expect(home.data.new_arrivals.length).toBeGreaterThan(0);
    for (const p of home.data.new_arrivals.slice(0, 8)) expect(cards(main)).toContain(p.slug);
    for (const s of home.data.services.slice(0, 4)) expect(main).toContain(s.name);
    expect(html).not.toMatch(/<div hidden id="S:/);
    expect(html).not.toContain("$RC(");
  });

  it("renders no markup nobody sees: the closed cart drawer has its name and close button but no body", async () => {
    for (const path of ["/en", "/ar/products"]) {
      const { html } = await page(path);
      const drawer = html.slice(html.indexOf('<dialog id="cart-drawer"'), html.indexOf("</dialog>"));
      expect(drawer, path).toContain('<h2 id="cart-drawer-title">');
      expect(drawer, path).toMatch(/<button type="button" class="icon-button icon-button--close" aria-label="[^"]+">/);
      expect(drawer, path).not.toContain("drawer__body");
      // The app status at rest (components/PwaStatus.tsx): online, no worker yet, no install prompt.
      expect(html, path).toContain(
        '<div class="pwa-status" data-sw-state="" data-install-state="unavailable"><p class="pwa-status__offline" role="status" hidden=""></p></div>',
      );
    }
  });
});

describe("the first frame", () => {
  it("waits for the main content: the head expects the footer, and every shop page has it after <main>", async () => {
    for (const path of [
      "/en",
      "/ar",
      "/en/products",
      "/ar/product-details/iphone-16-pro",
      "/en/privacy-policy",
      "/ar/no-such-page",
    ]) {
      const html = await (await fetch(`${base}${path}`)).text();
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head, path).toContain('<link rel="expect" href="#site-footer" blocking="render"/>');
      const main = html.indexOf('<main id="main"');
      const footer = html.indexOf('<footer id="site-footer"');
      expect(main, path).toBeGreaterThan(0);
      expect(footer, path).toBeGreaterThan(main);
    }
  });
});
