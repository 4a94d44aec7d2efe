import type { Route } from "./+types/about-us";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "about" });

export default function AboutUs() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.about.title")}</h1>
    </div>
  );
}
