import type { Route } from "./+types/auth.confirm-password";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "confirmPassword", noindex: true });

export default function ConfirmPassword() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.confirmPassword.title")}</h1>
    </div>
  );
}
