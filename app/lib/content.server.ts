import type { RouterContextProvider } from "react-router";
import { serverApi } from "./api/server";
import type { ContentPage } from "./catalogue";
import { failLoad, routeLocale } from "./loaders";

/** Loads one of the backend's content pages (about-us, privacy-policy, terms, ...) for a route. */
export async function loadContentPage(
  args: { request: Request; params: { locale?: string }; context: Readonly<RouterContextProvider> },
  slug: string,
) {
  const locale = routeLocale(args.params, args.context);
  const api = await serverApi(args.context, args.request, locale);
  try {
    const { data } = await api.get<ContentPage>(`/pages/${encodeURIComponent(slug)}`);
    return { page: data };
  } catch (error) {
    failLoad(error, locale);
  }
}
