import type { Route } from "./+types/auth.forget-password";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "forgetPassword", noindex: true });

export default function ForgetPassword() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.forgetPassword.title")}</h1>
    </div>
  );
}
