import { createContext } from "react-router";
import type { Locale } from "./locales";

/** A signed-in visitor as the own server keeps them (DESIGN §5). */
export interface SessionUser {
  id: number | string;
  name: string;
  email?: string;
  phone?: string;
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
  /** Sends a request to the commerce backend: in-process by default, over HTTP when BACKEND_URL is set. */
  backend: (path: string, init: RequestInit) => Promise<Response>;
  /** The backend base the browser should call. */
  publicBackendBase: string;
  /** The own-server session of this request (user and backend token), if signed in. */
  getSession: () => Promise<{ user: SessionUser; token: string } | null>;
  waitUntil: (promise: Promise<unknown>) => void;
}

export const shopContext = createContext<ShopContext>();

/** Filled by the `catalog` middleware: reads the category tree for the header, at most once per request, when first called. */
export interface CategoryNode {
  id: number;
  slug: string;
  name: string;
  children?: CategoryNode[];
}
export const catalogContext = createContext<() => Promise<CategoryNode[]>>(() => Promise.resolve([]));

/** Filled by the shop layout middleware: the locale of this request. */
export const localeContext = createContext<Locale>("en");
