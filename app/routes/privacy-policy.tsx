import type { Route } from "./+types/privacy-policy";
import { pageCacheMiddleware } from "../middleware/page-cache";
import { ContentPageView } from "../components/ContentPageView";
import { loadContentPage } from "../lib/content.server";
import { pageMeta } from "../lib/seo";

export const loader = (args: Route.LoaderArgs) => loadContentPage(args, "privacy-policy");

/** A public page, the same for every anonymous visitor: kept briefly in memory (middleware/page-cache.ts). */
export const middleware: Route.MiddlewareFunction[] = [pageCacheMiddleware];

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    page: "privacy",
    title: args.loaderData?.page.title,
    description: args.loaderData?.page.excerpt || undefined,
  });

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  return <ContentPageView page={loaderData.page} inList={false} />;
}
