import type { MetaDescriptor } from "react-router";
import { translate } from "./i18n";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "./locales";

/** The part of React Router's meta arguments this helper reads. */
export interface MetaInput {
  params: Record<string, string | undefined>;
  location: { pathname: string; search: string };
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
}

export interface RootMetaData {
  origin: string;
  preferredLocale: Locale;
}

export function rootData(matches: MetaInput["matches"]): RootMetaData | undefined {
  return matches.find((m) => m?.id === "root")?.data as RootMetaData | undefined;
}

/**
 * The store's name as the owner set it (store settings, carried by the shop layout's data:
 * components/ShopChrome.tsx), or undefined outside the shop's frame or when the backend did not say.
 */
export function storeNameOf(matches: MetaInput["matches"]): string | undefined {
  for (const m of matches) {
    const name = (m?.data as { store?: { name?: string } | null } | undefined)?.store?.name;
    if (name) return name;
  }
}

export function metaLocale(args: MetaInput): Locale {
  const p = args.params.locale;
  return isLocale(p) ? p : (rootData(args.matches)?.preferredLocale ?? DEFAULT_LOCALE);
}

/** The path without its locale prefix: `/ar/products` → `/products`, `/en` → ``. */
export function unprefixedPath(pathname: string): string {
  const parts = pathname.split("/");
  return isLocale(parts[1]) ? `/${parts.slice(2).join("/")}`.replace(/\/$/, "") : pathname.replace(/\/$/, "");
}

export interface PageMetaOptions {
  /** Key under `pages.` in the locale files, for the default title and description. */
  page: string;
  title?: string;
  /** The whole <title> as the shop wrote it (a product's SEO title): the shop's name is not added. */
  fullTitle?: boolean;
  description?: string;
  noindex?: boolean;
  /** Query parameters that make a distinct page (kept in canonical and alternates), such as `page`. */
  keepQuery?: string[];
  extra?: MetaDescriptor[];
}

/**
 * Title, description, canonical and reciprocal hreflang alternates (en, ar, x-default), all
 * absolute. Every route module's `meta` goes through here.
 */
export function pageMeta(args: MetaInput, opts: PageMetaOptions): MetaDescriptor[] {
  const locale = metaLocale(args);
  const origin = rootData(args.matches)?.origin ?? "";
  const t = (key: string) => translate(locale, key);
  const appName = storeNameOf(args.matches) ?? t("app.name");
  const title = opts.title ?? t(`pages.${opts.page}.title`);
  const description = opts.description ?? t(`pages.${opts.page}.description`);
  const rest = unprefixedPath(args.location.pathname);
  const query = new URLSearchParams(args.location.search);
  const kept = new URLSearchParams();
  for (const key of opts.keepQuery ?? []) {
    const v = query.get(key);
    if (v) kept.set(key, v);
  }
  const qs = kept.size ? `?${kept}` : "";
  const url = (l: Locale) => `${origin}/${l}${rest}${qs}`;
  const descriptors: MetaDescriptor[] = [
    { title: opts.fullTitle ? title : `${title} | ${appName}` },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:site_name", content: appName },
    { property: "og:description", content: description },
    { property: "og:locale", content: LOCALES[locale].tag.replace("-", "_") },
    { tagName: "link", rel: "canonical", href: url(locale) },
    { tagName: "link", rel: "alternate", hrefLang: "en", href: url("en") },
    { tagName: "link", rel: "alternate", hrefLang: "ar", href: url("ar") },
    { tagName: "link", rel: "alternate", hrefLang: "x-default", href: rest === "" ? `${origin}/` : url("en") },
  ];
  if (opts.noindex) descriptors.push({ name: "robots", content: "noindex, nofollow" });
  return [...descriptors, ...(opts.extra ?? [])];
}

/** The absolute origin of the page (for JSON-LD and sitemap URLs). */
export function metaOrigin(args: MetaInput): string {
  return rootData(args.matches)?.origin ?? "";
}

/**
 * Structured data as a meta descriptor: React Router renders it as a nonce-less
 * `<script type="application/ld+json">` (a data block, never executed, so the CSP allows it)
 * and escapes `<`, `>` and `&` in the JSON.
 */
export function jsonLd(data: Record<string, unknown>): MetaDescriptor {
  return { "script:ld+json": { "@context": "https://schema.org", ...data } };
}

/** A schema.org BreadcrumbList from names and absolute URLs, in order. */
export function breadcrumbList(items: { name: string; url: string }[]): MetaDescriptor {
  return jsonLd({
    "@type": "BreadcrumbList",
    itemListElement: items.map((item, i) => ({
      "@type": "ListItem",
      position: i + 1,
      name: item.name,
      item: item.url,
    })),
  });
}
