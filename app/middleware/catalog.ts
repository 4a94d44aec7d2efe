import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { referenceList, referenceValue } from "../lib/api/reference";
import { serverApi } from "../lib/api/server";
import type { CategoryNode } from "../../contract/catalogue";
import { STORE_IDENTITY_PATH, type StoreIdentity } from "../../contract/settings";
import { catalogueContext, shopContext, storeContext } from "../lib/context";
import { isLocale, type Locale } from "../lib/locales";

/**
 * One shared, lazily started read of the category tree for a request: it starts when the first
 * loader asks, and the isolate keeps the tree while the catalogue version stands
 * (lib/api/reference.ts). A backend failure gives an empty menu rather than failing the page.
 */
export function categoryTreeReader(
  context: Readonly<RouterContextProvider>,
  request: Request,
  locale: Locale,
): () => Promise<CategoryNode[]> {
  let tree: Promise<CategoryNode[]> | undefined;
  return () =>
    (tree ??= referenceList(context, `${locale} /categories`, () =>
      serverApi(context, request, locale)
        .then((api) => api.get<CategoryNode[]>("/categories"))
        .then((res) => (Array.isArray(res.data) ? res.data : [])),
    ).catch(() => [] as CategoryNode[]));
}

/**
 * One shared, lazily started read of the store's name and logo (the owner's settings) for a request,
 * kept by the isolate like the category tree: a save of them bumps the catalogue version. A backend
 * that cannot say gives null, and the page shows the built-in name and logo.
 */
export function storeIdentityReader(
  context: Readonly<RouterContextProvider>,
  request: Request,
  locale: Locale,
): () => Promise<StoreIdentity | null> {
  let store: Promise<StoreIdentity | null> | undefined;
  return () =>
    (store ??= referenceValue(
      context,
      `${locale} ${STORE_IDENTITY_PATH}`,
      () =>
        serverApi(context, request, locale)
          .then((api) => api.get<StoreIdentity>(STORE_IDENTITY_PATH))
          .then((res) => storeIdentityOf(res.data)),
      (value) => value !== null,
    ).catch(() => null));
}

/** The answer's name and logo, when it has them (an operator's own backend may answer otherwise). */
function storeIdentityOf(data: unknown): StoreIdentity | null {
  if (data === null || typeof data !== "object") return null;
  const { name, logo_url } = data as Partial<Record<keyof StoreIdentity, unknown>>;
  if (typeof name !== "string" || !name.trim()) return null;
  return { name, logo_url: typeof logo_url === "string" ? logo_url : "" };
}

/**
 * The `catalog` middleware (spec §2's name): gives the request the category tree for the header
 * navigation (and the filters that need it) through `categoryTreeReader`, and the store's name and
 * logo through `storeIdentityReader`. React Router runs the
 * loaders side by side, so there is no waterfall; a page served from the page cache never starts it.
 */
export const catalogMiddleware: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const locale = isLocale(params.locale) ? params.locale : context.get(shopContext).preferredLocale;
  context.set(catalogueContext, categoryTreeReader(context, request, locale));
  context.set(storeContext, storeIdentityReader(context, request, locale));
  return next();
};
