import type { Route } from "./+types/profile.$slug";
import { authMiddleware } from "../middleware/auth";
import { pageMeta } from "../lib/seo";
import { useT } from "../lib/use-locale";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

export default function ProfileSection() {
  const t = useT();
  return (
    <div className="container page">
      <h1>{t("pages.profile.title")}</h1>
    </div>
  );
}
