import type { Route } from "./+types/auth.login";
import { authMiddleware } from "../middleware/auth";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "login", noindex: true });

export default function Login() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.login.title")}</h1>
    </div>
  );
}
