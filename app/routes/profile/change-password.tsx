import type { Route } from "./+types/change-password";
import { useProfileUser, type ProfileHandle } from "./data";
import { ChangePassword } from "../../components/profile/ChangePassword";
import { Link } from "../../lib/link";
import { pageMeta } from "../../lib/seo";
import { useLocalePath, useT } from "../../lib/use-locale";
import { authMiddleware } from "../../middleware/auth";
import { scriptRequired } from "../../lib/no-script.server";

export const middleware: Route.MiddlewareFunction[] = [authMiddleware];

export const handle: ProfileHandle = { profileSection: "change-password" };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { page: "profile", noindex: true });

/** Posted without JavaScript: the form carries a secret, so it posts, and the page says it needs the script. */
export const action = (args: Route.ActionArgs) => scriptRequired(args);

/** An account made with a code has no password to change: it sets one through the reset flow. */
function SetPassword() {
  const t = useT();
  const to = useLocalePath();
  return (
    <section className="card profile-card" aria-labelledby="password-title">
      <h2 id="password-title">{t("profile.sections.changePassword")}</h2>
      <p>
        {t("codeSignIn.profile.noPassword")}{" "}
        <Link to={to("/auth/forget-password")}>{t("codeSignIn.profile.setPassword")}</Link>
      </p>
    </section>
  );
}

export default function ProfileChangePassword() {
  return useProfileUser().code_only ? <SetPassword /> : <ChangePassword />;
}
