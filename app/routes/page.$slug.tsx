import type { Route } from "./+types/page.$slug";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "page" });

export default function ContentPage() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.page.title")}</h1>
    </div>
  );
}
