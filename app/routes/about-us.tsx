import type { Route } from "./+types/about-us";
import { ContentPageView } from "../components/ContentPageView";
import { loadContentPage } from "../lib/content.server";
import { pageMeta } from "../lib/seo";
import "../styles/catalog.css";

export const loader = (args: Route.LoaderArgs) => loadContentPage(args, "about-us");

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { page: "about", title: args.loaderData?.page.title, description: args.loaderData?.page.excerpt || undefined });

export default function AboutUs({ loaderData }: Route.ComponentProps) {
  return <ContentPageView page={loaderData.page} inList={false} />;
}
