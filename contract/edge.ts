// What the edge (worker/) hands the storefront (app/) and what both must agree on: the load
// context of every request, the signed-in visitor, the locale cookie, the page-cache header and
// the build id. Both sides import this module; it imports neither (test/node/boundaries.test.ts).
import { parse, serialize } from "cookie";
import { createContext } from "react-router";
import { LOCALE_COOKIE, type Locale } from "./locale";

/** A signed-in visitor as the own server keeps them (DESIGN §5). */
export interface SessionUser {
  id: number | string;
  name: string;
  email?: string | null;
  phone?: string | null;
  verified?: boolean;
}

/**
 * What the edge gives the storefront on every request. The storefront sees functions, never
 * bindings: it knows nothing of D1 or KV.
 */
export interface ShopContext {
  requestId: string;
  nonce: string;
  /** The absolute origin for canonical and hreflang URLs. */
  origin: string;
  /** The locale from the i18n_redirected cookie or Accept-Language, for unprefixed paths. */
  preferredLocale: Locale;
  environment: string;
  /** Share of visits (0 to 1) whose Core Web Vitals the storefront reports (RUM_SAMPLE_RATE). */
  rumSampleRate: number;
  /** Sends a request to the commerce backend: in-process by default, over HTTP when BACKEND_URL is set. */
  backend: (path: string, init: RequestInit) => Promise<Response>;
  /** The backend base the browser should call. */
  publicBackendBase: string;
  /** Spec §7's separate lookup base URL (the browser's `lookup()` GETs); the backend base unless configured. */
  publicLookupBase: string;
  /**
   * The catalogue version the backend last gave (`GET /backend/catalogue/version`, asked at most
   * once a second per isolate); null when the backend has no such endpoint. Every catalogue change
   * moves it, so what was read under one version is still true while it stands.
   */
  catalogueVersion: () => Promise<number | null>;
  /** The own-server session of this request (user and backend token), if signed in. */
  getSession: () => Promise<{ user: SessionUser; token: string } | null>;
  waitUntil: (promise: Promise<unknown>) => void;
}

export const shopContext = createContext<ShopContext>();

/** The response header by which a page says "the same for every anonymous visitor". */
export const PAGE_CACHEABLE_HEADER = "x-page-cacheable";

/**
 * Query parameters that campaigns and ad clicks add to a landing URL and no page reads: Google's
 * and Microsoft's click ids (one per click), Facebook's, TikTok's, Mailchimp's, and every `utm_`
 * tag. The page cache keys a page without them, so each ad click is not a fresh render, and the
 * storefront never writes them into a page (the language switch leaves them off), so the page kept
 * for one click is the page for every other. The browser's own scripts still see them in the
 * address bar. Any other parameter still makes a page of its own: only the route knows which it
 * reads, and one that it does not read costs one render, as a new search's `q` does.
 * The names: utm_*; gclid, dclid, gclsrc, gbraid, wbraid; msclkid; fbclid; ttclid, twclid;
 * li_fat_id; igshid; yclid; mc_cid, mc_eid; _ga, _gl (one list of names: the header ships it to every page).
 */
const TRACKING_NAMES =
  "utm_.*|[gd]clid|gclsrc|[gw]braid|msclkid|fbclid|t[tw]clid|li_fat_id|igshid|yclid|mc_[ce]id|_g[al]";
const TRACKING_PARAMS = new RegExp(`^(?:${TRACKING_NAMES})$`);

export const isTrackingParam = (name: string): boolean => TRACKING_PARAMS.test(name);

/** Any of those names as a search spells it unescaped: after `?`, `&` or nothing, before `=`, `&` or the end. */
const TRACKING_IN_SEARCH = new RegExp(`(?:^|[?&])(?:${TRACKING_NAMES})(?:[=&]|$)`);

/** A URL's search (`?a=1&utm_source=x`, or "") without the tracking parameters: as it was when it has none. */
export function withoutTracking(search: string): string {
  // Most searches carry none: told from the text alone, without parsing it (escaped names parse).
  if (!search.includes("%") && !TRACKING_IN_SEARCH.test(search)) return search === "?" ? "" : search;
  const params = new URLSearchParams(search);
  const tags = [...params.keys()].filter(isTrackingParam);
  if (!tags.length) return search === "?" ? "" : search;
  for (const name of tags) params.delete(name);
  return params.size ? `?${params}` : "";
}

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * The locale cookie to set for a visitor now on a page in `locale`, or null when the cookie
 * already says so: set on the first visit and whenever the visitor moves to the other locale.
 * Shared by the storefront's redirect middleware and the Worker's page cache, which answers
 * before it runs.
 */
export function localeCookie(cookieHeader: string | null, locale: Locale): string | null {
  const current = parse(cookieHeader ?? "")[LOCALE_COOKIE];
  return current === locale ? null : serialize(LOCALE_COOKIE, locale, { path: "/", maxAge: ONE_YEAR, sameSite: "lax" });
}

const MOBILE_UA = /Mobi|Android|iPhone|iPad|iPod|Windows Phone/i;

/**
 * Spec §7/§9 `device-type` on the server (DESIGN §5): 2 for a mobile device (the client hint or
 * a mobile user agent), else 1. The SSR client and the own server's calls both ask this.
 */
export function deviceTypeFromHeaders(headers: Headers): 1 | 2 {
  if (headers.get("sec-ch-ua-mobile") === "?1") return 2;
  return MOBILE_UA.test(headers.get("user-agent") ?? "") ? 2 : 1;
}

/**
 * Spec §7 `content-language` of a call the edge makes for a visitor: the language the caller
 * named, else the locale cookie, else Accept-Language, else en.
 */
export function localeFromHeaders(headers: Headers): Locale {
  const named = headers.get("content-language")?.trim().toLowerCase();
  if (named === "en" || named === "ar") return named;
  const cookie = parse(headers.get("cookie") ?? "")[LOCALE_COOKIE];
  if (cookie === "en" || cookie === "ar") return cookie;
  return /^\s*ar\b/i.test(headers.get("accept-language") ?? "") ? "ar" : "en";
}

declare const __BUILD_ID__: string;
declare const __BUILD_TIME__: number;

/** Set at build time by vite.config.ts; the update check compares it with /builds/latest.json. */
export const BUILD_ID: string = typeof __BUILD_ID__ === "string" ? __BUILD_ID__ : "dev";
export const BUILD_TIME: number = typeof __BUILD_TIME__ === "number" ? __BUILD_TIME__ : 0;
