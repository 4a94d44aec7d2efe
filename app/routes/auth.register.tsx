import type { Route } from "./+types/auth.register";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "register", noindex: true });

export default function Register() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.register.title")}</h1>
    </div>
  );
}
