import type { MiddlewareFunction, RouterContextProvider } from "react-router";
import { referenceList } from "../lib/api/reference";
import { serverApi } from "../lib/api/server";
import type { CategoryNode } from "../../contract/catalogue";
import { catalogueContext, shopContext } from "../lib/context";
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
 * The `catalog` middleware (spec §2's name): gives the request the category tree for the header
 * navigation (and the filters that need it) through `categoryTreeReader`. React Router runs the
 * loaders side by side, so there is no waterfall; a page served from the page cache never starts it.
 */
export const catalogMiddleware: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const locale = isLocale(params.locale) ? params.locale : context.get(shopContext).preferredLocale;
  context.set(catalogueContext, categoryTreeReader(context, request, locale));
  return next();
};
