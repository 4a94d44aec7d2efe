import type { Route } from "./+types/page._index";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "pageList" });

export default function PageList() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.pageList.title")}</h1>
    </div>
  );
}
