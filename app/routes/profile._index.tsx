import type { Route } from "./+types/profile._index";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

export default function Profile() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.profile.title")}</h1>
    </div>
  );
}
