import type { Route } from "./+types/home";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "home" });

export default function Home() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.home.title")}</h1>
    </div>
  );
}
