import type { Route } from "./+types/privacy-policy";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "privacy" });

export default function PrivacyPolicy() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.privacy.title")}</h1>
    </div>
  );
}
