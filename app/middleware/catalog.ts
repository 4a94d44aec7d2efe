import type { MiddlewareFunction } from "react-router";
import { serverApi } from "../lib/api/server";
import { catalogContext, shopContext, type CategoryNode } from "../lib/context";
import { isLocale } from "../lib/locales";

/**
 * The `catalog` middleware: starts loading the category tree once per request for the header
 * navigation. It is not awaited here, so it runs beside the page's own loaders (no waterfall);
 * a backend failure leaves the menu empty rather than failing the page.
 */
export const catalogMiddleware: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const locale = isLocale(params.locale) ? params.locale : context.get(shopContext).preferredLocale;
  const tree = serverApi(context, request, locale)
    .then((api) => api.get<CategoryNode[]>("/categories"))
    .then((res) => (Array.isArray(res.data) ? res.data : []))
    .catch(() => [] as CategoryNode[]);
  context.set(catalogContext, tree);
  return next();
};
