import type { Route } from "./+types/auth.otp";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "otp", noindex: true });

export default function Otp() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.otp.title")}</h1>
    </div>
  );
}
