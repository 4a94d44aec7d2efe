import type { MiddlewareFunction } from "react-router";
import { referenceList } from "../lib/api/reference";
import { serverApi } from "../lib/api/server";
import type { CategoryNode } from "../../contract/catalogue";
import { catalogueContext, shopContext } from "../lib/context";
import { isLocale } from "../lib/locales";

/**
 * The `catalogue` middleware: gives the request one shared, lazily started read of the category
 * tree for the header navigation (and the filters that need it). It starts when the first loader
 * asks, and React Router runs the loaders side by side, so there is no waterfall; a page served
 * from the page cache never starts it, and the isolate keeps the tree while the catalogue version
 * stands (lib/api/reference.ts). A backend failure leaves the menu empty rather than
 * failing the page.
 */
export const catalogueMiddleware: MiddlewareFunction<Response> = async ({ request, params, context }, next) => {
  const locale = isLocale(params.locale) ? params.locale : context.get(shopContext).preferredLocale;
  let tree: Promise<CategoryNode[]> | undefined;
  context.set(
    catalogueContext,
    () =>
      (tree ??= referenceList(context, `${locale} /categories`, () =>
        serverApi(context, request, locale)
          .then((api) => api.get<CategoryNode[]>("/categories"))
          .then((res) => (Array.isArray(res.data) ? res.data : [])),
      ).catch(() => [] as CategoryNode[])),
  );
  return next();
};
